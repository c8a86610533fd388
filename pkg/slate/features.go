package slate

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
	"own_rank",        // 10 / (10 + rank among the named speakers' units by word alignment); 0 when none is named
	"expand_bm25",     // BM25 for the query expanded with word-vector neighbours / its best
	"feedback_rank",   // 10 / (10 + rank for the question plus the best units' words), the feedback hop's list
	"near_rank",       // 10 / (10 + rank for the store's words nearest the question's), the near-words hop's list
	"session_hop",     // the session hop brought the unit: 3 or 4 turns from one of the best units
	// Links to the first pass's topUnits best units (links.go): second-hop
	// evidence shares words, meaning or a chat with them, first-pass noise
	// only the question's words.
	"top_words", // best share, over the top units, of a top unit's non-question IDF mass the unit also holds
	"top_dense", // best sentence-vector cosine with a top unit (0 at least)
	"top_turns", // 1 / (1 + turns to the nearest top unit in its session); 0 in another session
	"top_link",  // best top_words × the top unit's first-pass weight 10 / (10 + its rank)
}

// FeatureGroups groups features for the ablation (as in AgentMemRec's Table 4).
var FeatureGroups = map[string][]string{
	"retrieval": {"bm25", "bm25_rank", "dense", "dense_rank", "fused_rank", "hop2_rank", "expand_rank", "expand_bm25", "feedback_rank", "near_rank"},
	"link":      {"top_words", "top_dense", "top_turns", "top_link"},
	"context":   {"session_bm25", "session_rank", "neighbour_bm25", "neighbour_dense", "window_bm25", "session_dense", "prev_bm25", "next_bm25", "prev_fused", "next_fused", "prev_question", "session_hop"},
	"speaker":   {"speaker_named", "other_named", "own_statement", "both_named", "own_rank"},
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
	hop     uint8     // how it entered the pool (hopFirst, ...)
	anchor  *entry    // for a context or session neighbour, the best unit it neighbours
}

var firstPerson = wordSet("i my me mine myself we our us ours")

// features fills c.x. Cost O(query terms · unit terms).
func (s *Store) features(r *retrieval, c *candidate) {
	e := c.e
	x := c.x
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	x[0] = div(r.bm25[e.pos], r.maxBM25)
	x[1] = rr(r.bm25Rank, e.pos, 10)
	x[2] = r.dense[e.pos]
	x[3] = rr(r.denseRank, e.pos, 10)
	x[4] = 10 / (10 + float64(c.fused))
	x[5] = rr(r.hop2Rank, e.pos, 10)
	x[6] = div(r.sess[e.s.pos], r.maxSess)
	x[7] = rr(r.sessRank, e.s.pos, 1)
	p, nx := e.neighbours()
	for _, o := range [2]*entry{p, nx} {
		if o == nil {
			continue
		}
		x[8] = larger(x[8], div(r.bm25[o.pos], r.maxBM25))
		x[9] = larger(x[9], r.dense[o.pos])
	}
	if e.spk >= 0 && r.named[e.spk] {
		x[10] = 1
	} else if r.nNamed > 0 {
		x[11] = 1
	}
	x[12] = r.maxsim[e.pos]
	// has[i]: the unit holds query term i.
	var hasBuf [16]bool
	has := hasBuf[:0]
	if len(r.q.terms) > len(hasBuf) {
		has = make([]bool, 0, len(r.q.terms))
	}
	for _, t := range r.q.terms {
		h := false
		for _, id := range e.tids {
			if s.lex.term[id] == t {
				h = true
				break
			}
		}
		has = append(has, h)
	}
	if len(r.q.keys) > 0 {
		k := 0
		for _, i := range r.q.keyTerm {
			if has[i] {
				k++
			}
		}
		x[13] = float64(k) / float64(len(r.q.keys))
	}
	var got, all float64
	for i, idf := range r.qIDF {
		all += idf
		if has[i] {
			got += idf
		}
	}
	x[14] = div(got, all)
	if e.timeWord {
		x[16] = 1
		if r.q.temporal {
			x[15] = 1
		}
	}
	x[17] = r.sessPos[e.s.pos]
	if r.q.recent {
		x[18] = x[17]
	}
	x[19] = min(float64(e.tokens)/64, 2)
	x[20] = rr(r.maxsimRank, e.pos, 10)
	if e.firstPerson {
		x[21] = 1
	}
	x[22] = x[21] * x[10]
	if e.question {
		x[23] = 1
	}
	win := r.bm25[e.pos]
	for _, o := range [2]*entry{p, nx} {
		if o != nil {
			win += 0.5 * r.bm25[o.pos]
		}
	}
	x[24] = div(win, r.maxBM25)
	x[25] = r.sessDense[e.s.pos]
	x[26] = r.sessMaxsim[e.s.pos]
	var ar [4]*entry
	e.around(ar[:])
	for d, o := range ar {
		if o == nil {
			continue
		}
		f := rr(r.fusedRank, o.pos, 10)
		if d < 2 {
			x[32] = larger(x[32], div(r.bm25[o.pos], r.maxBM25))
			x[34] = larger(x[34], f)
			if o.hasQMark {
				x[37] = larger(x[37], f)
			}
		} else {
			x[33] = larger(x[33], div(r.bm25[o.pos], r.maxBM25))
			x[36] = larger(x[36], f)
		}
	}
	x[35] = r.q.dateMatch(e)
	if e.sidx < 2 {
		x[38] = 1
	}
	x[40] = rr(r.expandRank, e.pos, 10)
	if r.nNamed > 1 {
		x[39] = 1
	}
	if r.ownRank != nil {
		x[41] = rr(r.ownRank, e.pos, 10)
	}
	if r.expand != nil {
		x[42] = div(r.expand[e.pos], r.maxExpand)
	}
	if r.q.list {
		x[27], x[28], x[29], x[30], x[31] = 1, x[10], x[12], x[22], x[6]
	}
	if r.feedRank != nil {
		x[43] = rr(r.feedRank, e.pos, 10)
	}
	if r.nearRank != nil {
		x[44] = rr(r.nearRank, e.pos, 10)
	}
	if c.hop == hopSession {
		x[45] = 1
	}
	s.links(r, c)
}
