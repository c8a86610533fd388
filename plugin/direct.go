//go:build wasip1

package main

import (
	"unsafe"

	"github.com/recmem/recmem/pkg/engine"
)

// direct is recmem's fast path for hosts that can reach the module's own
// linear memory (the Go host does): instead of copying the input in and the
// output out through Extism's kernel eight bytes per call, the host asks
// recmem_input for a buffer, writes the input there, calls the export, and
// reads the result where recmem_output points. Every other host (the
// JavaScript SDK, go-sdk) uses the standard Extism input and output and
// never arms it. Both paths run the same engine call, so they answer the
// same bytes.
var direct struct {
	armed bool
	in    []byte // the input of the next call
	out   []byte // the output, or the error message, of the last direct call
}

// recmemInput arms the fast path for the next export call and returns the
// address of an n-byte buffer for its input (0 for n ≤ 0: no input). The
// buffer is fresh, so the engine may keep references into it.
//
//go:wasmexport recmem_input
func recmemInput(n int32) int32 {
	direct.armed = true
	direct.in = nil
	if n <= 0 {
		return 0
	}
	direct.in = make([]byte, n)
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(direct.in))))
}

// recmemOutput returns the result of the last direct call as address<<32 |
// length: the output when the export returned 0, the error message when it
// returned 1. It stays valid until the next call.
//
//go:wasmexport recmem_output
func recmemOutput() int64 {
	if len(direct.out) == 0 {
		return 0
	}
	p := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(direct.out))))
	return int64(p)<<32 | int64(len(direct.out))
}

// callDirect runs an export on the input recmem_input received.
func callDirect(x *engine.Export) int32 {
	in := direct.in
	direct.armed, direct.in, direct.out = false, nil, nil
	if err := configure(); err != nil {
		direct.out = []byte(err.Error())
		return 1
	}
	out, err := eng.Run(x, in)
	if err != nil {
		direct.out = []byte(err.Error())
		return 1
	}
	direct.out = out
	return 0
}
