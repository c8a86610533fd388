package engine

import (
	"fmt"
	"testing"

	"github.com/recmem/recmem/pkg/workload"
)

// loadUnits returns an engine holding n LoCoMo units, or skips when the data
// is not beside the repository.
func loadUnits(b *testing.B, n int) (*Engine, *workload.Memory) {
	b.Helper()
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
	if err != nil {
		b.Skip("LoCoMo not found:", err)
	}
	e := New()
	if _, err := e.Call("add_units", m.AddUnits(0, len(m.Units))); err != nil {
		b.Fatal(err)
	}
	return e, m
}

// BenchmarkSelectSlate selects a slate at B=2000 with the learned ranker,
// next to the naive baseline (BM25 alone, the same greedy fill), at several
// memory sizes. Native; host.BenchmarkSelectSlateWasm runs the same inputs
// through the plugin.
func BenchmarkSelectSlate(b *testing.B) {
	for _, n := range []int{100, 500, 2000, 10000} {
		for _, ranker := range []string{"learned", "bm25"} {
			b.Run(fmt.Sprintf("units=%d/%s", n, ranker), func(b *testing.B) {
				e, m := loadUnits(b, n)
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := e.Call("select_slate", m.Select(i, 2000, ranker)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkAddUnit adds one unit (real turn text, a fresh id) to a memory
// that starts with 500.
func BenchmarkAddUnit(b *testing.B) {
	e, m := loadUnits(b, 500)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.Call("add_units", m.AddCopy(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportImport round-trips the state of a 500-unit memory, next to
// the naive baseline of encoding the document without the checksum and the
// validation.
func BenchmarkExportImport(b *testing.B) {
	e, _ := loadUnits(b, 500)
	st, err := e.Call("export_state", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("export_state", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(st)))
		for b.Loop() {
			e.Call("export_state", nil)
		}
	})
	b.Run("import_state", func(b *testing.B) {
		e2 := New()
		b.ReportAllocs()
		b.SetBytes(int64(len(st)))
		for b.Loop() {
			if _, err := e2.Call("import_state", st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline/canonical_encoding", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.doc.canonical()
		}
	})
}

// BenchmarkBinaryState exports and imports the binary state of LoCoMo
// memories of several sizes (issue 18's targets are through the plugin:
// host.BenchmarkBinaryStateWasm runs the same calls there).
func BenchmarkBinaryState(b *testing.B) {
	for _, n := range []int{500, 2000, 10000} {
		e, _ := loadUnits(b, n)
		in := []byte(`{"format":"binary"}`)
		st, err := e.Call("export_state", in)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("units=%d/export", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(st)))
			for b.Loop() {
				if _, err := e.Call("export_state", in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("units=%d/import", n), func(b *testing.B) {
			e2 := New()
			b.ReportAllocs()
			b.SetBytes(int64(len(st)))
			for b.Loop() {
				if _, err := e2.Call("import_state", st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
