//go:build wasip1

package main

import (
	"runtime"
	"runtime/metrics"
)

// gcSamples are the two figures finishGC compares: the bytes of heap objects
// (live and not yet swept) and the heap goal of the current GC cycle.
var gcSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/gc/heap/goal:bytes"},
}

// finishGC runs a full garbage collection when the heap has grown past the
// goal of the current cycle.
//
// Why: a WebAssembly module has one thread, and Go's background mark workers
// are goroutines that run only when the export's goroutine yields. An export
// returns to the host without yielding, so a GC cycle that started during a
// call is left unfinished; the next calls keep allocating past the goal, and
// the instance's linear memory (which never shrinks) grows by the garbage of
// every call until it reaches the host's page cap and traps. runtime.GC
// finishes the cycle (and runs one more) before the export returns.
//
// Cost: one metrics read per call (about a microsecond); when it collects, a
// mark of the live heap, which happens once per heap doubling at most.
func finishGC() {
	metrics.Read(gcSamples)
	objects, goal := gcSamples[0].Value.Uint64(), gcSamples[1].Value.Uint64()
	if objects > goal {
		runtime.GC()
	}
}
