//go:build wasip1

// Command plugin is recmem's Extism plugin: go-pdk glue only. Every export
// hands its input to pkg/engine and returns the engine's JSON output, or sets
// the engine's error message and returns 1. The module imports no network or
// file-system capability of its own.
package main

import (
	pdk "github.com/extism/go-pdk"

	"github.com/recmem/recmem/pkg/engine"
)

// eng holds this instance's state between calls; export_state returns all of it.
var eng = engine.New()

// call runs export x on this call's input (plugin/exports_gen.go declares
// one wasm export per engine export, each calling call).
func call(x *engine.Export) int32 {
	if direct.armed {
		return callDirect(x)
	}
	if err := configure(); err != nil {
		pdk.SetError(err)
		return 1
	}
	out, err := eng.Run(x, pdk.Input())
	if err != nil {
		pdk.SetError(err)
		return 1
	}
	pdk.Output(out)
	return 0
}

func main() {}
