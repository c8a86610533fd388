package slate

// The pool follows the conversation past the question's own words. The first
// pass (retrieval.go) fuses BM25, dense, word-alignment and expansion lists
// into one ranking whose head is the pool; a multi-hop question needs turns
// that share no word with it or with each other, so three hops then add, each
// up to hopQuota units that the first pass left out:
//
//   - session neighbours: the turns three and four away from one of the
//     sessionTop best units in its session (the nearer two on each side are
//     context candidates already);
//   - feedback (pseudo-relevance feedback): BM25 of the question plus the
//     feedbackTerms words that carry most weight in the feedbackUnits best
//     units, each weighted below the question's own words;
//   - near words: BM25 of the store's words nearest in meaning to the
//     question's ("football" and "baseball" for "sports").
//
// When the question names a speaker, the fused scores of everyone else's
// units are scaled by otherSpeaker below the protected head of the list, and
// the two expansion hops keep to the named speakers' units: on LoCoMo, the
// evidence of a question naming a speaker is that speaker's turns for 104 of
// 112 multi-hop questions (dev conversations).
//
// What each hop added, measured as the pool's recall of all evidence
// (r_pool) on held-out conversations, is in docs/slate.md.

import (
	"slices"
	"sort"
)

// Hop parameters, chosen on the dev conversations (docs/slate.md).
const (
	otherSpeaker  = 0.3  // scale of other speakers' fused scores when a speaker is named
	speakerHead   = 16   // the fused list's head, kept whoever speaks
	hopQuota      = 32   // units each hop may add
	sessionTop    = 16   // best units whose sessions the session hop walks
	sessionFar    = 4    // how far from such a unit the session hop goes
	feedbackUnits = 10   // best units the feedback hop reads
	feedbackTerms = 20   // words it adds to the question
	feedbackDF    = 0.05 // a word in more than this share of the units is not added
	feedbackMinDF = 5    // ... unless in 5 units or fewer
	nearK         = 20   // store words per question word for the near-words hop
	nearCos       = 0.7  // their least cosine
	hopDepth      = 256  // how deep the feedback and near-words lists go
)

// Hops: how a candidate entered the pool.
const (
	hopFirst    uint8 = iota // the head of the fused lists
	hopContext               // within contextSpan turns of one of the contextTop best
	hopSession               // sessionFar or fewer turns from one of the sessionTop best
	hopFeedback              // the question plus the best units' words
	hopNear                  // the store's words nearest the question's
)

// hopNames are the hops as select_slate's "hop" names them.
var hopNames = [...]string{"first", "context", "session", "feedback", "near"}

// wordCosines is the cosine of each distinct query word (a column) with each
// store word (a row of width columns), as maxSims computes them.
type wordCosines struct {
	sims  []float64
	width int
	words []string
}

// nearTerm is one word the near-words hop looks for: a store word's term,
// the query word it is near and their cosine.
type nearTerm struct {
	term, word, of string
	cos            float64
}

// namedSpeakerUnit reports whether e was said by a speaker the question names.
func (r *retrieval) namedSpeakerUnit(e *entry) bool {
	return e.spk >= 0 && r.named[e.spk]
}

// speakerPrior scales, when the question names a speaker, the fused score of
// every unit another speaker (or no speaker) said by otherSpeaker, except in
// the speakerHead best units. Cost O(units).
func (s *Store) speakerPrior(r *retrieval, fused []float64) {
	if r.nNamed == 0 {
		return
	}
	keep := make([]bool, len(fused))
	for _, p := range rankOrder(fused, nil, speakerHead) {
		keep[p] = true
	}
	for p, e := range s.entries {
		if !keep[p] && !r.namedSpeakerUnit(e) {
			fused[p] *= otherSpeaker
		}
	}
}

// feedback is the feedback hop: the words of the feedbackUnits best fused
// units score by IDF, summed over the units with weight 1/(rank + 3); the
// feedbackTerms best that the question lacks join its terms at their score
// over the best's, and BM25 of that weighted query ranks the units (the
// named speakers' only, when the question names one). Ties order by word.
// Cost O(terms of the best units + postings of the query's and added terms).
func (s *Store) feedback(r *retrieval) {
	top := r.fused[:min(feedbackUnits, len(r.fused))]
	type tw struct {
		t string
		w float64
	}
	var ws []tw
	at := map[string]int{}
	for _, t := range r.q.terms {
		at[t] = -1
	}
	maxDF := max(feedbackMinDF, int(feedbackDF*float64(s.units.Len())))
	for i, e := range top {
		w := 1 / float64(i+3)
		for k, id := range e.tids {
			t := s.lex.term[id]
			if slices.Contains(e.tids[:k], id) {
				continue
			}
			j, ok := at[t]
			if j < 0 {
				continue
			}
			if !ok && s.units.DF(t) > maxDF {
				at[t] = -1 // too common to point anywhere
				continue
			}
			if !ok {
				j = len(ws)
				at[t] = j
				ws = append(ws, tw{t: t})
			}
			ws[j].w += w * s.units.IDF(t)
		}
	}
	if len(ws) == 0 {
		return
	}
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].w != ws[j].w {
			return ws[i].w > ws[j].w
		}
		return ws[i].t < ws[j].t
	})
	ws = ws[:min(feedbackTerms, len(ws))]
	terms := append(slices.Clip(r.q.terms), make([]string, 0, len(ws))...)
	weights := make([]float64, len(r.q.terms), len(terms)+len(ws))
	for i := range weights {
		weights[i] = 1
	}
	for _, x := range ws {
		terms = append(terms, x.t)
		weights = append(weights, x.w/ws[0].w)
		r.feedTerms = append(r.feedTerms, x.t)
	}
	r.feedRank = s.rankHits(r, terms, weights, hopDepth)
}

// nearWords is the near-words hop: for each distinct content word of the
// question that names no speaker, the nearK store words of cosine at least
// nearCos (other than itself, held by at least one unit; ties by word)
// become query terms weighted by that cosine (the best, for a term near two
// words), and BM25 of them alone ranks the units (the named speakers' only,
// when the question names one). Cost O(vocabulary · query words) over
// maxSims' table, plus the postings of the added terms.
func (s *Store) nearWords(r *retrieval) {
	c := r.cos
	if len(c.words) == 0 {
		return
	}
	type wc struct {
		id  int32
		cos float64
	}
	var best []wc
	var terms []string
	var weights []float64
	maxDF := max(feedbackMinDF, int(feedbackDF*float64(s.units.Len())))
	for j, w := range c.words {
		if s.speakerWord(w) {
			continue
		}
		best = best[:0]
		for id := range s.lex.word {
			v := c.sims[id*c.width+j]
			if v < nearCos || s.lex.word[id] == w {
				continue
			}
			if df := s.units.DF(s.lex.term[s.lex.wordTerm[id]]); df == 0 || df > maxDF {
				continue
			}
			best = append(best, wc{int32(id), v})
		}
		sort.Slice(best, func(a, b int) bool {
			if best[a].cos != best[b].cos {
				return best[a].cos > best[b].cos
			}
			return s.lex.word[best[a].id] < s.lex.word[best[b].id]
		})
		for _, b := range best[:min(nearK, len(best))] {
			t := s.lex.term[s.lex.wordTerm[b.id]]
			if slices.Contains(r.q.terms, t) {
				continue
			}
			if k := slices.Index(terms, t); k >= 0 {
				weights[k] = max(weights[k], b.cos)
				continue
			}
			terms = append(terms, t)
			weights = append(weights, b.cos)
			r.nearTerms = append(r.nearTerms, nearTerm{term: t, word: s.lex.word[b.id], of: w, cos: b.cos})
		}
	}
	if len(terms) == 0 {
		return
	}
	r.nearRank = s.rankHits(r, terms, weights, hopDepth)
}

// speakerWord reports whether w is a word of a speaker's name.
func (s *Store) speakerWord(w string) bool {
	for id, ws := range s.spkWords {
		if s.spkUnits[id] > 0 && slices.Contains(ws, w) {
			return true
		}
	}
	return false
}

// rankHits ranks the depth best units by BM25 of a weighted query (the
// named speakers' units only, when the question names one); the others are
// unranked.
func (s *Store) rankHits(r *retrieval, terms []string, weights []float64, depth int) []int32 {
	rank := ranks(len(s.entries))
	hits := s.units.ScoreTopWeighted(terms, weights, depth)
	i := int32(0)
	for _, h := range hits[:min(depth, len(hits))] {
		e := s.byKey[h.Doc]
		if r.nNamed > 0 && !r.namedSpeakerUnit(e) {
			continue
		}
		rank[e.pos] = i
		i++
	}
	return rank
}

// addHops adds to the pool, after its first pass and context, the units each
// hop brings that are not in yet, hopQuota at most per hop, best first.
// in marks the units already pooled; add appends a candidate.
func (s *Store) addHops(r *retrieval, in []bool, add func(candidate)) {
	n := 0
	// Session neighbours, nearest first: every best unit's turns three
	// away, then four away.
	top := r.fused[:min(sessionTop, len(r.fused))]
session:
	for d := contextSpan + 1; d <= sessionFar; d++ {
		for _, e := range top {
			for _, i := range [2]int{e.sidx - d, e.sidx + d} {
				if i < 0 || i >= len(e.s.entries) {
					continue
				}
				x := e.s.entries[i]
				if in[x.pos] {
					continue
				}
				if n == hopQuota {
					break session
				}
				in[x.pos] = true
				add(candidate{e: x, context: true, hop: hopSession, anchor: e})
				n++
			}
		}
	}
	for _, l := range [...]struct {
		rank []int32
		hop  uint8
	}{{r.feedRank, hopFeedback}, {r.nearRank, hopNear}} {
		if l.rank == nil {
			continue
		}
		var list []int32
		for p, k := range l.rank {
			if k != noRank && !in[p] {
				list = append(list, int32(p))
			}
		}
		sort.Slice(list, func(a, b int) bool { return l.rank[list[a]] < l.rank[list[b]] })
		for _, p := range list[:min(hopQuota, len(list))] {
			in[p] = true
			add(candidate{e: s.entries[p], hop: l.hop})
		}
	}
}

// hopWords returns the words that brought e in by hop h: the feedback words
// or the near words it holds, in the order the hop ranked them.
func (s *Store) hopWords(r *retrieval, e *entry, h uint8) []string {
	var out []string
	has := func(t string) bool {
		for _, id := range e.tids {
			if s.lex.term[id] == t {
				return true
			}
		}
		return false
	}
	switch h {
	case hopFeedback:
		for _, t := range r.feedTerms {
			if has(t) {
				out = append(out, t)
			}
		}
	case hopNear:
		for _, x := range r.nearTerms {
			if has(x.term) {
				out = append(out, x.word+" ~ "+x.of)
			}
		}
	}
	return out
}
