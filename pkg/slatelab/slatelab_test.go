package slatelab

import (
	"math"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
)

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add(Outcome{Kappa: 1, Evidence: []string{"a"}, Slate: []string{"a", "b"}, Pool: map[string]bool{"a": true}, Tokens: 100, Ms: 2})
	tl.Add(Outcome{Kappa: 2, Evidence: []string{"a", "c"}, Slate: []string{"a"}, Pool: map[string]bool{"a": true, "c": true}, Tokens: 200, Ms: 4})
	tl.Add(Outcome{Kappa: 3, Evidence: []string{"x", "y", "z"}, Slate: []string{"x", "y", "z"}, Tokens: 300, Ms: 3})
	got := tl.Metrics()
	want := Metrics{Questions: 3, QuestionsK2: 2, RSlate: 0.6667, RSlateK2: 0.5, RSlateK3: 1, Recall: round((1+0.5+1)/3.0, 1e4), RPool: 0.6667, MeanTokens: 200, P50Ms: 3}
	if got != want {
		t.Fatalf("Metrics = %+v\nwant %+v", got, want)
	}
}

func TestTrainLearnsTheSignal(t *testing.T) {
	// Evidence is the candidate with the highest bm25; every other feature is noise-free zero.
	var gs []Group
	for g := 0; g < 20; g++ {
		var cs []slate.Candidate
		for i := 0; i < 6; i++ {
			x := make([]float64, len(slate.FeatureNames))
			x[0] = float64((i*7+g)%6) / 5
			x[2] = float64((i*3+g)%4) / 3
			cs = append(cs, slate.Candidate{ID: string(rune('a' + i)), Key: i, Tokens: 1, X: x})
		}
		best := 0
		for i, c := range cs {
			if c.X[0] > cs[best].X[0] {
				best = i
			}
		}
		gs = append(gs, Group{Cands: cs, Gold: map[string]bool{cs[best].ID: true}})
	}
	for _, pw := range []bool{false, true} {
		m, err := Train(gs, TrainOptions{Features: []string{"bm25", "dense"}, Pairwise: pw})
		if err != nil {
			t.Fatal(err)
		}
		if m.Weights[0] <= 0 || math.Abs(m.Weights[0]) <= math.Abs(m.Weights[1]) {
			t.Errorf("pairwise=%v: weights %v", pw, m.Weights)
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	gb, err := TrainGBDT(gs, GBDTOptions{Features: []string{"bm25", "dense"}, Trees: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := gb.Validate(); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(slate.FeatureNames))
	lo := gb.Score(x)
	x[0] = 1
	if gb.Score(x) <= lo {
		t.Error("gbdt does not prefer high bm25")
	}
}

// TestCrossValidateCategories: the extra (adversarial) questions are ranked
// by their fold's model and tallied only by category; no model trains on
// them.
func TestCrossValidateCategories(t *testing.T) {
	cand := func(id string, bm25 float64) slate.Candidate {
		x := make([]float64, len(slate.FeatureNames))
		x[0] = bm25
		return slate.Candidate{ID: id, Tokens: 10, X: x}
	}
	q := func(conv int, cat, gold string) Pooled {
		return Pooled{Conv: conv, Category: cat, Kappa: 1, Gold: []string{gold},
			Group: Group{Cands: []slate.Candidate{cand("a", 1), cand("b", 0)}, Gold: map[string]bool{gold: true}}}
	}
	ps := []Pooled{q(0, "4", "a"), q(0, "1", "a"), q(1, "4", "a"), q(1, "2", "a")}
	extra := []Pooled{q(0, "5", "b"), q(1, "5", "a")}
	trained := 0
	train := func(gs []Group) (*slate.Model, error) {
		trained += len(gs)
		return &slate.Model{Kind: "linear", Features: []string{"bm25"}, Mean: []float64{0}, Scale: []float64{1}, Weights: []float64{1}}, nil
	}
	// B = 10: one unit fits, the one of higher bm25 ("a").
	cv, err := CrossValidate(ps, extra, 2, train, []int{10})
	if err != nil {
		t.Fatal(err)
	}
	if trained != 4 {
		t.Errorf("trained on %d groups over 2 folds, want 4 (2 per fold, never the extra ones)", trained)
	}
	if m := cv.Metrics[0]; m.Questions != 4 || m.RSlate != 1 {
		t.Errorf("metrics %+v, want 4 questions all complete", m)
	}
	c := cv.Categories[0]
	if got := strings.Join(c.Names(), ","); got != "single-hop,multi-hop,temporal,adversarial" {
		t.Errorf("categories %s", got)
	}
	if m := c["adversarial"].Metrics(); m.Questions != 2 || m.RSlate != 0.5 {
		t.Errorf("adversarial %+v, want 2 questions, one complete", m)
	}
}
