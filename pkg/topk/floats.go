package topk

import "math"

// Floats returns the positions of the k best of scores, best first: larger
// scores first, ties by the smaller tie value (tie[i] for position i, or i
// itself when tie is nil). With k at least len(scores) it orders them all;
// with k at most 0 it returns none. Scores must not be NaN; -0 and +0 are
// equal. The order is the one Select and Sort give with "a ranks above b"
// being a.score > b.score || (a.score == b.score && a.tie < b.tie).
//
// It orders integer keys by radix instead of comparing elements: a score's
// bits map to an unsigned key in the scores' order, a most-significant-digit
// pass per byte keeps the buckets that hold the k-th best (skipping the
// bytes that every remaining key shares), and a least-significant-digit sort
// orders the k, stable for the ties. No comparison goes through a function
// value and no taken branch depends on the data, which matters in Go's
// WebAssembly, where both are several times the cost of the arithmetic.
// Cost O(len(scores) · p + k · q) for p selection passes and q sort passes
// (at most 8 each), and O(len(scores)) memory.
func Floats(scores []float64, tie []int32, k int) []int32 {
	n := len(scores)
	k = min(k, n)
	if k <= 0 {
		return []int32{}
	}
	d := make([]uint64, n)
	for i, x := range scores {
		d[i] = descKey(x)
	}
	var sel []int32
	if k == n {
		sel = make([]int32, n)
		for i := range sel {
			sel[i] = int32(i)
		}
	} else {
		sel = selectSampled(d, tie, k)
	}
	return sortKeys(sel, d, tie)
}

// sampleSize is how many keys selectSampled sorts to bracket the k-th.
const sampleSize = 512

// selectSampled is selectKeys in one pass over the keys for large inputs:
// the keys at sampleSize evenly spaced positions, sorted, bracket the k-th
// smallest key between two of them (with a margin of a few standard
// deviations of its sample rank); one pass keeps the keys below the bracket
// (in) and within it (undecided, few), and selectKeys picks the rest among
// the undecided. When the bracket misses (a skewed input), it falls back to
// selectKeys on everything: the result is the same either way. Cost
// O(len(d) + sample) expected.
func selectSampled(d []uint64, tie []int32, k int) []int32 {
	n := len(d)
	if n < 4*sampleSize {
		return selectKeys(d, tie, k)
	}
	sample := make([]uint64, sampleSize)
	for i := range sample {
		sample[i] = d[i*n/sampleSize]
	}
	ps := make([]int32, sampleSize)
	ks := radixKeys(sample, ps)
	j := k * sampleSize / n
	margin := 8 + 3*int(math.Sqrt(float64(j)))
	lo, hi := ks[max(0, j-margin)], ks[min(sampleSize-1, j+margin)]
	in := make([]int32, n+1)
	mid := make([]int32, n+1)
	ni, nm := 0, 0
	for i, x := range d {
		in[ni] = int32(i)
		ni += b2i(x < lo)
		mid[nm] = int32(i)
		nm += b2i(x >= lo && x <= hi)
	}
	need := k - ni
	if need < 0 || need > nm {
		return selectKeys(d, tie, k)
	}
	out := in[: ni : ni+need]
	if need == nm {
		return append(out, mid[:nm]...)
	}
	if need == 0 {
		return out
	}
	md := make([]uint64, nm)
	for i, p := range mid[:nm] {
		md[i] = d[p]
	}
	var mtie []int32
	if tie != nil {
		mtie = make([]int32, nm)
		for i, p := range mid[:nm] {
			mtie[i] = tie[p]
		}
	}
	for _, q := range selectKeys(md, mtie, need) {
		out = append(out, mid[q])
	}
	return out
}

// radixKeys returns ks sorted ascending (ps, of the same length, is
// scratch).
func radixKeys(ks []uint64, ps []int32) []uint64 {
	for i := range ps {
		ps[i] = int32(i)
	}
	sorted := radix(append([]uint64(nil), ks...), ps, 8)
	out := make([]uint64, len(sorted))
	for i, p := range sorted {
		out[i] = ks[p]
	}
	return out
}

// descKey maps x to an unsigned key whose ascending order is x's descending
// order (-0 is taken as +0): the bits of a non-negative float with the sign
// set, all the bits of a negative one flipped, then all bits flipped.
func descKey(x float64) uint64 {
	b := math.Float64bits(x + 0) // -0 + 0 is +0
	return ^(b ^ (uint64(int64(b)>>63) | 1<<63))
}

// selectKeys returns the positions of the k smallest keys d (0 < k <
// len(d)), ties by tie as Floats, in no particular order but the ties among
// them in position order. A pass per byte from the most significant: the
// positions whose byte is below the bucket holding the k-th are in, those in
// it stay undecided, the rest are out. Cost O(len(d) · passes).
func selectKeys(d []uint64, tie []int32, k int) []int32 {
	cand := make([]int32, len(d))
	for i := range cand {
		cand[i] = int32(i)
	}
	sel := make([]int32, k+1) // one spare slot: every position is written, then counted in or not
	ns, need := 0, k
	for shift := 56; ; shift -= 8 {
		if shift < 0 {
			// The undecided keys are all equal: the smallest ties.
			if tie != nil {
				sortTies(cand, tie)
			}
			copy(sel[ns:], cand[:need])
			ns += need
			break
		}
		var count [256]int
		for _, p := range cand {
			count[d[p]>>shift&255]++
		}
		b, below := uint64(0), 0
		for below+count[b] < need {
			below += count[b]
			b++
		}
		if below == 0 && count[b] == len(cand) {
			continue // every undecided key has this byte
		}
		nn := 0
		for _, p := range cand {
			dg := d[p] >> shift & 255
			sel[ns] = p
			ns += b2i(dg < b)
			cand[nn] = p
			nn += b2i(dg == b)
		}
		cand = cand[:nn]
		need -= below
		if nn == need {
			copy(sel[ns:], cand)
			ns += nn
			break
		}
	}
	return sel[:ns]
}

// sortKeys returns ps ordered by their keys d ascending, ties by tie (or,
// with tie nil, as they come, which must then be position order among equal
// keys): a stable least-significant-digit radix sort on bytes, skipping the
// bytes that every key shares, after one on the ties when there are any.
// Short lists are sorted by insertion instead. Cost O(len(ps) · passes).
func sortKeys(ps []int32, d []uint64, tie []int32) []int32 {
	m := len(ps)
	ks := make([]uint64, m)
	if tie != nil {
		// By tie first (stable passes keep this order among equal keys).
		for i, p := range ps {
			ks[i] = uint64(uint32(tie[p]) ^ 1<<31) // signed order as unsigned
		}
		ps = radix(ks, ps, 4)
	}
	for i, p := range ps {
		ks[i] = d[p]
	}
	return radix(ks, ps, 8)
}

// smallSort is the length below which radix passes cost more than
// insertion.
const smallSort = 24

// radix sorts ps by ks (its keys, in step) ascending, stably, on the low
// `bytes` bytes of the keys, and returns the sorted positions (ks is
// reordered too). Cost O(len · bytes).
func radix(ks []uint64, ps []int32, bytes int) []int32 {
	m := len(ps)
	if m < smallSort {
		for i := 1; i < m; i++ {
			k, p := ks[i], ps[i]
			j := i
			for ; j > 0 && ks[j-1] > k; j-- {
				ks[j], ps[j] = ks[j-1], ps[j-1]
			}
			ks[j], ps[j] = k, p
		}
		return ps
	}
	var count [8][256]int32
	for _, k := range ks {
		count[0][k&255]++
		count[1][k>>8&255]++
		count[2][k>>16&255]++
		count[3][k>>24&255]++
		count[4][k>>32&255]++
		count[5][k>>40&255]++
		count[6][k>>48&255]++
		count[7][k>>56&255]++
	}
	tk, tp := make([]uint64, m), make([]int32, m)
	for pass := 0; pass < bytes; pass++ {
		c := &count[pass]
		shift := 8 * pass
		if int(c[ks[0]>>shift&255]) == m {
			continue // every key has this byte
		}
		var at [256]int32
		sum := int32(0)
		for b, x := range c {
			at[b] = sum
			sum += x
		}
		for i, k := range ks {
			b := k >> shift & 255
			o := at[b]
			tk[o], tp[o] = k, ps[i]
			at[b] = o + 1
		}
		ks, tk = tk, ks
		ps, tp = tp, ps
	}
	return ps
}

// sortTies orders ps by tie ascending (insertion: the positions whose keys
// are all equal are few).
func sortTies(ps []int32, tie []int32) {
	for i := 1; i < len(ps); i++ {
		p := ps[i]
		j := i
		for ; j > 0 && tie[ps[j-1]] > tie[p]; j-- {
			ps[j] = ps[j-1]
		}
		ps[j] = p
	}
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}
