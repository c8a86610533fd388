package host_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/workload"
)

// locomoFromHost is workload.LoCoMoPath as seen from host/.
const locomoFromHost = "../../shared/data/locomo/locomo8.json"

// BenchmarkSelectSlateWasm is pkg/engine's BenchmarkSelectSlate through the
// Go host on the .wasm module: the same units and questions.
func BenchmarkSelectSlateWasm(b *testing.B) {
	for _, n := range []int{100, 500, 2000, 10000} {
		for _, ranker := range []string{"learned", "bm25"} {
			b.Run(fmt.Sprintf("units=%d/%s", n, ranker), func(b *testing.B) {
				in, m := locomoInstance(b, n)
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := in.Call("select_slate", m.Select(i, 2000, ranker)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkAddUnitWasm is pkg/engine's BenchmarkAddUnit through the plugin.
func BenchmarkAddUnitWasm(b *testing.B) {
	in, m := locomoInstance(b, 500)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := in.Call("add_units", m.AddCopy(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// locomoInstance opens an instance of the .wasm holding the first n LoCoMo
// units (the benchmark is skipped without LoCoMo), closed when b ends, and
// returns it with the workload that made it.
func locomoInstance(b *testing.B, n int) (*host.Instance, *workload.Memory) {
	b.Helper()
	m, err := workload.LoCoMoMemory(locomoFromHost, n)
	if err != nil {
		b.Skip("LoCoMo not found:", err)
	}
	in, err := openRuntime(b).NewInstance(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(context.Background()) })
	if _, err := in.Call("add_units", m.AddUnits(0, n)); err != nil {
		b.Fatal(err)
	}
	return in, m
}
