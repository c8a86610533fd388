package slate

import (
	"math"

	"github.com/recmem/recmem/pkg/vector"
)

// flat holds, by unit position, copies of what the loops over every unit of
// a selection read (word alignment, the dense cosines, the sessions' and the
// speakers' lists), one array each, so that those loops walk memory in
// order instead of following each unit's pointers to its own allocations:
// at 10,000 units, inside WebAssembly, the pointers cost more than the
// arithmetic. Positions below n are current; a removal moves positions and
// resets n to 0; refresh extends the arrays after every change. They are
// derived data, never encoded.
type flat struct {
	n     int
	uw    []int32   // the units' distinct content words, one unit after another
	uwEnd []int32   // unit p's words are uw[uwEnd[p-1]:uwEnd[p]] (0 before the first)
	vecs  []float32 // unit p's sentence vector is vecs[p·dim:(p+1)·dim]
	sess  []int32   // unit p's session's position
	spk   []int32   // unit p's speaker id (-1 without one)
}

// reset forgets every position (after a removal moved them).
func (f *flat) reset() {
	f.n = 0
	f.uw, f.uwEnd, f.vecs, f.sess, f.spk = f.uw[:0], f.uwEnd[:0], f.vecs[:0], f.sess[:0], f.spk[:0]
}

// words returns the distinct content words of the unit at position p.
func (f *flat) words(p int) []int32 {
	start := int32(0)
	if p > 0 {
		start = f.uwEnd[p-1]
	}
	return f.uw[start:f.uwEnd[p]:f.uwEnd[p]]
}

// extendFlat appends the units past s.flat.n to the flat arrays. Cost
// O(words and vector components of those units).
func (s *Store) extendFlat() {
	f := &s.flat
	for _, e := range s.entries[f.n:] {
		f.uw = append(f.uw, e.uwids...)
		f.uwEnd = append(f.uwEnd, int32(len(f.uw)))
		f.vecs = append(f.vecs, e.vec...)
		f.sess = append(f.sess, int32(e.s.pos))
		f.spk = append(f.spk, e.spk)
	}
	f.n = len(s.entries)
}

// cosines sets out[p] to vector.Dot(qv, the vector of the unit at position
// p) for every unit, bit for bit: the same float64 products summed in the
// same order, eight components per loop iteration (Go's WebAssembly pays a
// dispatch per iteration). Cost O(units · dim).
func (f *flat) cosines(out []float64, qv []float32) {
	dim := len(qv)
	if dim%8 != 0 {
		for p := range out {
			out[p] = vector.Dot(qv, f.vecs[p*dim:(p+1)*dim])
		}
		return
	}
	q := make([]float64, dim)
	for k, x := range qv {
		q[k] = float64(x)
	}
	for p := range out {
		v := f.vecs[p*dim : (p+1)*dim : (p+1)*dim]
		var s float64
		for k := 0; k+8 <= len(v); k += 8 {
			w := (*[8]float32)(v[k:])
			qk := (*[8]float64)(q[k:])
			s += qk[0] * float64(w[0])
			s += qk[1] * float64(w[1])
			s += qk[2] * float64(w[2])
			s += qk[3] * float64(w[3])
			s += qk[4] * float64(w[4])
			s += qk[5] * float64(w[5])
			s += qk[6] * float64(w[6])
			s += qk[7] * float64(w[7])
		}
		out[p] = s
	}
}

// orderKey maps x to an integer whose signed order is x's order, for every
// x but NaN (-0 orders just below +0): non-negative values keep their bits,
// negative ones have all bits but the sign flipped. Running maxima then run
// on integers, which Go's WebAssembly compares and picks with one select
// instruction, where a float comparison is a branch through the function's
// dispatch table each time it is taken. fromOrderKey undoes it, bit for bit.
func orderKey(x float64) int64 {
	b := int64(math.Float64bits(x))
	return b ^ (b >> 63 & math.MaxInt64)
}

// fromOrderKey is the float64 whose orderKey is k.
func fromOrderKey(k int64) float64 {
	return math.Float64frombits(uint64(k ^ (k >> 63 & math.MaxInt64)))
}

// keyMax is the larger of two order keys, written so that the compiler
// picks it without a branch.
func keyMax(a, b int64) int64 {
	if b > a {
		a = b
	}
	return a
}
