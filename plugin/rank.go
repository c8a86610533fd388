//go:build wasip1

package main

//go:wasmexport load_catalog
func loadCatalog() int32 { return call("load_catalog") }

//go:wasmexport rank
func rankExport() int32 { return call("rank") }
