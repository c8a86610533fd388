package slate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/recmem/recmem/pkg/topk"
)

// TestOrderMatchesTopk checks the written-out selection and sort against
// pkg/topk element for element, on lists with many ties, NaNs, infinities
// and every length around the insertion-sort threshold.
func TestOrderMatchesTopk(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	special := []float64{0, math.Inf(1), math.Inf(-1), math.NaN(), -0.0, 1}
	for trial := range 600 {
		n := trial % 70
		if trial%10 == 0 {
			n = 2000 + trial
		}
		xs := make([]scored, n)
		for i := range xs {
			v := float64(rng.IntN(8))
			switch rng.IntN(10) {
			case 0:
				v = special[rng.IntN(len(special))]
			case 1, 2:
				v = rng.Float64()
			}
			xs[i] = scored{v, int32(rng.IntN(n + 1))} // positions may repeat here
		}
		k := rng.IntN(n + 2)
		a, b := slices.Clone(xs), slices.Clone(xs)
		selectScored(a, k)
		topk.Select(b, k, before)
		if !sameScored(a, b) {
			t.Fatalf("trial %d: selectScored(n=%d, k=%d) differs from topk.Select", trial, n, k)
		}
		sortScored(a)
		topk.Sort(b, before)
		if !sameScored(a, b) {
			t.Fatalf("trial %d: sortScored(n=%d) differs from topk.Sort", trial, n)
		}
	}
}

func sameScored(a, b []scored) bool {
	for i := range a {
		if math.Float64bits(a[i].score) != math.Float64bits(b[i].score) || a[i].pos != b[i].pos {
			return false
		}
	}
	return len(a) == len(b)
}
