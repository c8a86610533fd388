package slate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/workload"
)

// benchStore returns a store of n real LoCoMo turns (the conversations
// repeated with fresh ids past about 5,900 turns) and the questions about
// them, or skips when LoCoMo is not beside the repository.
func benchStore(b *testing.B, n int) (*slate.Store, []string) {
	b.Helper()
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
	if err != nil {
		b.Skip("LoCoMo not found:", err)
	}
	us := make([]slate.Unit, len(m.Units))
	for i, u := range m.Units {
		us[i] = slate.Unit{ID: u["id"], Session: u["session"], Date: u["date"], Time: u["time"], Speaker: u["speaker"], Text: u["text"]}
	}
	s := slate.NewStore()
	if err := s.Add(us); err != nil {
		b.Fatal(err)
	}
	return s, m.Questions
}

// BenchmarkSelect selects a slate at B=2000 and encodes it as select_slate
// does (Result.AppendJSON); learned_select is the selection alone, bm25 the
// naive baseline (BM25 alone and the same fill).
func BenchmarkSelect(b *testing.B) {
	for _, n := range []int{100, 500, 2000, 10000} {
		s, qs := benchStore(b, n)
		for _, ranker := range []string{"learned", "learned_select", "bm25"} {
			b.Run(fmt.Sprintf("units=%d/%s", n, ranker), func(b *testing.B) {
				req := slate.Request{Budget: 2000, Ranker: strings.TrimSuffix(ranker, "_select")}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					req.Query = qs[i%len(qs)]
					res, err := s.Select(req)
					if err != nil {
						b.Fatal(err)
					}
					if ranker == "learned_select" {
						continue
					}
					if _, err := res.AppendJSON(nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
