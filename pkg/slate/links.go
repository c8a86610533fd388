package slate

// Links: how a pooled unit is tied to the first pass's best units. A
// multi-hop question's second piece of evidence shares few words with the
// question; what it may share is with the first piece: a rare word, a
// meaning, a session. The four link features give the ranker that tie, so
// that a unit deep in the pool can outrank one that matched only the
// question's common words. The top units are the topUnits best of the fused
// list (after the speaker prior), the same for every candidate of a
// request; a top unit is never tied to itself.

import (
	"slices"

	"github.com/recmem/recmem/pkg/vector"
)

// topUnits is how many of the first pass's best units a candidate is tied
// to, chosen on the dev conversations (3 against 5, docs/slate.md).
const topUnits = 3

// linkIndex is the per-request view of the top units that links reads:
// which top units hold each term (a bit per top unit, by term id; none for
// the question's own terms), and each top unit's IDF mass of such terms.
// The question's terms are compared as text: a store read from a binary
// state has no map from text to term id until a unit is added.
type linkIndex struct {
	top  []*entry
	bits []uint8   // by term id
	mass []float64 // by top unit: IDF summed over its distinct non-question terms
}

// prepareLinks builds r's link index. Cost O(store terms, to clear the
// bits, + terms of the top units · query terms).
func (s *Store) prepareLinks(r *retrieval) {
	l := &r.links
	l.top = r.fused[:min(topUnits, len(r.fused))]
	l.bits = make([]uint8, len(s.lex.term))
	l.mass = make([]float64, len(l.top))
	for i, e := range l.top {
		for _, id := range e.tids {
			t := s.lex.term[id]
			if l.bits[id]&(1<<i) != 0 || slices.Contains(r.q.terms, t) {
				continue
			}
			l.bits[id] |= 1 << i
			l.mass[i] += s.units.IDF(t)
		}
	}
}

// links fills c's link features (FeatureNames from top_words): top_words,
// the best share over the top units of a top unit's non-question IDF mass
// that c's unit holds too; top_dense, its best sentence-vector cosine with
// a top unit (at least 0); top_turns, 1 / (1 + turns to the nearest top
// unit of its session); top_link, the best top_words share times the top
// unit's first-pass weight 10 / (10 + its rank). Cost O(unit terms ·
// shared terms + topUnits · dim).
func (s *Store) links(r *retrieval, c *candidate) {
	l := &r.links
	if l.bits == nil {
		return
	}
	e, x := c.e, c.x[linkFeature:linkFeature+4:linkFeature+4]
	var shared [topUnits]float64
	var doneBuf [32]int32
	done := doneBuf[:0]
	for _, id := range e.tids {
		b := l.bits[id]
		if b == 0 || slices.Contains(done, id) {
			continue
		}
		done = append(done, id)
		idf := s.units.IDF(s.lex.term[id])
		for i, te := range l.top {
			if b&(1<<i) != 0 && te != e {
				shared[i] += idf
			}
		}
	}
	for i, te := range l.top {
		if te == e {
			continue
		}
		if l.mass[i] > 0 {
			w := shared[i] / l.mass[i]
			x[0] = larger(x[0], w)
			x[3] = larger(x[3], w*10/float64(10+i))
		}
		x[1] = larger(x[1], vector.Dot(e.vec, te.vec))
		if te.s == e.s {
			d := te.sidx - e.sidx
			if d < 0 {
				d = -d
			}
			x[2] = larger(x[2], 1/float64(1+d))
		}
	}
}

// linkFeature is top_words' index in FeatureNames; the three other link
// features follow it.
var linkFeature = slices.Index(FeatureNames, "top_words")
