//go:build wasip1

package main

//go:wasmexport record
func record() int32 { return call("record") }

//go:wasmexport maintain
func maintain() int32 { return call("maintain") }

//go:wasmexport plan
func plan() int32 { return call("plan") }

//go:wasmexport apply_ops
func applyOps() int32 { return call("apply_ops") }

//go:wasmexport get_memory
func getMemory() int32 { return call("get_memory") }
