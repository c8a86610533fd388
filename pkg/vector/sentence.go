package vector

import "math"

// SIFWeight is the smoothing constant a of smooth inverse frequency weighting
// (Arora, Liang and Ma, "A Simple but Tough-to-Beat Baseline for Sentence
// Embeddings", ICLR 2017): a word of probability p weighs a / (a + p).
const SIFWeight = 1e-3

// Weight is the SIF weight of w. Words outside the table are taken as rare
// (weight close to 1).
func (t *Table) Weight(w string) float64 {
	r, ok := t.ix.lookup(w)
	if !ok {
		return 1
	}
	return RankWeight(r)
}

// Sentence returns the unit-length SIF embedding of the lowercased words ws:
// the SIF-weighted average of their vectors with the table's common component
// projected out. It returns a zero vector for no words. Cost O(len(ws) · dim).
func (t *Table) Sentence(ws []string) []float32 {
	acc := make([]float64, t.dim)
	for _, w := range ws {
		v, _ := t.Word(w)
		a := t.Weight(w)
		for j, x := range v {
			acc[j] += float64(a * float64(x)) // the product rounded first: never fused
		}
	}
	return t.Finish(acc)
}

// Weighted is a word's term of Sentence's sum: its vector v scaled by its
// SIF weight a, each product rounded as Sentence rounds it, so that adding
// the Weighted rows of a sentence's words in order and calling Finish gives
// Sentence's vector bit for bit. Cost O(dim).
func Weighted(v []float32, a float64) []float64 {
	out := make([]float64, len(v))
	for j, x := range v {
		out[j] = float64(a * float64(x))
	}
	return out
}

// Finish turns a sum of weighted word vectors into a sentence vector: the
// table's common component projected out, then scaled to unit length. It
// changes acc. Cost O(dim).
func (t *Table) Finish(acc []float64) []float32 {
	out := make([]float32, len(acc))
	t.FinishInto(out, acc)
	return out
}

// FinishInto is Finish writing into dst (of acc's length), for a caller
// that lays many vectors out in one block.
func (t *Table) FinishInto(dst []float32, acc []float64) {
	var proj float64
	for j, x := range t.common {
		proj += acc[j] * float64(x)
	}
	for j, x := range t.common {
		acc[j] -= proj * float64(x)
	}
	normalizeInto(dst, acc)
}

// MaxSim is a word-alignment score standing in for a cross-encoder: for each
// query word, the best cosine with any unit word, averaged over the query
// words with the given weights. It is 0 when either side is empty.
// Cost O(len(q) · len(u) · dim).
func MaxSim(q, u [][]float32, weights []float64) float64 {
	if len(q) == 0 || len(u) == 0 {
		return 0
	}
	var s, ws float64
	for i, qv := range q {
		best := math.Inf(-1)
		for _, uv := range u {
			if d := Dot(qv, uv); d > best {
				best = d
			}
		}
		s += weights[i] * best
		ws += weights[i]
	}
	if ws == 0 {
		return 0
	}
	return s / ws
}

// AddRows adds to acc, for each id of ids in order, row id of rows (rows
// holds len(acc) values per row): the additions a loop adding one row after
// the other makes, in the same order for every component, so the sums are
// the same bit for bit. For 32 components it keeps eight sums at a time in
// registers instead of memory (the loop that rebuilds a state's sentence
// vectors). Cost O(len(ids) · len(acc)).
func AddRows(acc, rows []float64, ids []int32) {
	dim := len(acc)
	if dim != 32 {
		for _, id := range ids {
			for j, x := range rows[int(id)*dim : int(id+1)*dim] {
				acc[j] += x
			}
		}
		return
	}
	for blk := 0; blk < 32; blk += 8 {
		a := acc[blk : blk+8 : blk+8]
		a0, a1, a2, a3, a4, a5, a6, a7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
		for _, id := range ids {
			o := int(id)*32 + blk
			r := rows[o : o+8 : o+8]
			a0 += r[0]
			a1 += r[1]
			a2 += r[2]
			a3 += r[3]
			a4 += r[4]
			a5 += r[5]
			a6 += r[6]
			a7 += r[7]
		}
		a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7] = a0, a1, a2, a3, a4, a5, a6, a7
	}
}
