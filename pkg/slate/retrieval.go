package slate

// Retrieval: the per-request scores of every unit that the pool and the
// features reuse. BM25 of units and sessions, dense cosines, word alignment,
// a second hop expanded from the first hop's best units, an expansion through
// word-vector neighbours, and their reciprocal rank fusion; then the pool
// (the fused list's head plus the neighbours of its best units as context).

import (
	"math"
	"slices"
	"sort"

	"github.com/recmem/recmem/pkg/lexical"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/topk"
	"github.com/recmem/recmem/pkg/vector"
)

// noRank marks a unit absent from a ranked list.
const noRank = -1

// retrieval holds the per-request scores of every unit, in slices indexed by
// the unit's position in the store (entry.pos) or by the session's position
// (session.pos): no map is touched per unit.
type retrieval struct {
	q          *query
	bm25       []float64 // by unit
	bm25Rank   []int32   // noRank when no query term matches
	maxBM25    float64
	dense      []float64
	denseRank  []int32
	hop2Rank   []int32
	sess       []float64 // by session
	sessRank   []int32
	maxSess    float64
	fused      []*entry  // best first
	sessPos    []float64 // by session
	maxsim     []float64
	maxsimRank []int32
	fusedRank  []int32
	expandRank []int32
	sessDense  []float64 // by session
	sessMaxsim []float64 // by session
	named      []bool    // by speaker id: named in the question
	nNamed     int
	qIDF       []float64 // IDF of each query term
	ownRank    []int32   // by unit: rank in the named speakers' list (nil: none named)
	expand     []float64 // by unit: BM25 of the expanded query (nil: no expansion)
	maxExpand  float64
	// The hops after the first pass (hops.go).
	cos       wordCosines // each distinct query word's cosine with each store word
	feedRank  []int32     // by unit: rank for the question plus the best units' words (nil: none)
	feedTerms []string    // the words the feedback hop added, best first
	nearRank  []int32     // by unit: rank for the store's words nearest the question's (nil: none)
	nearTerms []nearTerm  // the words the near-words hop looked for
	links     linkIndex   // the top units the link features tie candidates to (links.go)
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

// ranks returns n ranks, every unit unranked (noRank).
func ranks(n int) []int32 {
	r := make([]int32, n)
	for i := range r {
		r[i] = noRank
	}
	return r
}

// bm25Hits scores the units for terms and returns every hit's unit position
// and score, the depth best first in order (the rest after them, unordered).
func (s *Store) bm25Hits(terms []string, depth int) ([]int32, []float64) {
	hits := s.units.ScoreTop(terms, depth)
	pos := make([]int32, len(hits))
	sc := make([]float64, len(hits))
	for i, h := range hits {
		pos[i] = int32(s.byKey[h.Doc].pos)
		sc[i] = h.Score
	}
	return pos, sc
}

// retrieve scores every unit for q. With full false it computes only BM25,
// dense and their reciprocal rank fusion (the baselines' needs); with full
// true also every list and session score the learned ranker's pool and
// features use. Cost O(postings of the query terms + units · dim + units ·
// log units + vocabulary · query words · dim + words of all units · query
// words).
func (s *Store) retrieve(q *query, full bool, pool int) *retrieval {
	n := len(s.entries)
	depth := max(rankDepth, pool)
	ns := len(s.sessions)
	r := &retrieval{q: q, bm25: make([]float64, n), bm25Rank: ranks(n), dense: make([]float64, n),
		denseRank: ranks(n), hop2Rank: ranks(n), sess: make([]float64, ns), sessRank: ranks(ns), sessPos: s.sessOrder}
	fused := make([]float64, n)
	hitPos, hitScore := s.bm25Hits(q.terms, depth)
	for i, p := range hitPos {
		r.bm25[p] = hitScore[i]
		if i < depth {
			r.bm25Rank[p] = int32(i)
		}
	}
	if len(hitPos) > 0 {
		r.maxBM25 = hitScore[0]
	}
	s.timer.Mark("bm25")
	qv := s.table.Sentence(q.content)
	s.flat.cosines(r.dense, qv)
	s.timer.Mark("dense")
	denseOrder := rankOrder(r.dense, nil, depth)
	for i, p := range denseOrder {
		r.denseRank[p] = int32(i)
	}
	s.timer.Mark("lists")
	for i, h := range s.sessionHits(q.terms) {
		p := s.sessKey[h.Doc].pos
		r.sess[p] = h.Score
		r.sessRank[p] = int32(i)
		if i == 0 {
			r.maxSess = h.Score
		}
	}
	s.timer.Mark("sessions")
	// First hop: reciprocal rank fusion of BM25 and dense.
	for i, p := range hitPos[:min(depth, len(hitPos))] {
		fused[p] += 1.0 / float64(rrfK+i+1)
	}
	for i, p := range denseOrder {
		fused[p] += 1.0 / float64(rrfK+i+1)
	}
	if !full {
		r.fused = s.atPositions(rankOrder(fused, nil, depth))
		s.timer.Mark("lists")
		return r
	}
	r.qIDF = make([]float64, len(q.terms))
	for i, t := range q.terms {
		r.qIDF[i] = s.units.IDF(t)
	}
	// Word alignment over every unit, as a third list; with a speaker named
	// in the question, that speaker's units ranked by alignment as a fourth.
	r.maxsim, r.cos = s.maxSims(q)
	s.timer.Mark("maxsim")
	r.maxsimRank = ranks(n)
	for i, p := range rankOrder(r.maxsim, nil, depth) {
		fused[p] += 1.0 / float64(rrfK+i+1)
		r.maxsimRank[p] = int32(i)
	}
	s.timer.Mark("lists")
	r.sessDense = make([]float64, ns)
	r.sessMaxsim = make([]float64, ns)
	for i, ss := range s.sessions {
		r.sessDense[i] = vector.Dot(qv, ss.mean)
	}
	for i, p := range s.flat.sess[:n] {
		r.sessMaxsim[p] = larger(r.sessMaxsim[p], r.maxsim[i])
	}
	s.timer.Mark("sessions")
	r.named, r.nNamed = s.named(q)
	if r.nNamed > 0 {
		var own []int32
		for i, spk := range s.flat.spk[:n] {
			if spk >= 0 && r.named[spk] {
				own = append(own, int32(i))
			}
		}
		r.ownRank = ranks(n)
		for i, p := range rankOrder(r.maxsim, own, depth) {
			fused[p] += speakerWeight / float64(rrfK+i+1)
			r.ownRank[p] = int32(i)
		}
	}
	s.timer.Mark("speaker")
	// Word-vector expansion: each query word's nearest table words.
	r.expandRank = ranks(n)
	if exp := s.neighbourExpansion(q); len(exp) > len(q.terms) {
		ep, es := s.bm25Hits(exp, depth)
		r.expand = make([]float64, n)
		for i, p := range ep {
			r.expand[p] = es[i]
		}
		if len(es) > 0 {
			r.maxExpand = es[0]
		}
		for i, p := range ep[:min(depth, len(ep))] {
			r.expandRank[p] = int32(i)
			fused[p] += expandWeight / float64(rrfK+i+1)
		}
	}
	s.timer.Mark("expansion")
	// Second hop: the query expanded with the rarest terms of the first hop's
	// best units, fused in with a lower weight.
	if exp := s.expand(q, s.atPositions(rankOrder(fused, nil, hopUnits))); len(exp) > 0 {
		hp, _ := s.bm25Hits(exp, depth)
		for i, p := range hp[:min(depth, len(hp))] {
			r.hop2Rank[p] = int32(i)
			fused[p] += hopWeight / float64(rrfK+i+1)
		}
	}
	s.timer.Mark("hop2")
	s.speakerPrior(r, fused)
	order := rankOrder(fused, nil, depth)
	r.fused = s.atPositions(order)
	r.fusedRank = ranks(n)
	for i, p := range order {
		r.fusedRank[p] = int32(i)
	}
	s.timer.Mark("lists")
	s.feedback(r)
	s.nearWords(r)
	s.timer.Mark("hops")
	return r
}

// atPositions returns the units at the given store positions.
func (s *Store) atPositions(ps []int32) []*entry {
	out := make([]*entry, len(ps))
	for i, p := range ps {
		out[i] = s.entries[p]
	}
	return out
}

// maxSims returns every unit's word alignment with the query (vector.MaxSim
// over the query's content words and the unit's words, weighted by IDF + 0.1),
// by unit position, bit for bit. Each distinct query word is compared with
// each store word once, into a table with one row of cosines per store word
// (padded to 4 or a multiple of 8 with columns no sum reads); a unit then
// takes, for each query word, the best cosine among its distinct words, up
// to eight query words at a time in registers. Cost O(vocabulary · distinct
// query words · dim + words of all units · distinct query words). The table
// of cosines is returned too, for the near-words hop.
func (s *Store) maxSims(q *query) ([]float64, wordCosines) {
	out := make([]float64, len(s.entries))
	nq := len(q.content)
	if nq == 0 {
		return out, wordCosines{}
	}
	// slot[i] is query word i's column among the distinct words.
	slot := make([]int, nq)
	var distinct []string
	ws := make([]float64, nq)
	var wsum float64
	for i, w := range q.content {
		slot[i] = slices.Index(distinct, w)
		if slot[i] < 0 {
			slot[i] = len(distinct)
			distinct = append(distinct, w)
		}
		ws[i] = s.units.IDF(text.Stem(w)) + 0.1
		wsum += ws[i]
	}
	if wsum == 0 {
		return out, wordCosines{}
	}
	nd := len(distinct)
	// Row width: 4 columns for up to four distinct words, else a multiple
	// of 8, so that a unit's words are read once per 8 columns.
	w4 := 4
	if nd > 4 {
		w4 = (nd + 7) &^ 7
	}
	dim := s.table.Dim()
	// The query words' vectors, interleaved four at a time: qt[g·dim + 4k + j]
	// is component k of distinct word g+j (zero for the padding words, whose
	// columns no unit's sum reads).
	qt := make([]float64, w4*dim)
	for j, w := range distinct {
		v, _ := s.table.Word(w)
		g, jj := j&^3, j&3
		for k, x := range v {
			qt[g*dim+4*k+jj] = float64(x)
		}
	}
	// Row id holds vector.Dot of each query word with store word id: the
	// same products summed in the same order, four words per pass.
	nw := len(s.lex.word)
	sims := make([]float64, nw*w4)
	id := 0
	if dim == simDim {
		id = simTable32(sims, s.lex.wordVec, qt)
	}
	for ; id < nw; id++ {
		wv := s.lex.wordVec[id*dim : (id+1)*dim : (id+1)*dim]
		row := sims[id*w4 : (id+1)*w4 : (id+1)*w4]
		for g := 0; g < w4; g += 4 {
			qg := qt[g*dim : (g+4)*dim : (g+4)*dim]
			var a0, a1, a2, a3 float64
			for k, x := range wv {
				q := qg[4*k : 4*k+4 : 4*k+4]
				a0 += q[0] * x
				a1 += q[1] * x
				a2 += q[2] * x
				a3 += q[3] * x
			}
			row[g], row[g+1], row[g+2], row[g+3] = a0, a1, a2, a3
		}
	}
	// The running maxima run on order keys (orderKey), which Go's
	// WebAssembly compares and picks without a branch.
	keys := make([]int64, len(sims))
	for i, x := range sims {
		keys[i] = orderKey(x)
	}
	best := make([]float64, w4)
	inf := orderKey(math.Inf(-1))
	for p := range out {
		ids := s.flat.words(p)
		if len(ids) == 0 {
			continue
		}
		if w4 == 4 {
			b0, b1, b2, b3 := inf, inf, inf, inf
			for _, id := range ids {
				row := (*[4]int64)(keys[int(id)*4:])
				b0 = keyMax(b0, row[0])
				b1 = keyMax(b1, row[1])
				b2 = keyMax(b2, row[2])
				b3 = keyMax(b3, row[3])
			}
			best[0], best[1], best[2], best[3] = fromOrderKey(b0), fromOrderKey(b1), fromOrderKey(b2), fromOrderKey(b3)
		} else {
			for g := 0; g < w4; g += 8 {
				b0, b1, b2, b3, b4, b5, b6, b7 := inf, inf, inf, inf, inf, inf, inf, inf
				for _, id := range ids {
					row := (*[8]int64)(keys[int(id)*w4+g:])
					b0 = keyMax(b0, row[0])
					b1 = keyMax(b1, row[1])
					b2 = keyMax(b2, row[2])
					b3 = keyMax(b3, row[3])
					b4 = keyMax(b4, row[4])
					b5 = keyMax(b5, row[5])
					b6 = keyMax(b6, row[6])
					b7 = keyMax(b7, row[7])
				}
				best[g], best[g+1], best[g+2], best[g+3] = fromOrderKey(b0), fromOrderKey(b1), fromOrderKey(b2), fromOrderKey(b3)
				best[g+4], best[g+5], best[g+6], best[g+7] = fromOrderKey(b4), fromOrderKey(b5), fromOrderKey(b6), fromOrderKey(b7)
			}
		}
		var sum float64
		for i, j := range slot {
			sum += ws[i] * best[j]
		}
		out[p] = sum / wsum
	}
	return out, wordCosines{sims: sims, width: w4, words: distinct}
}

// expand returns the query's terms plus the hopTerms terms of highest IDF
// among the first hop's hopUnits best units that the query lacks (ties in
// the order the units hold them).
func (s *Store) expand(q *query, first []*entry) []string {
	var ids []int32
	var idfs []float64
	for i := 0; i < hopUnits && i < len(first); i++ {
		for _, id := range first[i].tids {
			if slices.Contains(ids, id) {
				continue
			}
			t := s.lex.term[id]
			if slices.Contains(q.terms, t) {
				continue
			}
			ids = append(ids, id)
			idfs = append(idfs, s.units.IDF(t))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	out := append([]string(nil), q.terms...)
	for _, j := range topk.Floats(idfs, nil, hopTerms) {
		out = append(out, s.lex.term[ids[j]])
	}
	return out
}

// pool returns the first n units of the fused list, plus the neighbours of the
// contextTop best as context candidates, with their features.
func (s *Store) pool(r *retrieval, n int, withFeatures bool) []*candidate {
	m := min(n, len(r.fused))
	// The candidates live in one array: m retrieved, at most 2·contextSpan
	// context neighbours for each of the contextTop best, and what the hops
	// add.
	store := make([]candidate, 0, m+2*contextSpan*min(contextTop, m)+3*hopQuota)
	out := make([]*candidate, 0, cap(store))
	add := func(c candidate) {
		store = append(store, c)
		out = append(out, &store[len(store)-1])
	}
	in := make([]bool, len(s.entries))
	for i, e := range r.fused[:m] {
		add(candidate{e: e, fused: i})
		in[e.pos] = true
	}
	var ar [2 * contextSpan]*entry
	for i := 0; i < contextTop && i < len(out); i++ {
		out[i].e.around(ar[:])
		for _, x := range ar {
			if x != nil && !in[x.pos] {
				in[x.pos] = true
				add(candidate{e: x, fused: n, context: true, hop: hopContext, anchor: out[i].e})
			}
		}
	}
	if withFeatures {
		s.addHops(r, in, func(c candidate) {
			c.fused = n
			add(c)
		})
	}
	s.timer.Mark("pool")
	if !withFeatures {
		return out
	}
	s.prepareLinks(r)
	xs := make([]float64, len(out)*len(FeatureNames))
	for i, c := range out {
		c.x = xs[i*len(FeatureNames) : (i+1)*len(FeatureNames) : (i+1)*len(FeatureNames)]
		s.features(r, c)
	}
	s.timer.Mark("features")
	return out
}

func rr(rank []int32, p int, k float64) float64 {
	i := rank[p]
	if i == noRank {
		return 0
	}
	return k / (k + float64(i))
}

// named marks, by speaker id, the speakers of the store's units whose name
// has a word of the question, and counts them.
func (s *Store) named(q *query) ([]bool, int) {
	named := make([]bool, len(s.spkNames))
	n := 0
	for id, ws := range s.spkWords {
		if s.spkUnits[id] == 0 {
			continue
		}
	words:
		for _, w := range ws {
			for _, qw := range q.words {
				if qw == w {
					named[id] = true
					n++
					break words
				}
			}
		}
	}
	return named, n
}

// neighbourExpansion returns the query's terms plus the stems of the expandK
// nearest table words (cosine at least expandCos) of each query word. With
// the embedded table's precomputed neighbour lists this costs O(query words
// · expandK · dim); a table without lists is scanned, O(table · dim) per
// query word.
func (s *Store) neighbourExpansion(q *query) []string {
	out := append([]string(nil), q.terms...)
	for _, w := range q.content {
		for _, n := range s.table.Neighbours(w, expandK, expandCos) {
			if text.IsStopword(n) {
				continue
			}
			if t := text.Stem(n); !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// sessionHits is the session index's Score, ties broken by the sessions'
// first units in the store rather than by session key: the order a store
// read afresh from its units has. (A live store keys a session when it is
// created; once its first units are deleted, another session created after
// it may start earlier.) Cost O(hits · log hits) at worst, O(hits) when no
// two sessions tie.
func (s *Store) sessionHits(terms []string) []lexical.Hit {
	hits := s.sessIx.Score(terms)
	for i := 0; i < len(hits); {
		j := i + 1
		for j < len(hits) && hits[j].Score == hits[i].Score {
			j++
		}
		if j-i > 1 {
			sort.Slice(hits[i:j], func(a, b int) bool {
				return s.sessKey[hits[i+a].Doc].entries[0].key < s.sessKey[hits[i+b].Doc].entries[0].key
			})
		}
		i = j
	}
	return hits
}

// simDim is the dimension of the embedded table, which word alignment's
// table of cosines computes with its loops written out (simTable32).
const simDim = 32

// simTable32 fills the rows of sims (w4 = len(sims)/words wide, a multiple
// of 4) for the store words of wordVec two at a time, with the cosines of
// the w4 query words that qt interleaves four at a time (as maxSims lays
// them out), and returns how many words it filled (all but an odd last
// one). Each cosine is the same products summed in the same order as
// vector.Dot64, so the values are the same bits; the dimension is a
// constant, so the loop over components runs four at a time without bounds
// checks, which Go's WebAssembly needs (every loop iteration there is a
// branch through the function's dispatch table). Cost O(words · w4 · 32).
func simTable32(sims, wordVec, qt []float64) int {
	const dim = simDim
	nw := len(wordVec) / dim
	if nw == 0 {
		return 0
	}
	w4 := len(sims) / nw
	id := 0
	for ; id+2 <= nw; id += 2 {
		xa := (*[dim]float64)(wordVec[id*dim:])
		xb := (*[dim]float64)(wordVec[(id+1)*dim:])
		ra := sims[id*w4 : (id+1)*w4 : (id+1)*w4]
		rb := sims[(id+1)*w4 : (id+2)*w4 : (id+2)*w4]
		for g := 0; g+4 <= w4; g += 4 {
			q := (*[4 * dim]float64)(qt[g*dim:])
			var a0, a1, a2, a3, b0, b1, b2, b3 float64
			for k := 0; k < dim; k += 4 {
				x, y := xa[k], xb[k]
				q0, q1, q2, q3 := q[4*k], q[4*k+1], q[4*k+2], q[4*k+3]
				a0 += q0 * x
				a1 += q1 * x
				a2 += q2 * x
				a3 += q3 * x
				b0 += q0 * y
				b1 += q1 * y
				b2 += q2 * y
				b3 += q3 * y
				x, y = xa[k+1], xb[k+1]
				q0, q1, q2, q3 = q[4*k+4], q[4*k+5], q[4*k+6], q[4*k+7]
				a0 += q0 * x
				a1 += q1 * x
				a2 += q2 * x
				a3 += q3 * x
				b0 += q0 * y
				b1 += q1 * y
				b2 += q2 * y
				b3 += q3 * y
				x, y = xa[k+2], xb[k+2]
				q0, q1, q2, q3 = q[4*k+8], q[4*k+9], q[4*k+10], q[4*k+11]
				a0 += q0 * x
				a1 += q1 * x
				a2 += q2 * x
				a3 += q3 * x
				b0 += q0 * y
				b1 += q1 * y
				b2 += q2 * y
				b3 += q3 * y
				x, y = xa[k+3], xb[k+3]
				q0, q1, q2, q3 = q[4*k+12], q[4*k+13], q[4*k+14], q[4*k+15]
				a0 += q0 * x
				a1 += q1 * x
				a2 += q2 * x
				a3 += q3 * x
				b0 += q0 * y
				b1 += q1 * y
				b2 += q2 * y
				b3 += q3 * y
			}
			ra[g], ra[g+1], ra[g+2], ra[g+3] = a0, a1, a2, a3
			rb[g], rb[g+1], rb[g+2], rb[g+3] = b0, b1, b2, b3
		}
	}
	return id
}
