package slate

import (
	"cmp"
	"math/bits"
	"slices"
)

// rankDepth is how deep a ranked list goes: the fused lists and the rank
// features see the rankDepth best units of each list (or the pool size when
// larger), and a unit below that is unranked in it (no fusion term, rank
// feature 0). Every LoCoMo conversation is shorter, so training sees whole
// lists; a larger store ranks in O(units) plus O(depth · log depth) instead of
// sorting every list.
const rankDepth = 1024

// scored is a unit position with a score, for ranking.
type scored struct {
	score float64
	pos   int32
}

// better orders by score, best first, ties in store order (insertion).
func better(a, b scored) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return cmp.Compare(a.pos, b.pos)
}

// before reports whether a ranks above b: better(a, b) < 0, as a function
// the compiler inlines (a sort calling a comparison function value pays an
// indirect call per comparison, which WebAssembly makes expensive).
func before(a, b scored) bool {
	return a.score > b.score || (a.score == b.score && a.pos < b.pos)
}

// sortScored sorts xs best first: quicksort with a median-of-three pivot,
// insertion sort below 12 elements, and slices.SortFunc past 2·log2(len)
// levels. before is a strict total order, so the result is the one order.
// Cost O(n log n).
func sortScored(xs []scored, depth int) {
	for len(xs) > 12 {
		if depth == 0 {
			slices.SortFunc(xs, better)
			return
		}
		depth--
		p := partition(xs)
		// Recurse into the smaller side, loop on the larger.
		if p < len(xs)-p {
			sortScored(xs[:p], depth)
			xs = xs[p+1:]
		} else {
			sortScored(xs[p+1:], depth)
			xs = xs[:p]
		}
	}
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && before(xs[j], xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// partition moves the median of xs's first, middle and last elements to its
// place p and returns p: xs[:p] rank above it, xs[p+1:] below. Cost O(len).
func partition(xs []scored) int {
	a, b, c := 0, len(xs)/2, len(xs)-1
	if before(xs[b], xs[a]) {
		a, b = b, a
	}
	if before(xs[c], xs[b]) {
		b = c
		if before(xs[b], xs[a]) {
			b = a
		}
	}
	xs[0], xs[b] = xs[b], xs[0]
	pivot := xs[0]
	i := 1
	for j := 1; j < len(xs); j++ {
		if before(xs[j], pivot) {
			xs[i], xs[j] = xs[j], xs[i]
			i++
		}
	}
	p := i - 1
	xs[0], xs[p] = xs[p], xs[0]
	return p
}

// rankOrder returns the positions of the k best scores among subset (every
// unit when nil), best first, ties in store order: the first k of the full
// ranking. Cost O(m + k log k) expected for m positions, O(m log m) at worst.
func rankOrder(score []float64, subset []int32, k int) []int32 {
	var xs []scored
	if subset == nil {
		xs = make([]scored, len(score))
		for i, v := range score {
			xs[i] = scored{v, int32(i)}
		}
	} else {
		xs = make([]scored, len(subset))
		for i, p := range subset {
			xs[i] = scored{score[p], p}
		}
	}
	if k < len(xs) {
		selectBest(xs, k)
		xs = xs[:k]
	}
	sortScored(xs, 2*bits.Len(uint(len(xs))))
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = x.pos
	}
	return out
}

// selectBest reorders xs so that its first k elements are the k best by
// better, in no particular order: quickselect with a median-of-three pivot,
// sorting instead after 2·log2(len) rounds. better is a strict total order
// (positions are unique), so the set chosen does not depend on the algorithm.
// Cost O(len) expected.
func selectBest(xs []scored, k int) {
	lo, hi := 0, len(xs)
	rounds := 2 * bits.Len(uint(len(xs)))
	for hi-lo > 12 && rounds > 0 {
		rounds--
		p := lo + partition(xs[lo:hi])
		switch {
		case p == k || p == k-1:
			return
		case p > k:
			hi = p
		default:
			lo = p + 1
		}
	}
	sortScored(xs[lo:hi], 2*bits.Len(uint(hi-lo)))
}
