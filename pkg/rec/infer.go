package rec

import (
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/text"
)

// Inferring a facet a catalog does not give (a genre, an audience) from the
// evidence in its own data, for a catalog of titles only (Games-6k):
//
//  1. Seeds: an item whose title holds one of a concept's words or title
//     words (the lexicon's: "racing", "soccer", "puzzle"; the games table's
//     "lego", "call of duty") is of that concept.
//  2. Propagation (off by default; InferConfig.Propagate): an item whose
//     nearest neighbours by co-occurrence (the users who took both,
//     cosine) are mostly seeds of a concept is of it too: the seeds' share
//     of its top Neighbors neighbours' similarity mass is at least
//     MinShare, over at least MinNeighbors neighbours, and the concept is
//     the item's strongest. On Games-6k it added nothing: the development
//     "knowledge" cases of testdata/instructions scored p10 0.766 with
//     seeds alone, 0.766 with propagation at share 0.3 and 0.760 at 0.2
//     (co-occurrence there follows the platform more than the genre).
//
// The result is a list facet marked inferred (catalog.Facet.Inferred), and
// the interpreter says so when it grounds a word in it.

// InferConfig sets the inference; its zero value means the defaults.
type InferConfig struct {
	Propagate    bool    // carry seeds to co-occurrence neighbours
	Neighbors    int     // co-occurrence neighbours read per item (default 20)
	MinNeighbors int     // an item with fewer is not propagated to (default 5)
	MinShare     float64 // the seeds' share of the neighbours' similarity (default 0.4)
}

func (c InferConfig) withDefaults() InferConfig {
	if c.Neighbors == 0 {
		c.Neighbors = 20
	}
	if c.MinNeighbors == 0 {
		c.MinNeighbors = 5
	}
	if c.MinShare == 0 {
		c.MinShare = 0.4
	}
	return c
}

// Inference is an inferred facet: each item's values and how each was
// found (seed or neighbours), for the report.
type Inference struct {
	Values [][]string // per item, the concepts' names, in concept order
	Seeds  []int      // per concept, the items seeded by their titles
	Spread []int      // per concept, the items added by their neighbours
}

// InferFacet infers, for each item, the concepts (named by Names[k]) its
// title or its co-occurrence neighbours support. titles are the items'
// titles, histories the users' item sequences (dense indices).
// O(items · title length · concept words + Σ|history|² + items · Neighbors · concepts).
func InferFacet(titles []string, histories [][]int, names []string, concepts []intent.Concept, cfg InferConfig) Inference {
	cfg = cfg.withDefaults()
	n := len(titles)
	seed := make([][]bool, len(concepts))
	inf := Inference{Values: make([][]string, n), Seeds: make([]int, len(concepts)), Spread: make([]int, len(concepts))}
	padded := make([]string, n)
	for i, t := range titles {
		padded[i] = " " + text.Key(t) + " "
	}
	for k, c := range concepts {
		seed[k] = make([]bool, n)
		var keys []string
		for _, w := range append(append(append([]string(nil), c.Values...), c.Words...), c.Titles...) {
			if key := text.Key(w); key != "" && !slices.Contains(keys, key) {
				keys = append(keys, key)
			}
		}
		for i := range titles {
			for _, key := range keys {
				if strings.Contains(padded[i], " "+key+" ") {
					seed[k][i] = true
					inf.Seeds[k]++
					break
				}
			}
		}
	}
	if !cfg.Propagate {
		for i := range n {
			for k := range concepts {
				if seed[k][i] {
					inf.Values[i] = append(inf.Values[i], names[k])
				}
			}
		}
		return inf
	}
	co := CoOccurrence(histories, n)
	for i := range n {
		nbs := top(co, i, cfg.Neighbors)
		var mass float64
		share := make([]float64, len(concepts))
		for _, nb := range nbs {
			w := float64(nb.Weight)
			mass += w
			for k := range concepts {
				if seed[k][nb.Item] {
					share[k] += w
				}
			}
		}
		best := -1
		if len(nbs) >= cfg.MinNeighbors && mass > 0 {
			for k := range concepts {
				if share[k]/mass >= cfg.MinShare && (best < 0 || share[k] > share[best]) {
					best = k
				}
			}
		}
		for k := range concepts {
			switch {
			case seed[k][i]:
				inf.Values[i] = append(inf.Values[i], names[k])
			case k == best:
				inf.Values[i] = append(inf.Values[i], names[k])
				inf.Spread[k]++
			}
		}
	}
	return inf
}

// ConceptsNamed returns, for each of names, the union of the lexicon's
// concepts whose values include it (their words and title words), in the
// order of names; a name no concept has is left out.
func ConceptsNamed(lex []intent.Concept, names []string) (out []intent.Concept, kept []string) {
	for _, name := range names {
		var m intent.Concept
		for _, c := range lex {
			if slices.Contains(c.Values, name) {
				m.Values = append(m.Values, c.Values...)
				m.Words = append(m.Words, c.Words...)
				m.Titles = append(m.Titles, c.Titles...)
			}
		}
		if m.Values != nil {
			out = append(out, m)
			kept = append(kept, name)
		}
	}
	return out, kept
}
