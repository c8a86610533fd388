package rank

import (
	"math"
	"strings"
	"unicode"
)

// BM25 parameters, the common defaults (Robertson & Zaragoza 2009; Lucene
// and bleve use the same).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for from has have in is it its
		of on or that the this to was were will with edition game games version vol new
		i me my we you your he she they them our not no yes`) {
		stopwords[w] = true
	}
}

// Tokens lowercases s and splits it on anything but letters and digits,
// dropping stopwords and one-character tokens. O(len(s)).
func Tokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := f[:0]
	for _, t := range f {
		if len(t) > 1 && !stopwords[t] {
			out = append(out, t)
		}
	}
	return out
}

// index holds the document frequencies of the catalog's item texts for BM25.
type index struct {
	df     map[string]int
	n      int
	avgLen float64
}

func newIndex(texts []string) *index {
	ix := &index{df: map[string]int{}, n: len(texts)}
	total := 0
	for _, t := range texts {
		toks := Tokens(t)
		total += len(toks)
		seen := map[string]bool{}
		for _, w := range toks {
			if !seen[w] {
				seen[w] = true
				ix.df[w]++
			}
		}
	}
	if ix.n > 0 {
		ix.avgLen = float64(total) / float64(ix.n)
	}
	if ix.avgLen == 0 {
		ix.avgLen = 1
	}
	return ix
}

// idf is BM25's smoothed inverse document frequency ln(1 + (N-df+0.5)/(df+0.5)).
func (ix *index) idf(w string) float64 {
	df := float64(ix.df[w])
	// Log1p is pure Go on every architecture (math.Log has an amd64 assembly
	// version), so the plugin and a native host agree to the bit.
	return math.Log1p((float64(ix.n) - df + 0.5) / (df + 0.5))
}

// query is a weighted bag of terms.
type query map[string]float64

// add adds the terms of text with weight w.
func (q query) add(text string, w float64) { q.addTokens(Tokens(text), w) }

// addTokens adds tokens with weight w.
func (q query) addTokens(toks []string, w float64) {
	for _, t := range toks {
		q[t] += w
	}
}

// doc is a text prepared for BM25: its distinct tokens in order of first
// occurrence with their counts and idf, and its length in tokens.
type doc struct {
	terms []string
	tf    []float64
	idf   []float64
	n     int
}

// prepare counts the tokens of a text. O(len(toks)).
func (ix *index) prepare(toks []string) doc {
	d := doc{n: len(toks)}
	at := make(map[string]int, len(toks))
	for _, t := range toks {
		k, ok := at[t]
		if !ok {
			k = len(d.terms)
			at[t] = k
			d.terms = append(d.terms, t)
			d.tf = append(d.tf, 0)
			d.idf = append(d.idf, ix.idf(t))
		}
		d.tf[k]++
	}
	return d
}

// score is Σ_t q_t · idf(t) · tf(k1+1) / (tf + k1(1 - b + b·dl/avgdl)) over the
// tokens of a document. O(len(toks)).
func (ix *index) score(q query, toks []string) float64 {
	if len(q) == 0 || len(toks) == 0 {
		return 0
	}
	d := ix.prepare(toks)
	return ix.scoreDoc(q, &d)
}

// scoreDoc is score on a prepared document: the sum runs over its distinct
// terms in order of first occurrence, so it is the same on every host.
// O(distinct terms).
func (ix *index) scoreDoc(q query, d *doc) float64 {
	if len(q) == 0 || d.n == 0 {
		return 0
	}
	norm := bm25K1 * (1 - bm25B + float64(bm25B*float64(d.n)/ix.avgLen))
	s := 0.0
	for k, t := range d.terms {
		if qw := q[t]; qw != 0 {
			f := d.tf[k]
			s += qw * d.idf[k] * f * (bm25K1 + 1) / (f + norm)
		}
	}
	return s
}
