package intent

import (
	"fmt"
	"math"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Synonyms by word vectors: a word that names nothing, is no typo and is not
// in the lexicon is grounded in the facet value nearest to it by the embedded
// word vectors, when their cosine is at least SynonymCos. Only the values of
// facets with few distinct values are candidates (genres, kinds, formats:
// at most maxVectorValues values; one word each, known to the table), so
// that a word is never grounded in one of a thousand series by
// chance; and never a common English word ("user", "first": near everything)
// or a cue. The threshold is calibrated on the development instruction cases.

// DefaultSynonymCos is the default cosine threshold (Linker.SynonymCos),
// chosen on the development cases of testdata/instructions (see
// docs/instructions.md).
const DefaultSynonymCos = 0.7

// maxVectorValues bounds the facets whose values a word can be grounded in
// by word vectors.
const maxVectorValues = 100

// valueVec is one facet value with its unit embedding.
type valueVec struct {
	e   Entity
	vec []float32
}

// valueVectors embeds the values of the catalog's small facets, on first
// need. O(values · dim).
func (l *Linker) valueVectors() []valueVec {
	l.lazy.vonce.Do(func() {
		if l.WordVec == nil {
			return
		}
		perFacet := map[string]int{}
		for _, es := range l.phrases {
			for _, e := range es {
				if e.How == HowExact {
					perFacet[e.Facet]++
				}
			}
		}
		for _, k := range sortedKeys(l.phrases) {
			for _, e := range l.phrases[k] {
				if e.How != HowExact || perFacet[e.Facet] > maxVectorValues || strings.Contains(k, " ") {
					continue // a value of several words averages to a vague direction
				}
				if v := l.embed(strings.Fields(k)); v != nil {
					l.lazy.vals = append(l.lazy.vals, valueVec{e: e, vec: v})
				}
			}
		}
	})
	return l.lazy.vals
}

// embed averages the word vectors of ws into a unit vector; nil when a word
// is unknown to the table.
func (l *Linker) embed(ws []string) []float32 {
	var acc []float64
	for _, w := range ws {
		v, ok := l.WordVec(w)
		if !ok {
			return nil
		}
		if acc == nil {
			acc = make([]float64, len(v))
		}
		for k, x := range v {
			acc[k] += float64(x)
		}
	}
	if acc == nil {
		return nil
	}
	norm := 0.0
	for _, x := range acc {
		norm += x * x
	}
	if norm == 0 {
		return nil
	}
	norm = math.Sqrt(norm)
	out := make([]float32, len(acc))
	for k, x := range acc {
		out[k] = float32(x / norm)
	}
	return out
}

// nearestValue returns the facet values nearest to word w by word vectors
// (every value at the best cosine, in catalog order) when the cosine is at
// least the threshold.
func (l *Linker) nearestValue(w string) ([]Entity, float64) {
	if l.WordVec == nil {
		return nil, 0
	}
	wv := l.embed([]string{w})
	if wv == nil {
		return nil, 0
	}
	thr := l.SynonymCos
	if thr == 0 {
		thr = DefaultSynonymCos
	}
	var best []Entity
	bestCos := thr
	for _, v := range l.valueVectors() {
		if text.Key(v.e.Value) == w {
			continue
		}
		var dot float32
		for k, x := range wv {
			dot += x * v.vec[k]
		}
		c := math.Round(float64(dot)*1e4) / 1e4 // the same decision on every host
		switch {
		case c > bestCos:
			best, bestCos = []Entity{v.e}, c
		case c == bestCos && best != nil:
			best = append(best, v.e)
		}
	}
	return best, bestCos
}

// vectorSynonym grounds word i by word vectors, or reports false.
func (p *parser) vectorSynonym(i int) bool {
	t := p.toks[i]
	if r, ok := relativeWords[t.Norm]; ok { // "cheap" where nothing has a price
		if p.mode != scopeExclude && p.mode != scopeAvoid {
			p.note(fmt.Sprintf("this catalog has no %s: %q is not used", unitNoun[r.unit], t.Orig))
		}
		return false
	}
	if vague[t.Norm] || stopwords[t.Norm] || cueWords[t.Norm] || len(t.Norm) < 3 || isDigits(t.Norm) {
		return false
	}
	if p.l.Common != nil && p.l.Common(t.Norm) {
		return false // "user", "first": a common word is near everything
	}
	if v, ok := lexiconMeaning[t.Norm]; ok {
		if p.mode != scopeExclude && p.mode != scopeAvoid { // a negated word says so as a hint
			p.note(fmt.Sprintf("%q means %s, which this catalog does not have: not used", t.Orig, v))
		}
		return false
	}
	ents, cos := p.l.nearestValue(t.Norm)
	if len(ents) == 0 {
		return false
	}
	for k := range ents {
		ents[k].How = HowSynonym
	}
	p.addWith(i, 1, ents, func(e Entity) string {
		return fmt.Sprintf("%s → %s (a near word: word-vector similarity %.2f)", t.Orig, e.Value, cos)
	})
	return true
}
