package topk

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type pair struct {
	score float64
	id    int
}

func better(a, b pair) bool { return a.score > b.score || (a.score == b.score && a.id < b.id) }

func TestSelectAndSortHandComputed(t *testing.T) {
	xs := []pair{{1, 0}, {5, 1}, {3, 2}, {5, 3}, {0, 4}}
	want := []pair{{5, 1}, {5, 3}, {3, 2}, {1, 0}, {0, 4}}
	cases := []struct {
		name string
		k    int
		want []pair // the first k as a set, sorted for comparison
	}{
		{"k 0 leaves xs", 0, nil},
		{"k 1", 1, want[:1]},
		{"k 2 ties by id", 2, want[:2]},
		{"k 3", 3, want[:3]},
		{"k past the end", 9, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ys := slices.Clone(xs)
			Select(ys, c.k, better)
			if c.want == nil {
				if !slices.Equal(ys, xs) {
					t.Fatalf("Select(%d) changed xs: %v", c.k, ys)
				}
				return
			}
			got := slices.Clone(ys[:c.k])
			Sort(got, better)
			if !slices.Equal(got, c.want) {
				t.Fatalf("Select(%d) first k = %v, want %v", c.k, got, c.want)
			}
		})
	}
	ys := slices.Clone(xs)
	Sort(ys, better)
	if !slices.Equal(ys, want) {
		t.Fatalf("Sort = %v, want %v", ys, want)
	}
}

// TestAgainstSortFunc holds Select and Sort to slices.SortFunc on random
// inputs with many ties in score, long enough to reach the heapsort and the
// rounds limit (all-equal scores make every partition lopsided).
func TestAgainstSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := r.IntN(400)
		levels := 1 + r.IntN(8)
		if trial%10 == 0 {
			levels = 1
		}
		xs := make([]pair, n)
		for i := range xs {
			xs[i] = pair{float64(r.IntN(levels)), i}
		}
		r.Shuffle(n, func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		ref := slices.Clone(xs)
		slices.SortFunc(ref, func(a, b pair) int {
			if better(a, b) {
				return -1
			}
			if better(b, a) {
				return 1
			}
			return 0
		})
		ys := slices.Clone(xs)
		Sort(ys, better)
		if !slices.Equal(ys, ref) {
			t.Fatalf("trial %d: Sort differs from slices.SortFunc", trial)
		}
		k := r.IntN(n + 1)
		zs := slices.Clone(xs)
		Select(zs, k, better)
		if k > 0 && k < n {
			top := slices.Clone(zs[:k])
			Sort(top, better)
			if !slices.Equal(top, ref[:k]) {
				t.Fatalf("trial %d: Select(%d) chose another set", trial, k)
			}
		}
	}
	ys := make([]pair, 5000)
	for i := range ys {
		ys[i] = pair{0, len(ys) - i}
	}
	heapSort(ys, better)
	if !slices.IsSortedFunc(ys, func(a, b pair) int { return a.id - b.id }) {
		t.Fatal("heapSort did not sort")
	}
}

func BenchmarkSelect(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]pair, 20000)
	for i := range xs {
		xs[i] = pair{r.Float64(), i}
	}
	ys := make([]pair, len(xs))
	b.ReportAllocs()
	for b.Loop() {
		copy(ys, xs)
		Select(ys, 1024, better)
		Sort(ys[:1024], better)
	}
}
