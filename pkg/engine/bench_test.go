package engine

import (
	"testing"

	"github.com/recmem/recmem/pkg/workload"
)

// BenchmarkRecordSignal measures recording one signal plus the LLM-free
// maintenance it triggers (every fifth signal runs extraction), natively.
// host.BenchmarkRecordSignalWasm runs the same inputs through the plugin.
func BenchmarkRecordSignal(b *testing.B) {
	e := New()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.Call("record", workload.RecordSignal(i)); err != nil {
			b.Fatal(err)
		}
	}
}
