package rec

import (
	"testing"

	"github.com/recmem/recmem/pkg/rank"
)

func TestLearnWeights(t *testing.T) {
	// Feature 0 (collaborative) separates the target; feature 2 is constant;
	// feature 3 (popularity) favours the negatives.
	mk := func(a, pop float64) []float64 {
		v := make([]float64, len(rank.Features))
		v[0], v[2], v[3] = a, 7, pop
		return v
	}
	var cases [][][]float64
	for i := range 50 {
		x := float64(i % 5)
		cases = append(cases, [][]float64{mk(x+1, 0), mk(x, 1), mk(x-1, 2)})
	}
	w, s := LearnWeights(cases, LearnConfig{})
	if w["collaborative"] <= 0 || w["popularity"] >= 0 {
		t.Errorf("weights %v", w)
	}
	if _, ok := w["cooccurrence"]; ok {
		t.Errorf("a constant feature got a weight: %v", w)
	}
	if s["collaborative"] <= 0 {
		t.Errorf("scales %v", s)
	}
}

func TestLearnKeepsSigns(t *testing.T) {
	// disliked_text is higher on every target than on its negative: left
	// free, its weight would be positive.
	idx := map[string]int{}
	for f, n := range rank.Features {
		idx[n] = f
	}
	vec := func(pop, disliked float64) []float64 {
		v := make([]float64, len(rank.Features))
		v[idx["popularity"]], v[idx["disliked_text"]] = pop, disliked
		return v
	}
	var cases [][][]float64
	for i := range 20 {
		cases = append(cases, [][]float64{vec(float64(i%3), 2), vec(float64((i+1)%3), 0)})
	}
	w, _ := LearnWeights(cases, LearnConfig{})
	if w["disliked_text"] > 0 {
		t.Errorf("disliked_text weight %v > 0", w["disliked_text"])
	}
	// The same data on the preference match: free, its weight would be
	// negative.
	for _, c := range cases {
		c[0][idx["preference"]], c[1][idx["preference"]] = 0, 1
	}
	if w, _ := LearnWeights(cases, LearnConfig{}); w["preference"] < 0 {
		t.Errorf("preference weight %v < 0", w["preference"])
	}
}
