package slate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/topk"
)

// Defaults of a Request.
const (
	DefaultBudget = 1000
	DefaultPool   = 128
	MaxPool       = 4096
	// MaxQueryBytes bounds a question: retrieval compares each distinct
	// word of it with the store's vocabulary, so a question's cost grows
	// with its length (about 60 ms natively for 4,000 bytes against 1,700
	// LoCoMo turns, against 2 ms for a usual question).
	MaxQueryBytes = 4000
)

// Rankers that Select knows. "learned" is the default; the others are the
// baselines of `recmem eval slate`, computed by the same code.
var Rankers = []string{"learned", "recency", "bm25", "dense", "rrf", "adaptive_k"}

// Request asks for one slate.
type Request struct {
	Query    string `json:"query"`
	Date     string `json:"date,omitempty"`   // the request date, RFC 3339 or YYYY-MM-DD
	Budget   int    `json:"budget,omitempty"` // tokens (default 1000)
	Pool     int    `json:"pool,omitempty"`   // retrieved candidates (default 128)
	Ranker   string `json:"ranker,omitempty"` // see Rankers (default "learned")
	Model    *Model `json:"model,omitempty"`  // replaces the embedded model
	WithPool bool   `json:"with_pool,omitempty"`
	// Explain, when false, leaves the chosen units' matched words, why,
	// features, contributions and part scores out (the rank, score, reason
	// and hop stay): an agent that only reads the slate saves about a
	// quarter of a selection inside WebAssembly. Default (nil) true.
	Explain *bool `json:"explain,omitempty"`
}

// Validate checks the request, naming the field at fault.
func (r *Request) Validate() error {
	switch {
	case strings.TrimSpace(r.Query) == "":
		return errors.New("query: missing")
	case len(r.Query) > MaxQueryBytes:
		return fmt.Errorf("query: %d bytes, more than the limit of %d", len(r.Query), MaxQueryBytes)
	case r.Budget < 0:
		return fmt.Errorf("budget: must not be negative, got %d", r.Budget)
	case r.Pool < 0 || r.Pool > MaxPool:
		return fmt.Errorf("pool: must be in [0,%d], got %d", MaxPool, r.Pool)
	}
	if r.Date != "" {
		if _, err := ParseTime(r.Date); err != nil {
			return fmt.Errorf("date: %w", err)
		}
	}
	known := false
	for _, k := range Rankers {
		known = known || r.Ranker == k
	}
	if r.Ranker != "" && !known {
		return fmt.Errorf("ranker: want one of %s, got %q", strings.Join(Rankers, ", "), r.Ranker)
	}
	if r.Model != nil {
		if err := r.Model.Validate(); err != nil {
			return fmt.Errorf("model.%w", err)
		}
	}
	return nil
}

// Chosen is one unit of the slate with the reason it is there.
type Chosen struct {
	ID      string  `json:"id"`
	Session string  `json:"session"`
	Line    string  `json:"line"`   // the rendered unit, "[date] speaker: text"
	Tokens  int     `json:"tokens"` // ceil(characters of Line / 4)
	Rank    int     `json:"rank"`   // 1 is the ranker's best
	Score   float64 `json:"score"`  // the ranker's score (rounded to 1e-6)
	Reason  string  `json:"reason"` // "retrieved" or "context" (a neighbour of a retrieved unit)
	// Hop is how the learned ranker's pool took the unit in: "first" (the
	// fused lists' head), "context" (a turn near one of the best), "session"
	// (three or four turns from one of the best), "feedback" (the question
	// plus the best units' words) or "near" (words close in meaning to the
	// question's); empty for a baseline.
	Hop string `json:"hop,omitempty"`
	// Matched are the question's words the unit holds; Why says in words
	// why the unit is in the slate (its rank, those words, its hop, the
	// speaker, its date and what a relative date in it points to). Both are
	// left out with explain false.
	Matched  []string `json:"matched,omitempty"`
	Why      string   `json:"why,omitempty"`
	Features Values   `json:"features,omitempty"`
	// Contributions are each feature's term of a linear model's score
	// (weight · standardized value; score = bias + their sum), or of the
	// linear part of an ensemble. A baseline ranker's score is one signal,
	// and its one term is named for the ranker: bm25 (the unit's BM25),
	// dense (its cosine), rrf (minus its position in the fused list, 0
	// best), recency (its place counted from the oldest unit, 1 oldest),
	// adaptive_k (its cosine, among the units above the largest gap).
	Contributions Values `json:"contributions,omitempty"`
	// PartScores are an ensemble's part scores (linear, then trees); the
	// ensemble's score sums 1 / (10 + the unit's rank by each part).
	PartScores []float64 `json:"part_scores,omitempty"`
}

// Result is a slate: units in chronological order, within the budget.
type Result struct {
	Ranker  string   `json:"ranker"`
	Budget  int      `json:"budget"`
	Tokens  int      `json:"tokens"`
	Pool    int      `json:"pool"` // candidates ranked (retrieved plus context)
	Units   []Chosen `json:"units"`
	PoolIDs []string `json:"pool_ids,omitempty"`
}

// Select builds the slate for req; a speaker of the store's units is named
// when a word of the question is a word of the speaker's name. It only reads
// the store. Cost: O(postings of the query terms + units · dim + vocabulary ·
// query words · dim + words of all units · query words) to retrieve, each
// ranked list O(units + d log d) for its depth d (rankDepth), O(pool · (query
// terms · unit terms + trees)) for features and the ranker, O(pool log pool)
// to fill.
func (s *Store) Select(req Request) (*Result, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	budget, n := req.Budget, req.Pool
	if budget == 0 {
		budget = DefaultBudget
	}
	if n == 0 {
		n = DefaultPool
	}
	ranker := req.Ranker
	if ranker == "" {
		ranker = "learned"
	}
	m := req.Model
	if m == nil && ranker == "learned" {
		var err error
		if m, err = DefaultModel(); err != nil {
			return nil, err
		}
	}
	var at int64
	if req.Date != "" {
		at, _ = ParseTime(req.Date)
	}
	res := &Result{Ranker: ranker, Budget: budget, Units: []Chosen{}}
	if len(s.entries) == 0 {
		return res, nil
	}
	q := analyse(s, req.Query, at)
	s.timer.Mark("analyse")
	r := s.retrieve(q, ranker == "learned", n)
	cands := s.pool(r, n, ranker == "learned")
	res.Pool = len(cands)
	if req.WithPool {
		res.PoolIDs = make([]string, len(cands))
		for i, c := range cands {
			res.PoolIDs[i] = c.e.u.ID
		}
	}
	explain := req.Explain == nil || *req.Explain
	var lin *Model
	switch ranker {
	case "learned":
		xs := make([][]float64, len(cands))
		keys := make([]int, len(cands))
		for i, c := range cands {
			xs[i], keys[i] = c.x, c.e.key
		}
		total, parts := m.scoreParts(xs, keys)
		flat := make([]float64, len(parts)*len(cands))
		for i, v := range total {
			cands[i].score = v
			if len(parts) > 0 {
				cands[i].parts = flat[i*len(parts) : (i+1)*len(parts) : (i+1)*len(parts)]
				for p := range parts {
					cands[i].parts[p] = parts[p][i]
				}
			}
		}
		s.timer.Mark("model")
		lin = m
		for p := range m.Parts {
			if m.Parts[p].Kind == "linear" {
				lin = &m.Parts[p]
			}
		}
	case "rrf":
		for _, c := range cands {
			c.score = -float64(c.fused)
		}
		cands = retrieved(cands)
	case "bm25":
		// A unit holding a query term scores above 0 (every IDF is positive).
		cands = s.allScored(func(e *entry) (float64, bool) { return r.bm25[e.pos], r.bm25[e.pos] > 0 })
	case "dense":
		cands = s.allScored(func(e *entry) (float64, bool) { return r.dense[e.pos], true })
	case "recency":
		cands = s.byRecency()
	case "adaptive_k":
		cands = adaptiveK(s.allScored(func(e *entry) (float64, bool) { return r.dense[e.pos], true }), n)
	}
	cands = byScore(cands)
	type pick struct {
		c    *candidate
		rank int
	}
	tokens := make([]int, len(cands))
	for i, c := range cands {
		tokens[i] = c.e.tokens
	}
	taken, used := greedy(tokens, func(i int) uint64 { return lineKey(cands[i].e) }, budget)
	res.Tokens = used
	picks := make([]pick, len(taken))
	for k, i := range taken {
		picks[k] = pick{cands[i], i + 1}
	}
	// Chronological order: by time, then insertion.
	slices.SortStableFunc(picks, func(a, b pick) int {
		if c := cmp.Compare(a.c.e.time, b.c.e.time); c != 0 {
			return c
		}
		return cmp.Compare(a.c.e.key, b.c.e.key)
	})
	s.timer.Mark("fill")
	res.Units = make([]Chosen, len(picks))
	for k, p := range picks {
		c := p.c
		ch := &res.Units[k]
		*ch = Chosen{ID: c.e.u.ID, Session: c.e.u.Session, Line: s.render(c.e), Tokens: c.e.tokens, Rank: p.rank,
			Score: round6(c.score), Reason: "retrieved"}
		if c.context {
			ch.Reason = "context"
		}
		if ranker == "learned" {
			ch.Hop = hopNames[c.hop]
		}
		if !explain {
			continue
		}
		ch.Matched = s.matched(q, c.e)
		if lin == nil {
			ch.Why = s.why(r, c, p.rank, len(cands), ch.Matched, ranker, nil)
			// A baseline's score is its one signal.
			ch.Contributions = Values{{Name: ranker, Value: ch.Score}}
			continue
		}
		ch.Features = make(Values, len(sortedFeatureNames))
		for i, j := range sortedFeatureIdx {
			ch.Features[i] = Value{sortedFeatureNames[i], round6(c.x[j]), int16(j + 1)}
		}
		if lin.Kind == "linear" {
			ch.Contributions = make(Values, len(lin.byName))
			for k, i := range lin.byName {
				j := lin.idx[i]
				ch.Contributions[k] = Value{lin.Features[i], round6(lin.Weights[i] * (c.x[j] - lin.Mean[i]) / lin.Scale[i]), int16(j + 1)}
			}
		}
		if len(c.parts) > 0 {
			ch.PartScores = make([]float64, len(c.parts))
			for i, v := range c.parts {
				ch.PartScores[i] = round6(v)
			}
		}
		ch.Why = s.why(r, c, p.rank, len(cands), ch.Matched, ranker, ch.Contributions)
	}
	s.timer.Mark("explain")
	return res, nil
}

// byScore orders candidates by score, best first, ties by insertion (the
// entries' keys): topk.Floats, whose comparisons are integer, not function
// calls. Scores are never NaN. O(candidates).
func byScore(cs []*candidate) []*candidate {
	scores := make([]float64, len(cs))
	keys := make([]int32, len(cs))
	for i, c := range cs {
		scores[i], keys[i] = c.score, int32(c.e.key)
	}
	out := make([]*candidate, len(cs))
	for i, j := range topk.Floats(scores, keys, len(cs)) {
		out[i] = cs[j]
	}
	return out
}

func retrieved(cs []*candidate) []*candidate {
	out := cs[:0]
	for _, c := range cs {
		if !c.context {
			out = append(out, c)
		}
	}
	return out
}

// allScored ranks every unit with a score by one signal (the single-signal
// baselines), features left empty.
func (s *Store) allScored(f func(*entry) (float64, bool)) []*candidate {
	var out []*candidate
	for _, e := range s.entries {
		if v, ok := f(e); ok {
			out = append(out, &candidate{e: e, score: v})
		}
	}
	return out
}

// byRecency scores the newest unit len(units), the next len-1 and so on (by
// time, then insertion order).
func (s *Store) byRecency() []*candidate {
	es := append([]*entry(nil), s.entries...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].time != es[j].time {
			return es[i].time > es[j].time
		}
		return es[i].key > es[j].key
	})
	out := make([]*candidate, len(es))
	for i, e := range es {
		out[i] = &candidate{e: e, score: float64(len(es) - i)}
	}
	return out
}

// adaptiveK keeps the candidates above the largest gap between consecutive
// scores among the n best (Taguchi et al., 2025, "adaptive-k" retrieval).
func adaptiveK(cs []*candidate, n int) []*candidate {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	if len(cs) > n {
		cs = cs[:n]
	}
	k, best := len(cs), -1.0
	for i := 0; i+1 < len(cs); i++ {
		if g := cs[i].score - cs[i+1].score; g > best {
			best, k = g, i+1
		}
	}
	return cs[:k]
}

// round6 is x rounded to six decimals (math.Round(x·1e6)/1e6), 0 for a NaN
// or an infinity, and never -0 (a value that rounds to zero from below is
// written "0"). It rounds with math.Trunc, which WebAssembly has as one
// instruction, and the half-away step picked without a branch, so that it
// inlines: a call costs more than the rounding inside Go's WebAssembly.
// y - Trunc(y) is exact, so the result is math.Round's, bit for bit.
func round6(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return 0
	}
	y := x * 1e6
	t := math.Trunc(y)
	return (t+math.Copysign(float64(b2i(math.Abs(y-t) >= 0.5)), y))/1e6 + 0
}
