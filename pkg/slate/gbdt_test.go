package slate

import (
	"math/rand"
	"testing"
)

// TestHeapTreesMatchEval holds the perfect-tree layout to Tree.eval: the
// embedded model's trees, and a hand-made tree whose leaves sit at depths
// 1, 2 and 3 (so padding matters), on random feature vectors and on vectors
// sitting exactly on the thresholds.
func TestHeapTreesMatchEval(t *testing.T) {
	m, err := DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	var gbdt *Model
	for i := range m.Parts {
		if m.Parts[i].Kind == "gbdt" {
			gbdt = &m.Parts[i]
		}
	}
	if gbdt == nil || gbdt.heap == nil {
		t.Fatal("the embedded model has no gbdt part laid out as perfect trees")
	}
	// Features: bm25 (0) and dense (2). Root: bm25 < 0.5 → leaf 1 (depth
	// 1); else dense < 0.2 → (dense < 0.1 → 2, else 3) else leaf 4.
	hand := &Model{Kind: "gbdt", Features: []string{"bm25", "dense"}, Trees: []Tree{{
		Feature:   []int{0, -1, 1, 1, -1, -1, -1},
		Threshold: []float64{0.5, 0, 0.2, 0.1, 0, 0, 0},
		Left:      []int{1, 0, 3, 5, 0, 0, 0},
		Right:     []int{2, 0, 4, 6, 0, 0, 0},
		Value:     []float64{0, 1, 0, 0, 4, 2, 3},
	}}}
	if err := hand.Validate(); err != nil {
		t.Fatal(err)
	}
	// A single split (depth 1): the general walk, not the one written out.
	stump := &Model{Kind: "gbdt", Features: []string{"dense"}, Trees: []Tree{{
		Feature: []int{0, -1, -1}, Threshold: []float64{0.3, 0, 0}, Left: []int{1, 0, 0}, Right: []int{2, 0, 0}, Value: []float64{0, -1, 1}}}}
	if err := stump.Validate(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(5))
	for _, md := range []*Model{gbdt, hand, stump} {
		xs := make([][]float64, 2000)
		for k := range xs {
			xs[k] = make([]float64, len(FeatureNames))
			for j := range xs[k] {
				xs[k][j] = r.Float64()*2 - 0.5
			}
		}
		// Exactly on thresholds: x < thr is false there.
		for _, tr := range md.Trees {
			for i, f := range tr.Feature {
				if f >= 0 {
					x := make([]float64, len(FeatureNames))
					x[md.idx[f]] = tr.Threshold[i]
					xs = append(xs, x)
				}
			}
		}
		got := make([]float64, len(xs))
		md.heap.addAll(xs, got)
		for k, x := range xs {
			var want float64
			for ti := range md.Trees {
				want += md.Trees[ti].eval(md, x)
			}
			if got[k] != want {
				t.Fatalf("vector %d: heap trees %v, Tree.eval %v", k, got[k], want)
			}
		}
	}
	if hand.heap.depth != 3 {
		t.Errorf("hand-made tree laid out at depth %d, want 3", hand.heap.depth)
	}
}
