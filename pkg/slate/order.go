package slate

import "math/bits"

// The ranked lists' selection and sort: pkg/topk's algorithms (the same
// pivots, the same insertion-sort threshold, the same fallbacks), written
// out for scored so that before is inlined instead of called through a
// function value at every comparison. A ranked list of 2,000 units costs
// about 20,000 comparisons; inside WebAssembly an indirect call is several
// times the comparison itself. The order is before's, a strict total order,
// so the result is the one topk gives (TestOrderMatchesTopk).

// orderSmall is the length below which insertion sort replaces partitioning
// (topk's small).
const orderSmall = 12

// selectScored reorders xs so that its first min(k, len(xs)) elements are the
// k best by before, in no particular order (topk.Select). Cost O(len)
// expected, O(len log len) at worst.
func selectScored(xs []scored, k int) {
	lo, hi := 0, len(xs)
	if k <= 0 || k >= hi {
		return
	}
	for rounds := 2 * bits.Len(uint(hi)); hi-lo > orderSmall && rounds > 0; rounds-- {
		p := lo + partitionScored(xs[lo:hi])
		switch {
		case p == k || p == k-1:
			return
		case p > k:
			hi = p
		default:
			lo = p + 1
		}
	}
	sortScored(xs[lo:hi])
}

// sortScored sorts xs best first by before (topk.Sort). Cost O(len log len).
func sortScored(xs []scored) {
	sortScoredDepth(xs, 2*bits.Len(uint(len(xs))))
}

func sortScoredDepth(xs []scored, depth int) {
	for len(xs) > orderSmall {
		if depth == 0 {
			heapSortScored(xs)
			return
		}
		depth--
		p := partitionScored(xs)
		if p < len(xs)-p {
			sortScoredDepth(xs[:p], depth)
			xs = xs[p+1:]
		} else {
			sortScoredDepth(xs[p+1:], depth)
			xs = xs[:p]
		}
	}
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && before(xs[j], xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// partitionScored is topk's partition: the median of the first, middle and
// last elements goes to its place p, which it returns. Cost O(len).
func partitionScored(xs []scored) int {
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

func heapSortScored(xs []scored) {
	n := len(xs)
	for i := n/2 - 1; i >= 0; i-- {
		siftDownScored(xs, i, n)
	}
	for end := n - 1; end > 0; end-- {
		xs[0], xs[end] = xs[end], xs[0]
		siftDownScored(xs, 0, end)
	}
}

func siftDownScored(xs []scored, i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && before(xs[c], xs[c+1]) {
			c++
		}
		if !before(xs[i], xs[c]) {
			return
		}
		xs[i], xs[c] = xs[c], xs[i]
		i = c
	}
}
