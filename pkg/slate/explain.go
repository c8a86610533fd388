package slate

import (
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// matched returns the question's content words that e holds (as the
// question wrote them, lowercased, each once, in the question's order).
// Cost O(query words · unit terms).
func (s *Store) matched(q *query, e *entry) []string {
	var out []string
	for i, w := range q.content {
		if slices.Contains(q.content[:i], w) {
			continue
		}
		t := text.Stem(w)
		for _, id := range e.tids {
			if s.lex.term[id] == t {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// why says in words why a chosen unit is in the slate: its rank among the
// candidates, the question's words it holds, how it entered the pool (the
// hop, with the words or the turn that brought it), whether the question
// names its speaker, and its date, with the day a relative date in it
// ("yesterday", "last week") points to; with a linear model's
// contributions, the two signals that raised its score most. Cost O(unit
// text + features).
func (s *Store) why(r *retrieval, c *candidate, rank, of int, matched []string, ranker string, contrib Values) string {
	var b strings.Builder
	b.WriteString("Ranked " + ordinal(rank) + " of " + strconv.Itoa(of))
	if ranker != "learned" {
		b.WriteString(" by " + ranker)
	}
	b.WriteString(". ")
	switch len(matched) {
	case 0:
		b.WriteString("Holds none of the question's words. ")
	case 1:
		b.WriteString("Holds the question's word " + quoteList(matched) + ". ")
	default:
		b.WriteString("Holds the question's words " + quoteList(matched) + ". ")
	}
	e := c.e
	if ranker == "learned" {
		switch c.hop {
		case hopFirst:
			b.WriteString("Found by the first pass over the question")
			if k := r.bm25Rank[e.pos]; k != noRank && k < 10 {
				b.WriteString(" (" + ordinal(int(k)+1) + " by BM25)")
			} else if k := r.maxsimRank[e.pos]; k != noRank && k < 10 {
				b.WriteString(" (" + ordinal(int(k)+1) + " by word meaning)")
			}
			b.WriteString(". ")
		case hopContext, hopSession:
			d := e.sidx - c.anchor.sidx
			dir := "after"
			if d < 0 {
				d, dir = -d, "before"
			}
			turns := "turns"
			if d == 1 {
				turns = "turn"
			}
			b.WriteString("Brought in as context: " + strconv.Itoa(d) + " " + turns + " " + dir + " a best match in the same session (" + c.anchor.u.ID + "). ")
		case hopFeedback:
			b.WriteString("Found by the second hop, the question plus the words of the best matches")
			if ws := s.hopWords(r, e, hopFeedback); len(ws) > 0 {
				b.WriteString(": it shares " + quoteList(ws[:min(4, len(ws))]) + " with them")
			}
			b.WriteString(". ")
		case hopNear:
			b.WriteString("Found by words close in meaning to the question's")
			if ws := s.hopWords(r, e, hopNear); len(ws) > 0 {
				b.WriteString(" (" + strings.Join(ws[:min(3, len(ws))], ", ") + ")")
			}
			b.WriteString(". ")
		}
		if top := strongest(contrib, 2); len(top) > 0 {
			b.WriteString("Signals that counted most for it: " + strings.Join(top, "; ") + ". ")
		}
		if r.nNamed > 0 {
			if r.namedSpeakerUnit(e) {
				b.WriteString("Said by " + e.u.Speaker + ", whom the question names. ")
			} else if e.u.Speaker != "" {
				b.WriteString("Said by " + e.u.Speaker + ", not the person the question names. ")
			}
		}
	}
	switch date := e.u.Date; {
	case date != "":
		b.WriteString("Dated " + date + ".")
	case e.u.Time != "":
		b.WriteString("Dated " + e.u.Time + ".")
	default:
		b.WriteString("Undated.")
	}
	if e.time != 0 {
		if rd, ok := relativeDate(s.text(e), e.time); ok {
			b.WriteString(" “" + rd.phrase + "” there is " + rd.when + ".")
		}
	}
	return b.String()
}

// ordinal writes n as "1st", "2nd", "3rd", "4th", ..., "11th", "21st".
func ordinal(n int) string {
	suffix := "th"
	switch n % 100 {
	case 11, 12, 13:
	default:
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// quoteList writes words as “a”, “b” and “c”.
func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "“" + w + "”"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// signalWords says what each feature measures, for a reader.
var signalWords = map[string]string{
	"bm25":            "the question's rarer words in it (BM25)",
	"bm25_rank":       "its rank by BM25",
	"dense":           "its meaning close to the question's (sentence vectors)",
	"dense_rank":      "its rank by sentence meaning",
	"fused_rank":      "its rank in the first pass",
	"hop2_rank":       "its rank for the question plus the best matches' rare words",
	"session_bm25":    "its chat matches the question",
	"session_rank":    "its chat's rank for the question",
	"neighbour_bm25":  "the turn before or after it matches the question",
	"neighbour_dense": "the turn before or after it is close in meaning",
	"speaker_named":   "its speaker is named in the question",
	"other_named":     "the question names someone else",
	"maxsim":          "its words close to the question's, word by word",
	"key_overlap":     "the question's names, numbers or rare words in it",
	"coverage":        "how much of the question it covers",
	"temporal_time":   "a time in it, for a question about when",
	"time_words":      "a time in it",
	"recency":         "how recent its chat is",
	"recent_cue":      "how recent it is, for a question about now",
	"length":          "its length",
	"maxsim_rank":     "its rank by word closeness",
	"first_person":    "its speaker talks about themselves",
	"own_statement":   "the named person talks about themselves",
	"is_question":     "it asks a question",
	"window_bm25":     "it and its neighbours match the question",
	"session_dense":   "its chat is close in meaning",
	"session_maxsim":  "its chat holds words close to the question's",
	"list_question":   "the question asks for several things",
	"list_speaker":    "the named speaker, for a question asking for several things",
	"list_maxsim":     "word closeness, for a question asking for several things",
	"list_own":        "the named person on themselves, for a question asking for several things",
	"list_session":    "its chat matches, for a question asking for several things",
	"prev_bm25":       "the two turns before it match the question",
	"next_bm25":       "the two turns after it match the question",
	"prev_fused":      "a turn before it is a best match",
	"date_match":      "its date is the month or year the question names",
	"next_fused":      "a turn after it is a best match",
	"prev_question":   "it answers a question that is a best match",
	"opening":         "it opens its chat, where news is told",
	"both_named":      "the question names two people",
	"expand_rank":     "its rank for the question's words and their near words",
	"own_rank":        "its rank among the named person's turns",
	"expand_bm25":     "the question's near words in it",
	"feedback_rank":   "its rank in the second hop",
	"near_rank":       "its rank for words close to the question's",
	"session_hop":     "it is in the same chat as a best match",
}

// strongest returns, in words, the n contributions that raised the score
// most (positive ones only, largest first, ties by name).
func strongest(c Values, n int) []string {
	type kv struct {
		name string
		v    float64
	}
	var pos []kv
	for _, x := range c {
		if x.Value > 0 {
			pos = append(pos, kv{x.Name, x.Value})
		}
	}
	slices.SortStableFunc(pos, func(a, b kv) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, x := range pos[:min(n, len(pos))] {
		w := signalWords[x.name]
		if w == "" {
			w = x.name
		}
		out = append(out, w)
	}
	return out
}
