package lexical

// Stats are BM25's statistics of a fixed corpus (a catalog's item texts):
// each term's document frequency, the number of documents and their mean
// length. Unlike Index it keeps no postings: it scores the documents it is
// given (Prepare) against weighted queries (Query), which is what a ranker
// that scores a known list of candidates needs. Read-only after NewStats,
// so safe for concurrent use.
type Stats struct {
	k1, b  float64
	df     map[string]int
	n      int
	avgLen float64
}

// NewStats counts the document frequencies of docs (each a list of terms)
// under cfg's parameters. O(total terms).
func NewStats(cfg Config, docs [][]string) *Stats {
	k1, b := cfg.params()
	s := &Stats{k1: k1, b: b, df: map[string]int{}, n: len(docs)}
	total := 0
	seen := map[string]bool{}
	for _, d := range docs {
		total += len(d)
		clear(seen)
		for _, t := range d {
			if !seen[t] {
				seen[t] = true
				s.df[t]++
			}
		}
	}
	if s.n > 0 {
		s.avgLen = float64(total) / float64(s.n)
	}
	if s.avgLen == 0 {
		s.avgLen = 1
	}
	return s
}

// IDF is Index.IDF over the corpus: ln(1 + (N - df + 0.5) / (df + 0.5)).
func (s *Stats) IDF(t string) float64 { return idf(float64(s.n), float64(s.df[t])) }

// idf is BM25's inverse document frequency with Lucene's +1 smoothing, which
// is never negative, computed with Log so every host gives the same bits.
func idf(n, df float64) float64 { return Log(1 + (n-df+0.5)/(df+0.5)) }

// Query is a weighted bag of terms: a term's weight multiplies its BM25
// term score.
type Query map[string]float64

// Add adds each of terms with weight w.
func (q Query) Add(terms []string, w float64) {
	for _, t := range terms {
		q[t] += w
	}
}

// Doc is a document prepared for Stats.Score: its distinct terms in order of
// first occurrence, with their counts and IDF, and its length in terms.
type Doc struct {
	terms []string
	tf    []float64
	idf   []float64
	n     int
}

// Len is the document's length in terms.
func (d *Doc) Len() int { return d.n }

// Prepare counts the terms of a document. O(len(terms)).
func (s *Stats) Prepare(terms []string) Doc {
	d := Doc{n: len(terms)}
	at := make(map[string]int, len(terms))
	for _, t := range terms {
		k, ok := at[t]
		if !ok {
			k = len(d.terms)
			at[t] = k
			d.terms = append(d.terms, t)
			d.tf = append(d.tf, 0)
			d.idf = append(d.idf, s.IDF(t))
		}
		d.tf[k]++
	}
	return d
}

// Score is the weighted BM25 score of d for q,
//
//	Σ_t q_t · idf(t) · tf·(k1+1) / (tf + k1·(1 - b + b·|d|/avgdl)),
//
// summed over d's distinct terms in order of first occurrence, so it is the
// same on every host. O(distinct terms of d).
func (s *Stats) Score(q Query, d *Doc) float64 {
	if len(q) == 0 || d.n == 0 {
		return 0
	}
	norm := s.k1 * (1 - s.b + float64(s.b*float64(d.n)/s.avgLen))
	sum := 0.0
	for k, t := range d.terms {
		if qw := q[t]; qw != 0 {
			f := d.tf[k]
			sum += qw * d.idf[k] * f * (s.k1 + 1) / (f + norm)
		}
	}
	return sum
}
