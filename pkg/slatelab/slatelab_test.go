package slatelab

import (
	"math"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
)

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add(Outcome{Kappa: 1, Evidence: []string{"a"}, Slate: []string{"a", "b"}, Pool: map[string]bool{"a": true}, Tokens: 100, Ms: 2})
	tl.Add(Outcome{Kappa: 2, Evidence: []string{"a", "c"}, Slate: []string{"a"}, Pool: map[string]bool{"a": true, "c": true}, Tokens: 200, Ms: 4})
	tl.Add(Outcome{Kappa: 3, Evidence: []string{"x", "y", "z"}, Slate: []string{"x", "y", "z"}, Tokens: 300, Ms: 3})
	got := tl.Metrics()
	want := Metrics{Questions: 3, RSlate: 0.6667, RSlateK2: 0.5, RSlateK3: 1, Recall: round((1+0.5+1)/3.0, 1e4), RPool: 0.6667, MeanTokens: 200, P50Ms: 3}
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
