package slate

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/recmem/recmem/pkg/text"
)

// query is a request analysed once for all candidates.
type query struct {
	raw      string
	terms    []string // unique index terms, in order of appearance
	words    []string // all lowercased words
	content  []string // lowercased words without stop words
	stems    []string // the index term of each content word
	keys     []string // index terms of numbers, capitalized names and rare words
	keyTerm  []int    // each key's index in terms
	temporal bool     // asks when, how long, or about an order of events
	recent   bool     // asks about the latest or current state
	list     bool     // asks for several things ("What activities...", "Which cities...")
	time     int64    // the request date, 0 if unknown
	month    int      // a month named in the question (1-12), 0 if none
	year     int      // a year named in the question, 0 if none
}

// temporalCues mark questions about time or order ("when did", "how long").
var temporalCues = wordSet(`when date year years month months week weeks day days time ago before after
first last since until long recently earlier later start started began ended how_long`)

// recentCues mark questions about the latest state.
var recentCues = wordSet(`now current currently latest recent recently still anymore today new`)

// timeWords mark units that mention a time.
var timeWords = wordSet(`yesterday today tomorrow tonight ago last next week weeks weekend month months year years
day days morning evening night monday tuesday wednesday thursday friday saturday sunday january february march
april may june july august september october november december spring summer autumn fall winter since recently
earlier later soon birthday anniversary christmas holiday holidays vacation`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func analyse(s *Store, q string, at int64) *query {
	a := &query{raw: q, time: at}
	a.words = text.Words(q)
	seen := map[string]bool{}
	for _, w := range a.words {
		if temporalCues[w] {
			a.temporal = true
		}
		if recentCues[w] {
			a.recent = true
		}
		if text.IsStopword(w) {
			continue
		}
		a.content = append(a.content, w)
		t := text.Stem(w)
		a.stems = append(a.stems, t)
		if !seen[t] {
			seen[t] = true
			a.terms = append(a.terms, t)
		}
	}
	a.list = isListQuestion(a.words)
	for _, w := range a.words {
		if m, ok := months[w]; ok {
			a.month = m
		}
		if y, err := strconv.Atoi(w); err == nil && y >= 1900 && y <= 2100 {
			a.year = y
		}
	}
	if strings.Contains(strings.ToLower(q), "how long") {
		a.temporal = true
	}
	// Keys: numbers, capitalized words not at the sentence start, rare terms.
	caps := map[string]bool{}
	fields := strings.Fields(q)
	for i, f := range fields {
		r := []rune(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if len(r) == 0 {
			continue
		}
		if unicode.IsDigit(r[0]) || (i > 0 && unicode.IsUpper(r[0])) {
			for _, w := range text.Terms(string(r)) {
				caps[w] = true
			}
		}
	}
	n := float64(s.units.Len())
	for i, t := range a.terms {
		df := float64(s.units.DF(t))
		if caps[t] || (df > 0 && df <= 0.01*n+1) {
			a.keys = append(a.keys, t)
			a.keyTerm = append(a.keyTerm, i)
		}
	}
	return a
}

// hasTimeWord reports whether a unit mentions a time: a time word or a number
// that looks like a year or a day.
func hasTimeWord(words []string) bool {
	for _, w := range words {
		if timeWords[w] {
			return true
		}
		if len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
			return true
		}
	}
	return false
}

// listAux are words ending in s that are not plural nouns.
var listAux = wordSet(`is was has does his hers its this us yes always sometimes`)

// listWords mark a question asking for several things.
var listWords = wordSet(`both all kinds kind types type ways things some`)

// isListQuestion reports whether a question asks for a list: "what" or "which"
// followed within four words by a plural noun or a word like "kinds" or "both".
func isListQuestion(words []string) bool {
	for i, w := range words {
		if w != "what" && w != "which" {
			continue
		}
		for j := i + 1; j < len(words) && j <= i+4; j++ {
			v := words[j]
			if listWords[v] || (len(v) > 3 && strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss") && !listAux[v]) {
				return true
			}
		}
	}
	for _, w := range words {
		if w == "both" {
			return true
		}
	}
	return false
}

var months = map[string]int{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// dateMatch is 1 when the question names a month or a year and the unit's date
// has it (both when both are named); 0 for a unit without a date (or dated at
// the epoch itself).
func (q *query) dateMatch(e *entry) float64 {
	if e.time == 0 || (q.month == 0 && q.year == 0) {
		return 0
	}
	if (q.month != 0 && e.month != q.month) || (q.year != 0 && e.year != q.year) {
		return 0
	}
	return 1
}
