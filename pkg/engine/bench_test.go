package engine

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"

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

// BenchmarkRank10 ranks ten catalog items for a user with 20 purchases in
// memory (workload.RankMemory), next to the naive baseline of ordering the
// same ten by popularity alone. It needs the trained Games-6k catalog
// (web/catalog/games-6k.catalog, `recmem train catalog`) and skips without
// it. host.BenchmarkRank10Wasm runs the same inputs through the plugin.
func BenchmarkRank10(b *testing.B) {
	raw, err := os.ReadFile(workload.CatalogPath)
	if err != nil {
		b.Skip("trained catalog not found:", err)
	}
	cat, err := catalog.Parse(raw)
	if err != nil {
		b.Skip("catalog:", err)
	}
	e := New()
	if _, err := e.Call("load_catalog", raw); err != nil {
		b.Fatal(err)
	}
	for _, in := range workload.RankMemory(cat, 20) {
		if _, err := e.Call("record", in); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("linear", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := e.Call("rank", workload.Rank10(cat, i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline/popularity", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			var in struct {
				Candidates []string `json:"candidates"`
			}
			json.Unmarshal(workload.Rank10(cat, i), &in)
			sort.SliceStable(in.Candidates, func(x, y int) bool {
				px, _ := cat.Lookup(in.Candidates[x])
				py, _ := cat.Lookup(in.Candidates[y])
				return cat.Pop[px] > cat.Pop[py]
			})
			json.Marshal(in.Candidates)
		}
	})
}
