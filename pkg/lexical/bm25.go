// Package lexical is an incremental BM25 index over integer document keys.
//
// Documents are bags of terms (see package text). Terms are added to and removed
// from a document at any time, and the collection statistics (document
// frequencies, average length) follow at once, so scoring never rebuilds
// anything: Add and Remove cost O(terms), Score costs O(sum of the posting
// lengths of the query terms).
package lexical

import (
	"errors"
	"fmt"
	"sort"
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
type Index struct {
	cfg      Config
	postings map[string]map[int]int // term -> doc -> term frequency
	lengths  map[int]int            // doc -> number of terms
	total    int                    // sum of lengths
}

// New returns an empty index.
func New(cfg Config) *Index {
	return &Index{cfg: cfg, postings: map[string]map[int]int{}, lengths: map[int]int{}}
}

// Len is the number of documents holding at least one term.
func (ix *Index) Len() int { return len(ix.lengths) }

// Add appends terms to document doc, creating it if needed. Cost O(len(terms)).
func (ix *Index) Add(doc int, terms []string) {
	if len(terms) == 0 {
		return
	}
	for _, t := range terms {
		p := ix.postings[t]
		if p == nil {
			p = map[int]int{}
			ix.postings[t] = p
		}
		p[doc]++
	}
	ix.lengths[doc] += len(terms)
	ix.total += len(terms)
}

// ErrNotIndexed is returned by Remove for terms the document does not hold.
var ErrNotIndexed = errors.New("lexical: term not indexed for document")

// Remove takes terms (with multiplicity) out of document doc; a document left
// with no term disappears, and so does a term left in no document. It checks
// everything before changing anything. Cost O(len(terms)).
func (ix *Index) Remove(doc int, terms []string) error {
	need := map[string]int{}
	for _, t := range terms {
		need[t]++
	}
	for t, n := range need {
		if ix.postings[t][doc] < n {
			return fmt.Errorf("%w: %q in %d", ErrNotIndexed, t, doc)
		}
	}
	for t, n := range need {
		p := ix.postings[t]
		p[doc] -= n
		if p[doc] == 0 {
			delete(p, doc)
		}
		if len(p) == 0 {
			delete(ix.postings, t)
		}
	}
	ix.lengths[doc] -= len(terms)
	ix.total -= len(terms)
	if ix.lengths[doc] == 0 {
		delete(ix.lengths, doc)
	}
	return nil
}

// DF is the number of documents that hold term t.
func (ix *Index) DF(t string) int { return len(ix.postings[t]) }

// IDF is BM25's inverse document frequency with Lucene's +1 smoothing, which is
// never negative: ln(1 + (N - df + 0.5) / (df + 0.5)).
func (ix *Index) IDF(t string) float64 {
	n, df := float64(len(ix.lengths)), float64(len(ix.postings[t]))
	return Log(1 + (n-df+0.5)/(df+0.5))
}

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
func (ix *Index) Score(query []string) []Hit {
	if len(ix.lengths) == 0 {
		return nil
	}
	k1, b := ix.cfg.params()
	avg := float64(ix.total) / float64(len(ix.lengths))
	acc := map[int]float64{}
	seen := map[string]bool{}
	for _, t := range query {
		if seen[t] {
			continue
		}
		seen[t] = true
		p := ix.postings[t]
		if len(p) == 0 {
			continue
		}
		idf := ix.IDF(t)
		for doc, tf := range p {
			f := float64(tf)
			norm := k1 * (1 - b + b*float64(ix.lengths[doc])/avg)
			acc[doc] += idf * f * (k1 + 1) / (f + norm)
		}
	}
	hits := make([]Hit, 0, len(acc))
	for d, s := range acc {
		hits = append(hits, Hit{d, s})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Doc < hits[j].Doc
	})
	return hits
}
