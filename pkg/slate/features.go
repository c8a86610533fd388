package slate

import (
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// FeatureNames lists the ranker's features in the order of a feature vector.
// Every feature is cheap: it reuses scores computed once per request.
var FeatureNames = []string{
	"bm25",            // unit BM25 / best unit BM25
	"bm25_rank",       // 10 / (10 + BM25 rank); 0 when no query term matches
	"dense",           // cosine of SIF sentence vectors
	"dense_rank",      // 10 / (10 + dense rank)
	"fused_rank",      // 10 / (10 + rank in the fused pool)
	"hop2_rank",       // 10 / (10 + rank for the query expanded from the first hop's best units)
	"session_bm25",    // BM25 of the whole session / best session
	"session_rank",    // 1 / (1 + session BM25 rank)
	"neighbour_bm25",  // best BM25 of the previous and next turn / best unit BM25
	"neighbour_dense", // best dense cosine of the previous and next turn
	"speaker_named",   // the unit's speaker is named in the question
	"other_named",     // only another speaker is named in the question
	"maxsim",          // word alignment: mean over query words of the best cosine with a unit word
	"key_overlap",     // fraction of key terms (numbers, names, rare terms) in the unit
	"coverage",        // fraction of the query's IDF mass in the unit
	"temporal_time",   // temporal question × the unit mentions a time
	"time_words",      // the unit mentions a time
	"recency",         // the session's position in time, 0 oldest to 1 newest
	"recent_cue",      // recency × the question asks about the current state
	"length",          // unit tokens / 64, at most 2
	"maxsim_rank",     // 10 / (10 + rank by word alignment)
	"first_person",    // the unit speaks of its speaker (I, my, me, we, our)
	"own_statement",   // speaker_named × first_person
	"is_question",     // the unit ends with a question mark
	"window_bm25",     // (BM25 of the unit + half that of each neighbour) / best unit BM25
	"session_dense",   // cosine of the query with the session's mean unit vector
	"session_maxsim",  // best word alignment in the unit's session
	"list_question",   // the question asks for several things
	"list_speaker",    // list_question × speaker_named
	"list_maxsim",     // list_question × maxsim
	"list_own",        // list_question × own_statement
	"list_session",    // list_question × session_bm25
	"prev_bm25",       // best BM25 of the two turns before / best unit BM25
	"next_bm25",       // best BM25 of the two turns after / best unit BM25
	"prev_fused",      // best 10 / (10 + fused rank) of the two turns before
	"date_match",      // the question names a month or year that is the session's
	"next_fused",      // best 10 / (10 + fused rank) of the two turns after
	"prev_question",   // prev_fused of a turn before that asks a question
	"opening",         // the unit is one of the first two turns of its session (where news is told)
	"both_named",      // two or more speakers are named in the question
	"expand_rank",     // 10 / (10 + BM25 rank for the query expanded with word-vector neighbours)
}

// FeatureGroups groups features for the ablation (as in AgentMemRec's Table 4).
var FeatureGroups = map[string][]string{
	"retrieval": {"bm25", "bm25_rank", "dense", "dense_rank", "fused_rank", "hop2_rank", "expand_rank"},
	"context":   {"session_bm25", "session_rank", "neighbour_bm25", "neighbour_dense", "window_bm25", "session_dense", "prev_bm25", "next_bm25", "prev_fused", "next_fused", "prev_question"},
	"speaker":   {"speaker_named", "other_named", "own_statement", "both_named"},
	"alignment": {"maxsim", "maxsim_rank", "session_maxsim"},
	"key":       {"key_overlap", "coverage"},
	"temporal":  {"temporal_time", "time_words", "recency", "recent_cue", "date_match"},
	"shape":     {"length", "first_person", "is_question", "opening"},
	"type":      {"list_question", "list_speaker", "list_maxsim", "list_own", "list_session"},
}

// candidate is one unit of the pool with its features.
type candidate struct {
	e       *entry
	fused   int  // rank in the fused list (0 best)
	context bool // not retrieved: added as the neighbour of a retrieved unit
	x       []float64
	score   float64
	parts   []float64 // an ensemble's part scores
}

// retrieval holds the per-request scores of every unit.
type retrieval struct {
	q          *query
	bm25       map[int]float64 // entry key -> score
	bm25Rank   map[int]int
	maxBM25    float64
	dense      map[int]float64
	denseRank  map[int]int
	hop2Rank   map[int]int
	sess       map[int]float64 // session key -> score
	sessRank   map[int]int
	maxSess    float64
	fused      []*entry // best first
	sessPos    map[int]float64
	maxsim     map[int]float64
	maxsimRank map[int]int
	fusedRank  map[int]int
	expandRank map[int]int
	sessDense  map[int]float64
	sessMaxsim map[int]float64
}

// Fusion constants: the k of reciprocal rank fusion (Cormack, Clarke and
// Büttcher, SIGIR 2009) and how many first-hop units expand the second hop.
const (
	rrfK          = 60
	hopUnits      = 3
	hopTerms      = 12
	hopWeight     = 0.5
	contextTop    = 32
	expandWeight  = 0.5
	expandK       = 5
	expandCos     = 0.55
	contextSpan   = 2
	speakerWeight = 1.0
)

// retrieve scores every unit for q. With full false it computes only BM25,
// dense and their reciprocal rank fusion (the baselines' needs); with full
// true also every list and session score the learned ranker's pool and
// features use.
func (s *Store) retrieve(q *query, full bool) *retrieval {
	r := &retrieval{q: q, bm25: map[int]float64{}, bm25Rank: map[int]int{}, dense: map[int]float64{},
		denseRank: map[int]int{}, hop2Rank: map[int]int{}, sess: map[int]float64{}, sessRank: map[int]int{}, sessPos: map[int]float64{}}
	hits := s.units.Score(q.terms)
	for i, h := range hits {
		r.bm25[h.Doc] = h.Score
		r.bm25Rank[h.Doc] = i
	}
	if len(hits) > 0 {
		r.maxBM25 = hits[0].Score
	}
	qv := s.table.Sentence(q.content)
	dense := make([]*entry, len(s.entries))
	copy(dense, s.entries)
	for _, e := range s.entries {
		r.dense[e.key] = vector.Dot(qv, e.vec)
	}
	sort.SliceStable(dense, func(i, j int) bool { return r.dense[dense[i].key] > r.dense[dense[j].key] })
	for i, e := range dense {
		r.denseRank[e.key] = i
	}
	for i, h := range s.sessIx.Score(q.terms) {
		r.sess[h.Doc] = h.Score
		r.sessRank[h.Doc] = i
		if i == 0 {
			r.maxSess = h.Score
		}
	}
	// First hop: reciprocal rank fusion of BM25 and dense.
	fused := map[int]float64{}
	for _, h := range hits {
		fused[h.Doc] += 1.0 / float64(rrfK+r.bm25Rank[h.Doc]+1)
	}
	for i, e := range dense {
		fused[e.key] += 1.0 / float64(rrfK+i+1)
	}
	if !full {
		r.fused = rankKeys(s.entries, fused)
		return r
	}
	// Word alignment over every unit, as a third list; with a speaker named
	// in the question, that speaker's units ranked by alignment as a fourth.
	qvecs, qw := s.queryWordVectors(q)
	r.maxsim = map[int]float64{}
	for _, e := range s.entries {
		r.maxsim[e.key] = vector.MaxSim(qvecs, e.vecs, qw)
	}
	r.maxsimRank = map[int]int{}
	for i, e := range rankKeys(s.entries, r.maxsim) {
		fused[e.key] += 1.0 / float64(rrfK+i+1)
		r.maxsimRank[e.key] = i
	}
	r.sessDense = map[int]float64{}
	r.sessMaxsim = map[int]float64{}
	for _, ss := range s.sess {
		acc := make([]float64, s.table.Dim())
		best := 0.0
		for _, e := range ss.entries {
			for j, v := range e.vec {
				acc[j] += float64(v)
			}
			best = max(best, r.maxsim[e.key])
		}
		r.sessDense[ss.key] = vector.Dot(qv, vector.Normalize(acc))
		r.sessMaxsim[ss.key] = best
	}
	if named := r.q.named(s.speakers()); len(named) > 0 {
		var own []*entry
		for _, e := range s.entries {
			if named[e.u.Speaker] {
				own = append(own, e)
			}
		}
		for i, e := range rankKeys(own, r.maxsim) {
			fused[e.key] += speakerWeight / float64(rrfK+i+1)
		}
	}
	// Word-vector expansion: each query word's nearest table words.
	r.expandRank = map[int]int{}
	if exp := s.neighbourExpansion(q); len(exp) > len(q.terms) {
		for i, h := range s.units.Score(exp) {
			r.expandRank[h.Doc] = i
			fused[h.Doc] += expandWeight / float64(rrfK+i+1)
		}
	}
	first := rankKeys(s.entries, fused)
	// Second hop: the query expanded with the rarest terms of the first hop's
	// best units, fused in with a lower weight.
	if exp := s.expand(q, first); len(exp) > 0 {
		for i, h := range s.units.Score(exp) {
			r.hop2Rank[h.Doc] = i
			fused[h.Doc] += hopWeight / float64(rrfK+i+1)
		}
	}
	r.fused = rankKeys(s.entries, fused)
	r.fusedRank = make(map[int]int, len(r.fused))
	for i, e := range r.fused {
		r.fusedRank[e.key] = i
	}
	// Session positions in time.
	type st struct {
		key  int
		time int64
		ord  int
	}
	var ss []st
	for _, e := range s.entries {
		if e.s.entries[0] == e {
			ss = append(ss, st{e.s.key, e.time, len(ss)})
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].time < ss[j].time })
	for i, x := range ss {
		if len(ss) > 1 {
			r.sessPos[x.key] = float64(i) / float64(len(ss)-1)
		} else {
			r.sessPos[x.key] = 1
		}
	}
	return r
}

// rankKeys sorts entries by score, best first, ties in insertion order.
func rankKeys(es []*entry, score map[int]float64) []*entry {
	out := make([]*entry, len(es))
	copy(out, es)
	sort.SliceStable(out, func(i, j int) bool { return score[out[i].key] > score[out[j].key] })
	return out
}

// expand returns the query's terms plus the hopTerms terms of highest IDF
// among the first hop's hopUnits best units that the query lacks.
func (s *Store) expand(q *query, first []*entry) []string {
	have := map[string]bool{}
	for _, t := range q.terms {
		have[t] = true
	}
	type tw struct {
		t   string
		idf float64
	}
	var cand []tw
	for i := 0; i < hopUnits && i < len(first); i++ {
		for _, t := range first[i].terms {
			if !have[t] {
				have[t] = true
				cand = append(cand, tw{t, s.units.IDF(t)})
			}
		}
	}
	if len(cand) == 0 {
		return nil
	}
	sort.SliceStable(cand, func(i, j int) bool { return cand[i].idf > cand[j].idf })
	out := append([]string(nil), q.terms...)
	for i := 0; i < hopTerms && i < len(cand); i++ {
		out = append(out, cand[i].t)
	}
	return out
}

// pool returns the first n units of the fused list, plus the neighbours of the
// contextTop best as context candidates, with their features.
func (s *Store) pool(r *retrieval, n int, speakers []string, withFeatures bool) []*candidate {
	var out []*candidate
	in := map[*entry]bool{}
	for i, e := range r.fused {
		if i >= n {
			break
		}
		out = append(out, &candidate{e: e, fused: i})
		in[e] = true
	}
	for i := 0; i < contextTop && i < len(out); i++ {
		for _, x := range out[i].e.around(contextSpan) {
			if x != nil && !in[x] {
				in[x] = true
				out = append(out, &candidate{e: x, fused: n, context: true})
			}
		}
	}
	if !withFeatures {
		return out
	}
	named := r.q.named(speakers)
	for _, c := range out {
		c.x = s.features(r, c, named)
	}
	return out
}

func (s *Store) queryWordVectors(q *query) ([][]float32, []float64) {
	var vs [][]float32
	var ws []float64
	for _, w := range q.content {
		v, _ := s.table.Word(w)
		vs = append(vs, v)
		ws = append(ws, s.units.IDF(text.Stem(w))+0.1)
	}
	return vs, ws
}

func rr(rank map[int]int, key int, k float64) float64 {
	i, ok := rank[key]
	if !ok {
		return 0
	}
	return k / (k + float64(i))
}

var firstPerson = wordSet("i my me mine myself we our us ours")

// named returns the speakers named in the question.
func (q *query) named(speakers []string) map[string]bool {
	named := map[string]bool{}
	for _, sp := range speakers {
		for _, w := range text.Words(sp) {
			for _, qw := range q.words {
				if qw == w {
					named[sp] = true
				}
			}
		}
	}
	return named
}

func (s *Store) features(r *retrieval, c *candidate, named map[string]bool) []float64 {
	e := c.e
	x := make([]float64, len(FeatureNames))
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	x[0] = div(r.bm25[e.key], r.maxBM25)
	x[1] = rr(r.bm25Rank, e.key, 10)
	x[2] = r.dense[e.key]
	x[3] = rr(r.denseRank, e.key, 10)
	x[4] = 10 / (10 + float64(c.fused))
	x[5] = rr(r.hop2Rank, e.key, 10)
	x[6] = div(r.sess[e.s.key], r.maxSess)
	x[7] = rr(r.sessRank, e.s.key, 1)
	p, nx := e.neighbours()
	for _, o := range []*entry{p, nx} {
		if o == nil {
			continue
		}
		x[8] = max(x[8], div(r.bm25[o.key], r.maxBM25))
		x[9] = max(x[9], r.dense[o.key])
	}
	if named[e.u.Speaker] {
		x[10] = 1
	} else if len(named) > 0 {
		x[11] = 1
	}
	x[12] = r.maxsim[e.key]
	has := map[string]bool{}
	for _, t := range e.terms {
		has[t] = true
	}
	if len(r.q.keys) > 0 {
		k := 0
		for _, t := range r.q.keys {
			if has[t] {
				k++
			}
		}
		x[13] = float64(k) / float64(len(r.q.keys))
	}
	var got, all float64
	for _, t := range r.q.terms {
		idf := s.units.IDF(t)
		all += idf
		if has[t] {
			got += idf
		}
	}
	x[14] = div(got, all)
	tw := e.timeWord
	if tw {
		x[16] = 1
		if r.q.temporal {
			x[15] = 1
		}
	}
	x[17] = r.sessPos[e.s.key]
	if r.q.recent {
		x[18] = x[17]
	}
	x[19] = min(float64(e.tokens)/64, 2)
	x[20] = rr(r.maxsimRank, e.key, 10)
	if e.firstPerson {
		x[21] = 1
	}
	x[22] = x[21] * x[10]
	if e.question {
		x[23] = 1
	}
	win := r.bm25[e.key]
	for _, o := range []*entry{p, nx} {
		if o != nil {
			win += 0.5 * r.bm25[o.key]
		}
	}
	x[24] = div(win, r.maxBM25)
	x[25] = r.sessDense[e.s.key]
	x[26] = r.sessMaxsim[e.s.key]
	for d, o := range e.around(2) {
		if o == nil {
			continue
		}
		f := rr(r.fusedRank, o.key, 10)
		if d < 2 {
			x[32] = max(x[32], div(r.bm25[o.key], r.maxBM25))
			x[34] = max(x[34], f)
			if strings.Contains(o.u.Text, "?") {
				x[37] = max(x[37], f)
			}
		} else {
			x[33] = max(x[33], div(r.bm25[o.key], r.maxBM25))
			x[36] = max(x[36], f)
		}
	}
	x[35] = r.q.dateMatch(e.time)
	if es := e.s.entries; es[0] == e || (len(es) > 1 && es[1] == e) {
		x[38] = 1
	}
	x[40] = rr(r.expandRank, e.key, 10)
	if len(named) > 1 {
		x[39] = 1
	}
	if r.q.list {
		x[27], x[28], x[29], x[30], x[31] = 1, x[10], x[12], x[22], x[6]
	}
	return x
}

// neighbourExpansion returns the query's terms plus the stems of the expandK
// nearest table words (cosine at least expandCos) of each query word. It
// scans the whole table, O(table · dim) per query word: restricting the scan
// to the store's own words was 2.5 times faster but cost about a point of
// r_slate (docs/slate.md).
func (s *Store) neighbourExpansion(q *query) []string {
	out := append([]string(nil), q.terms...)
	have := map[string]bool{}
	for _, t := range q.terms {
		have[t] = true
	}
	for _, w := range q.content {
		for _, n := range s.table.Neighbours(w, expandK, expandCos) {
			if text.IsStopword(n) {
				continue
			}
			if t := text.Stem(n); !have[t] {
				have[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
