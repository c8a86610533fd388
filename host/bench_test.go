package host_test

import (
	"context"
	"os"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"

	"github.com/recmem/recmem/pkg/workload"
)

// BenchmarkRecordSignalWasm is BenchmarkRecordSignal of pkg/engine through
// the Go host on the .wasm module: the same inputs, so the ratio of the two is
// the cost of WebAssembly plus the Extism call.
func BenchmarkRecordSignalWasm(b *testing.B) {
	rt := openRuntime(b)
	in, err := rt.NewInstance(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close(context.Background())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := in.Call("record", workload.RecordSignal(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallOverhead measures an export that does no work: the floor of
// every call through the Go host.
func BenchmarkCallOverhead(b *testing.B) {
	rt := openRuntime(b)
	in, err := rt.NewInstance(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := in.Call("exports", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRank10Wasm is pkg/engine's BenchmarkRank10 through the plugin.
func BenchmarkRank10Wasm(b *testing.B) {
	raw, err := os.ReadFile("../web/catalog/games-6k.catalog")
	if err != nil {
		b.Skip("trained catalog not found:", err)
	}
	cat, err := catalog.Parse(raw)
	if err != nil {
		b.Skip("catalog:", err)
	}
	rt := openRuntime(b)
	in, err := rt.NewInstance(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close(context.Background())
	if _, err := in.Call("load_catalog", raw); err != nil {
		b.Fatal(err)
	}
	for _, r := range workload.RankMemory(cat, 20) {
		if _, err := in.Call("record", r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := in.Call("rank", workload.Rank10(cat, i)); err != nil {
			b.Fatal(err)
		}
	}
}
