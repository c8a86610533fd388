package slate

import (
	"slices"
	"strconv"
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
		t := q.stems[i]
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
// contributions, the two signals that raised its score most. It is written
// into one buffer (a selection writes it for every chosen unit, and Go's
// WebAssembly pays for each allocation). Cost O(unit text + features).
func (s *Store) why(r *retrieval, c *candidate, rank, of int, matched []string, ranker string, contrib Values) string {
	b := make([]byte, 0, 384)
	b = append(b, "Ranked "...)
	b = appendOrdinal(b, rank)
	b = append(b, " of "...)
	b = strconv.AppendInt(b, int64(of), 10)
	if ranker != "learned" {
		b = append(b, " by "...)
		b = append(b, ranker...)
	}
	b = append(b, ". "...)
	switch len(matched) {
	case 0:
		b = append(b, "Holds none of the question's words. "...)
	case 1:
		b = append(b, "Holds the question's word "...)
	default:
		b = append(b, "Holds the question's words "...)
	}
	if len(matched) > 0 {
		b = appendQuoted(b, matched)
		b = append(b, ". "...)
	}
	e := c.e
	if ranker == "learned" {
		switch c.hop {
		case hopFirst:
			b = append(b, "Found by the first pass over the question"...)
			if k := r.bm25Rank[e.pos]; k != noRank && k < 10 {
				b = append(b, " ("...)
				b = appendOrdinal(b, int(k)+1)
				b = append(b, " by BM25)"...)
			} else if k := r.maxsimRank[e.pos]; k != noRank && k < 10 {
				b = append(b, " ("...)
				b = appendOrdinal(b, int(k)+1)
				b = append(b, " by word meaning)"...)
			}
			b = append(b, ". "...)
		case hopContext, hopSession:
			d := e.sidx - c.anchor.sidx
			dir := " after"
			if d < 0 {
				d, dir = -d, " before"
			}
			b = append(b, "Brought in as context: "...)
			b = strconv.AppendInt(b, int64(d), 10)
			if d == 1 {
				b = append(b, " turn"...)
			} else {
				b = append(b, " turns"...)
			}
			b = append(b, dir...)
			b = append(b, " a best match in the same session ("...)
			b = append(b, c.anchor.u.ID...)
			b = append(b, "). "...)
		case hopFeedback:
			b = append(b, "Found by the feedback hop, the question plus the words of the best matches"...)
			if ws := s.hopWords(r, e, hopFeedback); len(ws) > 0 {
				b = append(b, ": it shares "...)
				b = appendQuoted(b, ws[:min(4, len(ws))])
				b = append(b, " with them"...)
			}
			b = append(b, ". "...)
		case hopNear:
			b = append(b, "Found by words close in meaning to the question's"...)
			if ws := s.hopWords(r, e, hopNear); len(ws) > 0 {
				b = append(b, " ("...)
				for i, w := range ws[:min(3, len(ws))] {
					if i > 0 {
						b = append(b, ", "...)
					}
					b = append(b, w...)
				}
				b = append(b, ")"...)
			}
			b = append(b, ". "...)
		}
		b = appendStrongest(b, contrib)
		if r.nNamed > 0 && e.u.Speaker != "" {
			b = append(b, "Said by "...)
			b = append(b, e.u.Speaker...)
			if r.namedSpeakerUnit(e) {
				b = append(b, ", whom the question names. "...)
			} else {
				b = append(b, ", not the person the question names. "...)
			}
		}
	}
	switch {
	case e.u.Date != "":
		b = append(b, "Dated "...)
		b = append(b, e.u.Date...)
		b = append(b, '.')
	case e.u.Time != "":
		b = append(b, "Dated "...)
		b = append(b, e.u.Time...)
		b = append(b, '.')
	default:
		b = append(b, "Undated."...)
	}
	// Every phrase relativeDate reads holds a time word (hasTimeWord).
	if e.time != 0 && e.timeWord {
		if rd, ok := relativeDate(s.text(e), e.time); ok {
			b = append(b, " “"...)
			b = append(b, rd.phrase...)
			b = append(b, "” there is "...)
			b = append(b, rd.when...)
			b = append(b, '.')
		}
	}
	return string(b)
}

// ordinal writes n as "1st", "2nd", "3rd", "4th", ..., "11th", "21st".
func ordinal(n int) string { return string(appendOrdinal(nil, n)) }

func appendOrdinal(b []byte, n int) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	switch n % 100 {
	case 11, 12, 13:
		return append(b, "th"...)
	}
	switch n % 10 {
	case 1:
		return append(b, "st"...)
	case 2:
		return append(b, "nd"...)
	case 3:
		return append(b, "rd"...)
	}
	return append(b, "th"...)
}

// quoteList writes words as “a”, “b” and “c”.
func quoteList(ws []string) string { return string(appendQuoted(nil, ws)) }

func appendQuoted(b []byte, ws []string) []byte {
	for i, w := range ws {
		switch {
		case i == 0:
		case i == len(ws)-1:
			b = append(b, " and "...)
		default:
			b = append(b, ", "...)
		}
		b = append(b, "“"...)
		b = append(b, w...)
		b = append(b, "”"...)
	}
	return b
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
	"feedback_rank":   "its rank in the feedback hop (the question plus the best matches' words)",
	"near_rank":       "its rank for words close to the question's",
	"session_hop":     "it is in the same chat as a best match",
	"top_words":       "it shares words with a best match",
	"top_dense":       "its meaning close to a best match's",
	"top_turns":       "it is a few turns from a best match",
	"top_link":        "it shares words with one of the very best matches",
}

// appendStrongest writes, in words, the two contributions that raised the
// score most (positive ones only, largest first, ties by name), as
// "Signals that counted most for it: a; b. ", or nothing without any.
func appendStrongest(b []byte, c Values) []byte {
	first, second := -1, -1
	better := func(i, j int) bool { // c[i] above c[j]
		return j < 0 || c[i].Value > c[j].Value || (c[i].Value == c[j].Value && c[i].Name < c[j].Name)
	}
	for i, x := range c {
		if x.Value <= 0 {
			continue
		}
		switch {
		case better(i, first):
			first, second = i, first
		case better(i, second):
			second = i
		}
	}
	if first < 0 {
		return b
	}
	b = append(b, "Signals that counted most for it: "...)
	for k, i := range [2]int{first, second} {
		if i < 0 {
			break
		}
		if k > 0 {
			b = append(b, "; "...)
		}
		if w := signalWords[c[i].Name]; w != "" {
			b = append(b, w...)
		} else {
			b = append(b, c[i].Name...)
		}
	}
	return append(b, ". "...)
}
