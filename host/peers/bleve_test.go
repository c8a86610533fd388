// Package peers_test measures the libraries a user would pick instead of
// recmem, on the same memories and queries and with the same greedy slate
// fill, so that speed and slate completeness can be read side by side with
// `recmem bench`. The package holds test files only: bleve is a test
// dependency, and neither the plugin nor the CLI links it.
//
// The bleve peer is an in-memory scorch index (bleve v2) of each unit's text,
// analysed by bleve's "en" analyzer and scored by BM25 (k1 = 1.2, b = 0.75,
// bleve's defaults). A query is a match query on the text (terms ORed); its
// best 128 hits, recmem's default pool, are filled greedily under the budget.
package peers_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recmem/recmem/pkg/slate"
)

// bleveVersion is the module version in go.mod, reported with the figures.
const bleveVersion = "v2.6.3"

// hits is how many ranked units a query asks bleve for: recmem's default
// candidate pool (slate.DefaultPool).
const hits = slate.DefaultPool

// blevePeer is one memory indexed by bleve, with each unit's token count.
type blevePeer struct {
	idx    bleve.Index
	tokens map[string]int // unit ID → slate.Unit.Tokens()
	seq    map[string]int // unit ID → insertion order
}

// doc is what bleve indexes for a unit: its text, under the field "text".
type doc struct {
	Text string `json:"text"`
}

// newBlevePeer indexes units in one batch (one in-memory segment, bleve's
// fastest layout for search). Unit IDs must be unique.
//
// BM25 is enabled by the index mapping's ScoringModel ("bm25"). It needs the
// scorch index type: bleve.NewMemOnly builds an upsidedown index, whose reader
// has no field cardinality, and bleve then silently scores with TF-IDF. A
// scorch index with an empty path is held in memory.
func newBlevePeer(units []slate.Unit) (*blevePeer, error) {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = false
	text.IncludeInAll = false
	text.IncludeTermVectors = false
	text.DocValues = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("text", text)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = en.AnalyzerName
	im.ScoringModel = index.BM25Scoring
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("peers: bleve: %w", err)
	}
	p := &blevePeer{idx: idx, tokens: make(map[string]int, len(units)), seq: make(map[string]int, len(units))}
	b := idx.NewBatch()
	for i, u := range units {
		if _, dup := p.tokens[u.ID]; dup {
			idx.Close()
			return nil, fmt.Errorf("peers: duplicate unit id %q", u.ID)
		}
		p.tokens[u.ID] = u.Tokens()
		p.seq[u.ID] = i
		if err := b.Index(u.ID, doc{Text: u.Text}); err != nil {
			idx.Close()
			return nil, fmt.Errorf("peers: bleve: %s: %w", u.ID, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		idx.Close()
		return nil, fmt.Errorf("peers: bleve: %w", err)
	}
	return p, nil
}

func (p *blevePeer) Close() error { return p.idx.Close() }

// rank returns the IDs of the best n units for query, best first, equal
// scores in insertion order as recmem orders them. bleve breaks ties by its
// internal document number, which within a batch follows Go's random map
// order (Batch.IndexOps is a map), so without this two indexes of the same
// units rank ties differently. Ties across the n-th hit remain bleve's.
// Cost: bleve's search plus O(n) and a sort of each run of equal scores.
func (p *blevePeer) rank(query string, n int) ([]string, error) {
	q := bleve.NewMatchQuery(query)
	q.SetField("text")
	res, err := p.idx.Search(bleve.NewSearchRequestOptions(q, n, 0, false))
	if err != nil {
		return nil, fmt.Errorf("peers: bleve: %w", err)
	}
	hs := res.Hits
	for i := 0; i < len(hs); {
		j := i + 1
		for j < len(hs) && hs[j].Score == hs[i].Score {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(hs[i:j], func(a, b *search.DocumentMatch) int { return p.seq[a.ID] - p.seq[b.ID] })
		}
		i = j
	}
	ids := make([]string, len(hs))
	for i, h := range hs {
		ids[i] = h.ID
	}
	return ids, nil
}

// selectSlate ranks the units for query and fills a slate of at most budget
// tokens: the peer's whole per-request work.
func (p *blevePeer) selectSlate(query string, budget int) ([]string, int, []string, error) {
	ranked, err := p.rank(query, hits)
	if err != nil {
		return nil, 0, nil, err
	}
	ids, used := fill(ranked, p.tokens, budget)
	return ids, used, ranked, nil
}

// explainTop returns the explanation of the best hit for query, or "" when
// nothing matches.
func (p *blevePeer) explainTop(query string) (string, error) {
	q := bleve.NewMatchQuery(query)
	q.SetField("text")
	res, err := p.idx.Search(bleve.NewSearchRequestOptions(q, 1, 0, true))
	if err != nil {
		return "", err
	}
	if len(res.Hits) == 0 {
		return "", nil
	}
	return res.Hits[0].Expl.String(), nil
}

// fill is recmem's greedy slate fill (pkg/slate, Store.Select and Fill):
// walk the units in rank order and take each one whose tokens fit in what is
// left of the budget, skipping (not stopping at) one that does not. It
// returns the chosen IDs in rank order and the tokens used. recmem then
// prints the slate in chronological order, which changes neither the set
// nor the tokens. Cost: O(len(ranked)).
func fill(ranked []string, tokens map[string]int, budget int) ([]string, int) {
	var ids []string
	used := 0
	for _, id := range ranked {
		t := tokens[id]
		if used+t > budget {
			continue
		}
		used += t
		ids = append(ids, id)
	}
	return ids, used
}

// unitsOf converts workload units (add_units maps) to slate units.
func unitsOf(ms []map[string]string) []slate.Unit {
	us := make([]slate.Unit, len(ms))
	for i, m := range ms {
		us[i] = slate.Unit{ID: m["id"], Session: m["session"], Date: m["date"], Time: m["time"], Speaker: m["speaker"], Text: m["text"]}
	}
	return us
}

// words splits s into lower-case runs of letters, for choosing test queries.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' })
}
