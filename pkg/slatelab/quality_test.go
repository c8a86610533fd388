package slatelab

import (
	"os"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
)

// TestLoCoMoQuality holds the embedded model's slate completeness on the first
// LoCoMo conversation within a tolerance (the model has seen it: this guards
// against regressions, the cross-validated numbers are in docs/slate.md).
func TestLoCoMoQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("reads LoCoMo")
	}
	f, err := os.Open("../../../shared/data/locomo/locomo8.json")
	if err != nil {
		t.Skip("LoCoMo not available:", err)
	}
	defer f.Close()
	convs, err := dataset.ReadLoCoMo(f)
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	s := slate.NewStore()
	if err := s.Add(c.Units()); err != nil {
		t.Fatal(err)
	}
	var learned, bm25 Tally
	for _, q := range c.Questions {
		if !q.Eligible() {
			continue
		}
		for _, r := range []string{"learned", "bm25"} {
			res, err := s.Select(slate.Request{Query: q.Text, Date: q.Date, Budget: 1000, Ranker: r})
			if err != nil {
				t.Fatal(err)
			}
			o := Outcome{Kappa: c.Sessions(q), Evidence: q.Evidence, Tokens: res.Tokens}
			for _, u := range res.Units {
				o.Slate = append(o.Slate, u.ID)
			}
			if r == "learned" {
				learned.Add(o)
			} else {
				bm25.Add(o)
			}
		}
	}
	l, b := learned.Metrics(), bm25.Metrics()
	t.Logf("conv-26 B=1000: learned %+v, bm25 r_slate %.3f", l, b.RSlate)
	if l.Questions != 150 || l.RSlate < 0.75 || b.RSlate < 0.5 || l.RSlate < b.RSlate+0.1 || l.MeanTokens > 1000 {
		t.Errorf("quality regression: learned %+v, bm25 %+v", l, b)
	}
}
