package host_test

import (
	"context"
	"fmt"
	"testing"

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
				m, err := workload.LoCoMoMemory(locomoFromHost, n)
				if err != nil {
					b.Skip("LoCoMo not found:", err)
				}
				rt := openRuntime(b)
				in, err := rt.NewInstance(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				defer in.Close(context.Background())
				if _, err := in.Call("add_units", m.AddUnits(0, n)); err != nil {
					b.Fatal(err)
				}
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
	m, err := workload.LoCoMoMemory(locomoFromHost, 500)
	if err != nil {
		b.Skip("LoCoMo not found:", err)
	}
	rt := openRuntime(b)
	in, err := rt.NewInstance(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close(context.Background())
	if _, err := in.Call("add_units", m.AddUnits(0, 500)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := in.Call("add_units", m.AddCopy(i)); err != nil {
			b.Fatal(err)
		}
	}
}
