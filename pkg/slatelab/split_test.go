package slatelab

import (
	"testing"

	"github.com/recmem/recmem/pkg/slate"
)

// TestSplit: dev holds the even positions, held-out the odd ones, all
// every one; an unknown name is refused, naming the flag's field.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		name string
		want [4]bool // conversations 0..3 reported
	}{
		{"", [4]bool{true, true, true, true}},
		{"all", [4]bool{true, true, true, true}},
		{"dev", [4]bool{true, false, true, false}},
		{"held-out", [4]bool{false, true, false, true}},
	} {
		s, err := ParseSplit(c.name)
		if err != nil {
			t.Fatalf("%q: %v", c.name, err)
		}
		for conv, want := range c.want {
			if s.Has(conv) != want {
				t.Errorf("split %q, conversation %d: reported %v, want %v", c.name, conv, !want, want)
			}
		}
	}
	if _, err := ParseSplit("test"); err == nil || err.Error() != `split: want all, dev or held-out, got "test"` {
		t.Errorf("ParseSplit(test) = %v", err)
	}
}

// TestCrossValidateWhere: reporting only some conversations tallies only
// their questions, and a fold with none of them is never trained.
func TestCrossValidateWhere(t *testing.T) {
	var ps []Pooled
	for conv := range 4 {
		x := make([]float64, len(slate.FeatureNames))
		ps = append(ps, Pooled{Conv: conv, Kappa: 1, Gold: []string{"a"},
			Group: Group{Cands: []slate.Candidate{{ID: "a", Tokens: 1, X: x}}, Gold: map[string]bool{"a": true}}})
	}
	trained := 0
	train := func([]Group) (*slate.Model, error) {
		trained++
		m := &slate.Model{Kind: "linear", Features: []string{"bm25"}, Weights: []float64{1}, Mean: []float64{0}, Scale: []float64{1}}
		return m, m.Validate()
	}
	for _, c := range []struct {
		split                Split
		questions, trainings int
	}{{SplitAll, 4, 4}, {SplitDev, 2, 2}, {SplitHeldOut, 2, 2}} {
		trained = 0
		cv, err := CrossValidateWhere(ps, nil, 4, train, []int{100}, c.split.Has)
		if err != nil {
			t.Fatal(err)
		}
		if cv.Metrics[0].Questions != c.questions || trained != c.trainings || cv.Metrics[0].RSlate != 1 {
			t.Errorf("split %q: %+v after %d trainings; want %d questions, all complete, %d trainings", c.split, cv.Metrics[0], trained, c.questions, c.trainings)
		}
	}
}
