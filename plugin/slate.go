//go:build wasip1

package main

//go:wasmexport add_units
func addUnits() int32 { return call("add_units") }

//go:wasmexport delete_units
func deleteUnits() int32 { return call("delete_units") }

//go:wasmexport purge
func purge() int32 { return call("purge") }

//go:wasmexport select_slate
func selectSlate() int32 { return call("select_slate") }
