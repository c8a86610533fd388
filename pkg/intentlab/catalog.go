package intentlab

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"

	"github.com/recmem/recmem/pkg/engine"
)

// PageCandidates is how many candidates the page ranks: the most popular
// items the user has not acted on, at most this many.
const PageCandidates = 1000

// Item is one catalog item as the cases judge it: its id, its metadata by
// field name (the demo catalog's title, platform, kind, format and series; a
// field the item lacks is "") and its popularity.
type Item struct {
	ID     string
	Fields map[string]string
	Pop    int
}

// RankerSpec is web/catalog/games-ranker.json: how the page turns the demo
// catalog into the ranker's catalog (its metadata columns and the weights).
type RankerSpec struct {
	Comment   string   `json:"comment"`
	MetaNames []string `json:"meta_names"`
	// Facets types the columns (list, number, inferred), as the catalog's
	// JSON form declares them.
	Facets  json.RawMessage            `json:"facets,omitempty"`
	Weights map[string]json.RawMessage `json:"weights"`
}

// Catalog is what a run ranks over: the items, the page's ranker spec, the
// interpreter's table for the domain (web/catalog/games-intent.json) and the
// data set name the catalog carries; or, for a catalog asset (binary from
// `recmem train catalog`, or its JSON form), the items read from it and the
// asset's bytes (Raw), which load_catalog reads as they are.
type Catalog struct {
	Items   []Item
	Spec    RankerSpec
	Intent  json.RawMessage
	Dataset string
	Raw     []byte
}

// Asset says whether c is a catalog asset rather than the page's catalog:
// its candidates are then drawn from it (SampleCandidates), not the page's.
func (c Catalog) Asset() bool { return c.Raw != nil }

// JSON is the catalog load_catalog reads, built as the page builds it
// (web/app/games.js): each item's values of the spec's metadata columns and
// its popularity, the spec's weights and the intent table.
// O(items · columns).
func (c Catalog) JSON() ([]byte, error) {
	type item struct {
		ID   string   `json:"id"`
		Meta []string `json:"meta"`
		Pop  int      `json:"pop"`
	}
	out := struct {
		Format    string                     `json:"format"`
		Version   int                        `json:"version"`
		Dataset   string                     `json:"dataset"`
		MetaNames []string                   `json:"meta_names"`
		Facets    json.RawMessage            `json:"facets,omitempty"`
		Dim       int                        `json:"dim"`
		Items     []item                     `json:"items"`
		Weights   map[string]json.RawMessage `json:"weights"`
		Intent    json.RawMessage            `json:"intent,omitempty"`
	}{Format: "recmem.catalog", Version: 1, Dataset: c.Dataset, MetaNames: c.Spec.MetaNames, Facets: c.Spec.Facets, Weights: c.Spec.Weights, Intent: c.Intent}
	for _, it := range c.Items {
		m := make([]string, len(c.Spec.MetaNames))
		for k, n := range c.Spec.MetaNames {
			m[k] = it.Fields[n]
		}
		out.Items = append(out.Items, item{ID: it.ID, Meta: m, Pop: it.Pop})
	}
	return json.Marshal(out)
}

// load builds c (or takes an asset's bytes) and loads it into the engine
// behind x.
func (c Catalog) load(x engine.Caller) error {
	b := c.Raw
	if b == nil {
		var err error
		if b, err = c.JSON(); err != nil {
			return fmt.Errorf("intentlab: catalog: %w", err)
		}
	}
	_, err := engine.LoadCatalog.Call(x, engine.Raw(b))
	return err
}

// popular returns a copy of items, the most popular first; ties in id order
// (a shorter id first, as numbers order). O(n log n).
func popular(items []Item) []Item {
	order := make([]Item, len(items))
	copy(order, items)
	sort.SliceStable(order, func(a, b int) bool {
		if order[a].Pop != order[b].Pop {
			return order[a].Pop > order[b].Pop
		}
		return idLess(order[a].ID, order[b].ID)
	})
	return order
}

// idLess orders ids as numbers when they are digits: by length, then
// bytes.
func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// candidates are the first limit items of order that skip does not hold
// (the page's: PageCandidates of the most popular first). O(len(order)).
func candidates(order []Item, skip map[string]bool, limit int) []engine.RankCandidate {
	var out []engine.RankCandidate
	for _, it := range order {
		if len(out) == limit {
			break
		}
		if !skip[it.ID] {
			out = append(out, engine.RankCandidate{ID: it.ID})
		}
	}
	return out
}

// SampleCandidates is the pool a case ranks on a catalog asset: n items of
// order (all of them when n ≥ len(order)), the most popular first as the page
// lists its candidates. With a PCG seeded by (seed, FNV-1a 64 of the case
// id), it first draws up to K of the items that meet the case (meets), so
// that a case about a film the catalog holds once can be answered at all,
// then draws the rest uniformly from the others, each by a partial
// Fisher-Yates shuffle of their positions. A pool depends on the catalog,
// the seed and the case alone, not on which other cases run. O(len(order))
// calls of meets.
func SampleCandidates(order []Item, n int, seed uint64, caseID string, meets func(Item) bool) []Item {
	if n >= len(order) {
		return order
	}
	h := fnv.New64a()
	h.Write([]byte(caseID))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	var yes, no []int
	for i, it := range order {
		if meets(it) {
			yes = append(yes, i)
		} else {
			no = append(no, i)
		}
	}
	draw := func(pos []int, k int) []int {
		k = min(k, len(pos))
		for i := 0; i < k; i++ {
			j := i + r.IntN(len(pos)-i)
			pos[i], pos[j] = pos[j], pos[i]
		}
		return pos[:k]
	}
	pick := draw(yes, min(K, n))
	rest := append(no, yes[len(pick):]...)
	pick = append(pick, draw(rest, n-len(pick))...)
	sort.Ints(pick)
	out := make([]Item, len(pick))
	for i, p := range pick {
		out[i] = order[p]
	}
	return out
}
