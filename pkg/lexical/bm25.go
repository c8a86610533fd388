// Package lexical is recmem's one BM25: an incremental index over integer
// document keys (Index, for agent memory, where units come and go), and the
// statistics of a fixed corpus that score given documents against weighted
// queries (Stats, for the recommendation ranker's catalog). Both use the
// same parameters (Config) and the same IDF, computed with Log so that every
// host gives the same bits.
//
// Documents are bags of terms (see package text). In an Index, terms are
// added to and removed from a document at any time, and the collection
// statistics (document frequencies, average length) follow at once, so
// scoring never rebuilds anything: Add and Remove cost O(terms), Score costs
// O(sum of the posting lengths of the query terms).
package lexical

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/recmem/recmem/pkg/topk"
)

// Default BM25 parameters, the values used by Lucene, Elasticsearch and bleve
// (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
// Beyond", 2009, §3).
const (
	DefaultK1 = 1.2
	DefaultB  = 0.75
)

// Config holds BM25's parameters. A zero field means its documented default.
type Config struct {
	K1 float64 `json:"k1,omitempty"` // term-frequency saturation (default 1.2)
	B  float64 `json:"b,omitempty"`  // length normalization in [0,1] (default 0.75)
}

func (c Config) params() (k1, b float64) {
	k1, b = c.K1, c.B
	if k1 == 0 {
		k1 = DefaultK1
	}
	if b == 0 {
		b = DefaultB
	}
	return k1, b
}

// Validate reports parameters out of range, naming the field.
func (c Config) Validate() error {
	if c.K1 < 0 {
		return fmt.Errorf("k1: must not be negative, got %g", c.K1)
	}
	if c.B < 0 || c.B > 1 {
		return fmt.Errorf("b: must be in [0,1], got %g", c.B)
	}
	return nil
}

// Index is a BM25 index. The zero value is not usable; call New.
//
// Documents are small non-negative integers (an index holds a length per
// document up to the largest seen, so memory is O(largest doc + postings)).
// A term's postings are kept sorted by document, so scoring walks slices, not
// maps.
type Index struct {
	cfg      Config
	postings map[string][]posting // term -> postings by increasing doc
	lengths  []int32              // doc -> number of terms (0: no document)
	docs     int                  // documents holding at least one term
	total    int                  // sum of lengths
}

type posting struct {
	doc int32
	tf  int32
}

// New returns an empty index.
func New(cfg Config) *Index {
	return &Index{cfg: cfg, postings: map[string][]posting{}}
}

// Len is the number of documents holding at least one term.
func (ix *Index) Len() int { return ix.docs }

// find returns the position of doc in p, or where it would be inserted.
// Documents are mostly added in increasing order, so the end is tried first.
// Cost O(log len(p)).
func find(p []posting, doc int32) int {
	if n := len(p); n == 0 || p[n-1].doc < doc {
		return n
	}
	lo, hi := 0, len(p)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p[m].doc < doc {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Add appends terms to document doc (a non-negative integer), creating it if
// needed. Cost O(len(terms)) when documents are added in increasing order,
// plus moving postings when an earlier document grows.
func (ix *Index) Add(doc int, terms []string) {
	if len(terms) == 0 {
		return
	}
	if doc < 0 || doc > math.MaxInt32 {
		panic("lexical: document out of range")
	}
	d := int32(doc)
	for _, t := range terms {
		p := ix.postings[t]
		i := find(p, d)
		if i < len(p) && p[i].doc == d {
			p[i].tf++
			continue
		}
		p = append(p, posting{})
		copy(p[i+1:], p[i:])
		p[i] = posting{d, 1}
		ix.postings[t] = p
	}
	for len(ix.lengths) <= doc {
		ix.lengths = append(ix.lengths, 0)
	}
	if ix.lengths[doc] == 0 {
		ix.docs++
	}
	ix.lengths[doc] += int32(len(terms))
	ix.total += len(terms)
}

// ErrNotIndexed is returned by Remove for terms the document does not hold.
var ErrNotIndexed = errors.New("lexical: term not indexed for document")

// tf is the frequency of t in doc.
func (ix *Index) tf(t string, doc int) int {
	p := ix.postings[t]
	if doc < 0 || doc > math.MaxInt32 {
		return 0
	}
	if i := find(p, int32(doc)); i < len(p) && p[i].doc == int32(doc) {
		return int(p[i].tf)
	}
	return 0
}

// Remove takes terms (with multiplicity) out of document doc; a document left
// with no term disappears, and so does a term left in no document. It checks
// everything before changing anything. Cost O(len(terms) · log postings),
// plus moving the postings that follow doc.
func (ix *Index) Remove(doc int, terms []string) error {
	need := map[string]int{}
	var order []string
	for _, t := range terms {
		if need[t] == 0 {
			order = append(order, t)
		}
		need[t]++
	}
	for _, t := range order {
		if ix.tf(t, doc) < need[t] {
			return fmt.Errorf("%w: %q in %d", ErrNotIndexed, t, doc)
		}
	}
	for _, t := range order {
		p := ix.postings[t]
		i := find(p, int32(doc))
		p[i].tf -= int32(need[t])
		if p[i].tf == 0 {
			p = append(p[:i], p[i+1:]...)
		}
		if len(p) == 0 {
			delete(ix.postings, t)
		} else {
			ix.postings[t] = p
		}
	}
	if len(terms) == 0 {
		return nil
	}
	ix.lengths[doc] -= int32(len(terms))
	ix.total -= len(terms)
	if ix.lengths[doc] == 0 {
		ix.docs--
	}
	return nil
}

// DF is the number of documents that hold term t.
func (ix *Index) DF(t string) int { return len(ix.postings[t]) }

// IDF is BM25's inverse document frequency with Lucene's +1 smoothing, which is
// never negative: ln(1 + (N - df + 0.5) / (df + 0.5)).
func (ix *Index) IDF(t string) float64 { return idf(float64(ix.docs), float64(len(ix.postings[t]))) }

// Hit is one scored document.
type Hit struct {
	Doc   int
	Score float64
}

// Score returns the BM25 score of every document that holds at least one of
// the query terms, best first, ties broken by smaller doc. Repeated query terms
// count once.
//
//	score(d) = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 - b + b·|d|/avgdl))
//
// Each document's sum runs over the query terms in order. Cost O(postings of
// the query terms + hits · passes) (topk.Floats), and a scratch array of the
// largest document's size.
func (ix *Index) Score(query []string) []Hit {
	return ix.ScoreTop(query, math.MaxInt)
}

// ScoreTop is Score when only the k best hits need their order: it returns
// every hit, the first min(k, hits) of them the k best in Score's order, the
// others after them in no particular order. Cost O(postings of the query
// terms + hits) expected (topk.Floats).
func (ix *Index) ScoreTop(query []string, k int) []Hit {
	return topHits(ix.hits(query, nil), k)
}

// ScoreTopWeighted is ScoreTop for a weighted query: term query[i] counts
// weights[i] (> 0) times its BM25 term score (a repeated term counts once,
// with its first weight), so an expanded query can lean on the words it was
// given less than on the words asked. Cost that of ScoreTop.
func (ix *Index) ScoreTopWeighted(query []string, weights []float64, k int) []Hit {
	if len(weights) != len(query) {
		panic("lexical: one weight per query term")
	}
	return topHits(ix.hits(query, weights), k)
}

// topHits puts the k best of hits (in doc order) first, in Score's order.
func topHits(hits []Hit, k int) []Hit {
	if len(hits) < 2 {
		return hits
	}
	scores := make([]float64, len(hits))
	for i, h := range hits {
		scores[i] = h.Score
	}
	// hits are in doc order, so ties by position are ties by doc.
	order := topk.Floats(scores, nil, k)
	out := make([]Hit, len(hits)+1) // a spare slot: every hit is written, then counted or not
	taken := make([]bool, len(hits))
	for i, j := range order {
		out[i] = hits[j]
		taken[j] = true
	}
	n := len(order)
	for j, h := range hits {
		out[n] = h
		n += b2i(!taken[j])
	}
	return out[:len(hits)]
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// hits scores every document holding a query term, in doc order (a document
// holds a term of the query exactly when its score is above 0: every IDF and
// weight is positive), each term's score times its weight when weights is
// not nil.
func (ix *Index) hits(query []string, weights []float64) []Hit {
	if ix.docs == 0 {
		return nil
	}
	k1, b := ix.cfg.params()
	avg := float64(ix.total) / float64(ix.docs)
	acc := make([]float64, len(ix.lengths))
	for qi, t := range query {
		if slices.Contains(query[:qi], t) {
			continue
		}
		p := ix.postings[t]
		if len(p) == 0 {
			continue
		}
		idf := ix.IDF(t)
		if weights != nil {
			idf *= weights[qi]
		}
		for _, x := range p {
			f := float64(x.tf)
			norm := k1 * (1 - b + b*float64(ix.lengths[x.doc])/avg)
			acc[x.doc] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	docs := make([]int32, len(acc)+1)
	n := 0
	for d, v := range acc {
		docs[n] = int32(d)
		n += b2i(v > 0)
	}
	hits := make([]Hit, n)
	for i, d := range docs[:n] {
		hits[i] = Hit{int(d), acc[d]}
	}
	return hits
}
