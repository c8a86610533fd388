// Package vector turns words and sentences into dense vectors with no network:
// a word-vector table derived from Stanford GloVe (6B tokens, 100 dimensions,
// public domain under the PDDL; Pennington, Socher and Manning, EMNLP 2014),
// cut to its most frequent words, reduced by PCA and quantized to int8 by
// scripts/embeddings/generate.js, and embedded in the binary.
//
// Words missing from the table get a deterministic vector hashed from their
// character trigrams (FNV-1a), so that the same unknown name always maps to
// the same direction and spelling variants land close to each other.
package vector

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
)

//go:embed glove.bin
var gloveBin []byte

//go:embed neighbours.bin
var neighboursBin []byte

// Table is a read-only word-vector table. Vectors are unit length.
type Table struct {
	dim  int
	ix   *wordIndex // word <-> rank (0 is the most frequent)
	data []float32  // rank*dim ... (rank+1)*dim
	// common is the Zipf-weighted mean direction of the table, removed from
	// every sentence vector (SIF's common component).
	common []float32
	lists  *neighbourLists // precomputed nearest words, nil if none
	// A table parsed lazily (the embedded one) dequantizes a word's vector
	// on its first use: quant holds the codes (int8 components, or 4-bit
	// codes with steps) and ready[r] turns 1 once data holds word r's
	// vector (written under mu, read after ready).
	quant []byte
	steps []float64 // version 2: each component's quantization step
	ready []atomic.Uint32
	mu    sync.Mutex
}

// header reads a table's header: the dimension, the words, the per-component
// steps of a version 2 table (nil for version 1) and the codes, checking the
// sizes. Version 1 codes each component on one int8 (a vector over its
// largest component, times 127); version 2 on 4 bits, component j's level
// (code - 7.5) · step j (scripts/embeddings/generate.js). Cost O(len(b)) for
// the word index.
func header(b []byte) (dim int, ix *wordIndex, steps []float64, quant []byte, err error) {
	if len(b) < 14 || string(b[:4]) != "RMWV" || b[4] != 1 && b[4] != 2 {
		return 0, nil, nil, nil, errors.New("vector: not a version 1 or 2 RMWV table")
	}
	dim = int(b[5])
	n := int(binary.LittleEndian.Uint32(b[6:]))
	l := int(binary.LittleEndian.Uint32(b[10:]))
	size := 14 + l + n*dim
	if b[4] == 2 {
		size = 14 + l + 4*dim + n*dim/2
	}
	if dim == 0 || b[4] == 2 && dim%2 != 0 || len(b) != size {
		return 0, nil, nil, nil, fmt.Errorf("vector: table size %d does not match header (version %d, n=%d, dim=%d, words=%d bytes)", len(b), b[4], n, dim, l)
	}
	ix = newWordIndex(string(b[14 : 14+l]))
	if ix.len() != n {
		return 0, nil, nil, nil, fmt.Errorf("vector: %d words listed, header says %d", ix.len(), n)
	}
	quant = b[14+l:]
	if b[4] == 2 {
		steps = make([]float64, dim)
		for j := range steps {
			steps[j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(quant[4*j:])))
		}
		quant = quant[4*dim:]
	}
	return dim, ix, steps, quant, nil
}

// Parse reads a table in the format written by scripts/embeddings/generate.js.
// Cost O(size of b).
func Parse(b []byte) (*Table, error) {
	dim, ix, steps, q, err := header(b)
	if err != nil {
		return nil, err
	}
	n := ix.len()
	t := &Table{dim: dim, ix: ix, data: make([]float32, n*dim), steps: steps, quant: q}
	for i := range n {
		t.dequantize(int32(i))
	}
	t.quant = nil
	common := make([]float64, dim)
	for i := 0; i < n; i++ {
		p := zipf(i)
		for j, x := range t.data[i*dim : (i+1)*dim] {
			common[j] += p * float64(x)
		}
	}
	t.common = normalize64(common)
	return t, nil
}

// dequantize writes word r's unit vector into t.data from its codes.
func (t *Table) dequantize(r int32) {
	v := t.data[int(r)*t.dim : int(r+1)*t.dim : int(r+1)*t.dim]
	if t.steps == nil {
		dequantize(v, t.quant[int(r)*t.dim:int(r+1)*t.dim])
		return
	}
	dequantize4(v, t.quant[int(r)*t.dim/2:int(r+1)*t.dim/2], t.steps)
}

// dequantize4 writes the unit vector of the 4-bit codes q (two a byte, the
// even component low) with per-component steps into v: level (code - 7.5) ·
// step, summed and scaled in float64.
func dequantize4(v []float32, q []byte, steps []float64) {
	acc := make([]float64, len(v))
	for j := range acc {
		c := q[j/2] >> (4 * (j % 2)) & 15
		acc[j] = (float64(c) - 7.5) * steps[j]
	}
	normalizeInto(v, acc)
}

// dequantize writes the unit vector of the int8 components q into v (zero
// for an all-zero q).
func dequantize(v []float32, q []byte) {
	// The sum of squares of int8 components is an integer well below 2^53:
	// summing in int32 gives the float64 sum's exact value, at integer speed.
	var ss int32
	for _, c := range q {
		x := int32(int8(c))
		ss += x * x
	}
	if ss == 0 {
		return
	}
	inv := 1 / math.Sqrt(float64(ss))
	for j, c := range q {
		v[j] = float32(float64(int8(c)) * inv)
	}
}

// parseLazy reads a table like Parse but leaves each word's vector to be
// dequantized on first use, and takes the common component as given (it is
// a function of all vectors): what a cold start needs is the word index.
// Cost O(words) now, O(dim) per word on its first use.
func parseLazy(b []byte, common []float32) (*Table, error) {
	dim, ix, steps, q, err := header(b)
	if err != nil {
		return nil, err
	}
	if len(common) != dim {
		return nil, fmt.Errorf("vector: a common component of %d dimensions for a table of %d", len(common), dim)
	}
	n := ix.len()
	return &Table{dim: dim, ix: ix, data: make([]float32, n*dim),
		common: common, quant: q, steps: steps, ready: make([]atomic.Uint32, n)}, nil
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
)

// Default returns the embedded table with its precomputed neighbour lists,
// parsed on first use (a few milliseconds).
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := parseLazy(gloveBin, embeddedCommon[:])
		if err != nil {
			panic(err) // the embedded file is generated and tested
		}
		// The lists and the common component are generated from glove.bin;
		// TestEmbeddedDerivedData holds them to it, so a start does not
		// hash the table again (a few ms inside WebAssembly).
		t.lists, _ = parseNeighbourLists(neighboursBin, t.ix.len(), embeddedTableHash(neighboursBin))
		defaultTable = t
	})
	return defaultTable
}

// Dim is the vectors' dimension.
func (t *Table) Dim() int { return t.dim }

// Len is the number of words in the table.
func (t *Table) Len() int { return t.ix.distinct }

// Rank returns the frequency rank of w (0 is the most frequent) and whether the
// table holds it.
func (t *Table) Rank(w string) (int, bool) {
	r, ok := t.ix.lookup(w)
	return int(r), ok
}

// Word returns the unit vector of the lowercased word w and whether it came
// from the table. A word the table lacks (after trying it without a plural s)
// gets its hashed trigram vector. The returned slice must not be changed.
func (t *Table) Word(w string) ([]float32, bool) {
	if r, ok := t.ix.lookup(w); ok {
		return t.vec(r), true
	}
	if s, ok := strings.CutSuffix(w, "s"); ok && len(s) > 2 {
		if r, ok := t.ix.lookup(s); ok {
			return t.vec(r), true
		}
	}
	return Hashed(w, t.dim), false
}

// Source says where Word finds w's vector, without computing it: the table
// rank of w itself (exact true), or of w without its plural s (exact false);
// ok false when the table holds neither and the vector is hashed. A state
// stores the source instead of the vector (docs/state-binary.md). Cost
// O(len(w)).
func (t *Table) Source(w string) (rank int32, exact, ok bool) {
	if r, ok := t.ix.lookup(w); ok {
		return r, true, true
	}
	if s, ok := strings.CutSuffix(w, "s"); ok && len(s) > 2 {
		if r, ok := t.ix.lookup(s); ok {
			return r, false, true
		}
	}
	return 0, false, false
}

// RankVector is the unit vector of the word of rank r (0 <= r < Len()), as
// Word returns it. The returned slice must not be changed. Cost O(dim) on
// the word's first use, O(1) after.
func (t *Table) RankVector(r int32) []float32 { return t.vec(r) }

// RankWeight is Weight of the word of rank r: SIF's a / (a + p(r)).
func RankWeight(r int32) float64 { return SIFWeight / (SIFWeight + zipf(int(r))) }

// zipf approximates the corpus probability of the word of rank r by Zipf's law
// over GloVe's 400,000-word vocabulary: 1 / ((r+1) · H), H = ln 400000 + γ.
func zipf(r int) float64 { return 1 / (float64(r+1) * 13.4793) }

// Hashed returns a deterministic unit vector for w: the normalized sum of
// pseudo-random ±1 vectors, one per character trigram of "<w>", drawn from
// FNV-1a hashes. Cost O(len(w) · dim).
func Hashed(w string, dim int) []float32 { return FromCounts(HashedCounts(w, dim)) }

// HashedCounts is Hashed before normalization: for each component, the +1s
// minus the -1s drawn for w's trigrams. It is what a state stores for a word
// outside the table, since Hashed(w) is exactly FromCounts(HashedCounts(w)).
// Cost O(len(w) · dim).
func HashedCounts(w string, dim int) []int32 {
	s := "<" + w + ">"
	acc := make([]int32, dim)
	rs := []rune(s)
	for i := 0; i+3 <= len(rs) || i == 0; i++ {
		g := string(rs[i:min(i+3, len(rs))])
		h := fnv1a(g)
		for j := 0; j < dim; j++ {
			h ^= h << 13
			h ^= h >> 7
			h ^= h << 17
			if h&1 == 1 {
				acc[j]++
			} else {
				acc[j]--
			}
		}
		if i+3 >= len(rs) {
			break
		}
	}
	return acc
}

// FromCounts is the unit vector along integer components (zero stays zero),
// computed as Hashed always has: the components widened to float64 exactly,
// scaled by the inverse of their norm. Cost O(len(c)).
func FromCounts(c []int32) []float32 {
	acc := make([]float64, len(c))
	for i, x := range c {
		acc[i] = float64(x)
	}
	return normalize64(acc)
}

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Normalize returns v scaled to unit length as float32 (zero stays zero).
func Normalize(v []float64) []float32 { return normalize64(v) }

func normalize64(v []float64) []float32 {
	out := make([]float32, len(v))
	normalizeInto(out, v)
	return out
}

// normalizeInto writes v scaled to unit length into out (zeros for zero).
func normalizeInto(out []float32, v []float64) {
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	if ss == 0 {
		clear(out)
		return
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
}

// Dot is the inner product of two vectors of equal length (cosine for unit
// vectors), accumulated in float64 in index order, so every build gives the
// same bits. Cost O(len(a)).
func Dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s += float64(a[i]) * float64(b[i])
		s += float64(a[i+1]) * float64(b[i+1])
		s += float64(a[i+2]) * float64(b[i+2])
		s += float64(a[i+3]) * float64(b[i+3])
	}
	for ; i < len(a); i++ {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// Dot64 is Dot for vectors already widened to float64 (each component a
// float32 value): the same products summed in the same order, so
// Dot64(widen(a), widen(b)) == Dot(a, b) bit for bit, without converting on
// every call. Cost O(len(a)).
func Dot64(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s += a[i] * b[i]
		s += a[i+1] * b[i+1]
		s += a[i+2] * b[i+2]
		s += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s += a[i] * b[i]
	}
	return s
}

// Neighbours returns up to k table words whose cosine with w is at least
// minCos, most similar first (ties by frequency rank), excluding w itself.
// Words outside the table have none. With the embedded table's precomputed
// lists (neighbours.go) and k and minCos within them, cost O(k · dim);
// otherwise O(table size · dim).
func (t *Table) Neighbours(w string, k int, minCos float64) []string {
	r, ok := t.ix.lookup(w)
	if !ok || k <= 0 {
		return nil
	}
	if nl := t.lists; nl != nil && k <= nl.k && minCos >= nl.minCos {
		v := t.vec(r)
		var out []string
		for _, n := range nl.ranks[nl.start[r]:nl.start[r+1]] {
			if len(out) == k {
				break
			}
			if Dot(v, t.vec(int32(n))) >= minCos {
				out = append(out, t.ix.word(int32(n)))
			}
		}
		return out
	}
	return t.rankWords(t.scanNeighbours(r, nil, k, minCos))
}

// NeighboursAmong is Neighbours restricted to the table words of the given
// frequency ranks (all words when ranks is nil): a store asks only among the
// words it holds. Cost O(len(ranks) · dim).
func (t *Table) NeighboursAmong(w string, ranks []int32, k int, minCos float64) []string {
	r, ok := t.ix.lookup(w)
	if !ok || k <= 0 {
		return nil
	}
	return t.rankWords(t.scanNeighbours(r, ranks, k, minCos))
}

func (t *Table) vec(r int32) []float32 {
	v := t.data[int(r)*t.dim : int(r+1)*t.dim : int(r+1)*t.dim]
	if t.ready != nil && t.ready[r].Load() == 0 {
		t.mu.Lock()
		if t.ready[r].Load() == 0 {
			t.dequantize(r)
			t.ready[r].Store(1)
		}
		t.mu.Unlock()
	}
	return v
}

func (t *Table) rankWords(rs []int32) []string {
	if rs == nil {
		return nil
	}
	words := make([]string, len(rs))
	for i, r := range rs {
		words[i] = t.ix.word(r)
	}
	return words
}

// scanNeighbours returns the ranks of the k words of ranks (all words when
// nil) nearest to the word of rank r, cosine at least minCos, best first,
// ties by rank. Cost O(len(ranks) · dim).
func (t *Table) scanNeighbours(r int32, ranks []int32, k int, minCos float64) []int32 {
	v := t.vec(r)
	type hit struct {
		rank int32
		cos  float64
	}
	better := func(a, b hit) bool { return a.cos > b.cos || (a.cos == b.cos && a.rank < b.rank) }
	var best []hit
	consider := func(i int32) {
		if i == r {
			return
		}
		h := hit{i, Dot(v, t.vec(i))}
		if h.cos < minCos || (len(best) == k && !better(h, best[k-1])) {
			return
		}
		j := len(best)
		if j < k {
			best = append(best, hit{})
		} else {
			j = k - 1
		}
		for j > 0 && better(h, best[j-1]) {
			best[j] = best[j-1]
			j--
		}
		best[j] = h
	}
	if ranks == nil {
		for i := range int32(t.ix.len()) {
			consider(i)
		}
	} else {
		for _, i := range ranks {
			consider(i)
		}
	}
	out := make([]int32, len(best))
	for i, h := range best {
		out[i] = h.rank
	}
	return out
}
