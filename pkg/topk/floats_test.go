package topk

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// floatsBySort is Floats by the comparison order it documents.
func floatsBySort(scores []float64, tie []int32, k int) []int32 {
	ps := make([]int32, len(scores))
	for i := range ps {
		ps[i] = int32(i)
	}
	t := func(p int32) int32 {
		if tie == nil {
			return p
		}
		return tie[p]
	}
	slices.SortStableFunc(ps, func(a, b int32) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		case t(a) < t(b):
			return -1
		case t(a) > t(b):
			return 1
		}
		return 0
	})
	return ps[:max(0, min(k, len(ps)))]
}

func TestFloatsByHand(t *testing.T) {
	scores := []float64{0.5, 0.9, 0.5, -0.1, 0.9, 0.7, math.Copysign(0, -1), 0}
	for _, c := range []struct {
		tie  []int32
		k    int
		want []int32
	}{
		// 0.9 at 1 and 4, 0.7 at 5, 0.5 at 0 and 2, the zeros (-0 = +0) at 6
		// and 7, -0.1 at 3.
		{nil, 8, []int32{1, 4, 5, 0, 2, 6, 7, 3}},
		{nil, 20, []int32{1, 4, 5, 0, 2, 6, 7, 3}},
		{nil, 3, []int32{1, 4, 5}},
		{nil, 4, []int32{1, 4, 5, 0}},
		{nil, 0, []int32{}},
		{nil, -1, []int32{}},
		// Ties by tie value: position 4 before 1, 2 before 0, 7 before 6.
		{[]int32{9, 8, 7, 6, 5, 4, 3, 2}, 7, []int32{4, 1, 5, 2, 0, 7, 6}},
	} {
		if got := Floats(scores, c.tie, c.k); !slices.Equal(got, c.want) {
			t.Errorf("Floats(tie %v, k %d) = %v, want %v", c.tie, c.k, got, c.want)
		}
	}
}

// TestFloatsMatchesSort holds Floats to the comparison order on random
// scores with many ties, negative values, signed zeros and infinities, for
// every k around the lengths' interesting points.
func TestFloatsMatchesSort(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := r.Intn(3000)
		switch trial % 10 {
		case 0:
			n = r.Intn(30)
		case 1, 2:
			n = 4000 + r.Intn(9000) // sampled selection
		}
		scores := make([]float64, n)
		levels := 1 + r.Intn(50)
		for i := range scores {
			switch r.Intn(12) + 12*(trial%5/4) { // every fifth trial: one level, most keys tied
			case 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22:
				scores[i] = 1
			case 23:
				scores[i] = r.Float64()
			case 0:
				scores[i] = math.Copysign(0, -1)
			case 1:
				scores[i] = math.Inf(1 - 2*r.Intn(2))
			case 2:
				scores[i] = r.NormFloat64() * 1e-300
			default:
				scores[i] = float64(r.Intn(levels)-levels/3) / 7
			}
		}
		var tie []int32
		if trial%2 == 1 {
			tie = make([]int32, n)
			for i := range tie {
				tie[i] = int32(r.Intn(n+1) - n/2)
			}
		}
		for _, k := range []int{0, 1, 2, 3, n / 3, n / 2, n - 1, n, n + 5, r.Intn(n + 1)} {
			got, want := Floats(scores, tie, k), floatsBySort(scores, tie, k)
			if !slices.Equal(got, want) {
				// Equal ties are allowed to differ only when tie values repeat.
				if tie == nil || !sameScoresAndTies(got, want, scores, tie) {
					t.Fatalf("n %d k %d: got %v\nwant %v", n, k, got, want)
				}
			}
		}
	}
}

// sameScoresAndTies reports whether two orders hold the same (score, tie)
// pairs in the same order (positions with equal pairs may swap).
func sameScoresAndTies(a, b []int32, scores []float64, tie []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if scores[a[i]] != scores[b[i]] || tie[a[i]] != tie[b[i]] {
			return false
		}
	}
	return true
}

func BenchmarkFloats(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	scores := make([]float64, 10000)
	for i := range scores {
		scores[i] = r.ExpFloat64()
	}
	type scored struct {
		s float64
		p int32
	}
	before := func(a, b scored) bool { return a.s > b.s || (a.s == b.s && a.p < b.p) }
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			Floats(scores, nil, 1024)
		}
	})
	b.Run("select+sort", func(b *testing.B) {
		for b.Loop() {
			xs := make([]scored, len(scores))
			for i, v := range scores {
				xs[i] = scored{v, int32(i)}
			}
			Select(xs, 1024, before)
			Sort(xs[:1024], before)
		}
	})
}
