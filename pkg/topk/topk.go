// Package topk orders the best elements of a slice first, in place: Select
// finds the k best without ordering them, Sort orders a whole slice; and
// Floats, for float scores, returns the positions of the k best in order by
// radix on integer keys (cheaper where calls and branches cost, as in Go's
// WebAssembly).
//
// Both take before, a strict total order ("a ranks above b"): with no ties
// the k best form one set and the sorted order is the one order, so results
// do not depend on the pivots chosen, and every host gives the same bytes.
// before is a plain function value: pass a top-level function (not a method
// value or a closure over locals) so the call stays cheap.
package topk

import "math/bits"

// small is the length below which insertion sort replaces partitioning.
const small = 12

// Select reorders xs so that its first min(k, len(xs)) elements are the k
// best by before, in no particular order: quickselect with a median-of-three
// pivot, sorting the range left instead after 2·log2(len) rounds. Cost O(len)
// expected, O(len log len) at worst.
func Select[T any](xs []T, k int, before func(a, b T) bool) {
	lo, hi := 0, len(xs)
	if k <= 0 || k >= hi {
		return
	}
	for rounds := 2 * bits.Len(uint(hi)); hi-lo > small && rounds > 0; rounds-- {
		p := lo + partition(xs[lo:hi], before)
		switch {
		case p == k || p == k-1:
			return
		case p > k:
			hi = p
		default:
			lo = p + 1
		}
	}
	Sort(xs[lo:hi], before)
}

// Sort sorts xs best first by before: quicksort with a median-of-three pivot,
// insertion sort below 12 elements, and heapsort past 2·log2(len) levels.
// Cost O(len log len).
func Sort[T any](xs []T, before func(a, b T) bool) {
	sortDepth(xs, 2*bits.Len(uint(len(xs))), before)
}

func sortDepth[T any](xs []T, depth int, before func(a, b T) bool) {
	for len(xs) > small {
		if depth == 0 {
			heapSort(xs, before)
			return
		}
		depth--
		p := partition(xs, before)
		// Recurse into the smaller side, loop on the larger.
		if p < len(xs)-p {
			sortDepth(xs[:p], depth, before)
			xs = xs[p+1:]
		} else {
			sortDepth(xs[p+1:], depth, before)
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
func partition[T any](xs []T, before func(a, b T) bool) int {
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
	i := 1
	for j := 1; j < len(xs); j++ {
		if before(xs[j], xs[0]) {
			xs[i], xs[j] = xs[j], xs[i]
			i++
		}
	}
	p := i - 1
	xs[0], xs[p] = xs[p], xs[0]
	return p
}

// heapSort sorts xs best first. Cost O(len log len), no extra memory.
func heapSort[T any](xs []T, before func(a, b T) bool) {
	n := len(xs)
	// A heap whose root is the worst element: the root goes to the end.
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(xs, i, n, before)
	}
	for end := n - 1; end > 0; end-- {
		xs[0], xs[end] = xs[end], xs[0]
		siftDown(xs, 0, end, before)
	}
}

func siftDown[T any](xs []T, i, n int, before func(a, b T) bool) {
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
