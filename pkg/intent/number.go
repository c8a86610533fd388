package intent

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Numbers in instructions: years ("from 1995"), decades ("the seventies",
// "80s", "années 80", "los ochenta", "80er"), comparisons ("before 1970",
// "newer than 2010", "at least 4 stars", "under $30", "between 1980 and
// 1985", "90 minutes or less"), ages ("for my 7-year-old", "kids under 10")
// and prices. A number is grounded only in a number facet of its unit that
// the catalog has (a price needs a price facet); otherwise the instruction
// says so in a note and nothing is filtered. A number and its unit are never
// read as title words.

// Units of numbers (as catalog facets declare them, UnitOf).
const (
	UnitYear    = "year"
	UnitPrice   = "price"
	UnitRating  = "rating"
	UnitMinutes = "minutes"
	UnitAge     = "age"
)

// unitNames maps a column name's words to the unit of its numbers.
var unitNames = map[string]string{
	"year": UnitYear, "years": UnitYear, "released": UnitYear, "release": UnitYear, "date": UnitYear,
	"price": UnitPrice, "cost": UnitPrice, "usd": UnitPrice, "eur": UnitPrice, "msrp": UnitPrice,
	"rating": UnitRating, "stars": UnitRating, "score": UnitRating,
	"duration": UnitMinutes, "runtime": UnitMinutes, "minutes": UnitMinutes, "length": UnitMinutes,
	"age": UnitAge, "pegi": UnitAge, "minage": UnitAge,
}

// UnitOf infers the unit of a number column from its name ("release_year"
// → "year", "price_usd" → "price"); "" when no word of the name says.
func UnitOf(name string) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if u, ok := unitNames[w]; ok {
			return u
		}
	}
	return ""
}

// parseNumber reads a finite number ("1995", "29.99").
func parseNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// What people call the units, after the number ("30 dollars") or before it
// ("age 7", "rated 4").
var (
	unitAfter = map[string]string{
		"dollar": UnitPrice, "buck": UnitPrice, "euro": UnitPrice, "pound": UnitPrice, "quid": UnitPrice, "usd": UnitPrice,
		"eur": UnitPrice, "gbp": UnitPrice, "dolar": UnitPrice, "dolare": UnitPrice, "dollaro": UnitPrice,
		"star": UnitRating, "estrella": UnitRating, "etoile": UnitRating, "sterne": UnitRating, "stern": UnitRating,
		"minute": UnitMinutes, "min": UnitMinutes, "mins": UnitMinutes, "minuto": UnitMinutes, "minuten": UnitMinutes,
		"hour": UnitMinutes, "hr": UnitMinutes, "hrs": UnitMinutes, "h": UnitMinutes, "heure": UnitMinutes, "hora": UnitMinutes, "stunde": UnitMinutes, "stunden": UnitMinutes,
		"yo": UnitAge, "yr": UnitAge, "ans": UnitAge, "ano": UnitAge, "jahre": UnitAge, "jahrige": UnitAge, "jahrigen": UnitAge,
	}
	unitBefore = map[string]string{
		"age": UnitAge, "aged": UnitAge, "ages": UnitAge, "rated": UnitRating, "rating": UnitRating, "year": UnitYear,
	}
	hours = map[string]bool{"hour": true, "hr": true, "hrs": true, "h": true, "heure": true, "hora": true, "stunde": true, "stunden": true}
	// numberWords are the small numbers people write in words (ages, stars).
	numberWords = map[string]float64{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
		"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
		"sixteen": 16, "seventeen": 17, "eighteen": 18}
	germanNumbers = map[string]float64{"ein": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8,
		"neun": 9, "zehn": 10, "elf": 11, "zwolf": 12, "dreizehn": 13, "vierzehn": 14, "funfzehn": 15, "sechzehn": 16, "siebzehn": 17}
	// teenWords name an age in words (read as 15).
	teenWords = map[string]bool{"teen": true, "teenager": true, "teenage": true, "adolescent": true, "ado": true, "adolescente": true, "jugendlich": true, "jugendliche": true}
	// decadeWords name decades in words: English, Spanish, German.
	decadeWords = map[string]float64{"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
		"seventies": 70, "eighties": 80, "nineties": 90, "noughties": 2000, "aughts": 2000,
		"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90,
		"dreissiger": 30, "vierziger": 40, "funfziger": 50, "sechziger": 60, "siebziger": 70, "achtziger": 80, "neunziger": 90}
	// decadeLead are the words that make the number after them a decade
	// ("années 80", "los 80", "the 80s" is read from the s).
	decadeLead = map[string]bool{"annee": true, "ano": true, "anos": true, "los": true, "decada": true, "decade": true}
	// decadeTail are the words that may follow a decade ("80er Jahre").
	decadeTail = map[string]bool{"jahre": true, "jahren": true, "ans": true, "ano": true, "year": true}
)

// normalizeNumberWords rewrites the word tables' keys in the analyzer's
// form ("seventies" → "seventy", "anteriores a" → "anteriore a"), once,
// before the grammar lists their words (grammar.go's init).
func normalizeNumberWords() {
	norm := map[string]float64{}
	for w, v := range decadeWords {
		norm[text.Norm(w)] = v
	}
	decadeWords = norm
	for _, m := range []map[string]comparator{comparators, postfixes} {
		for k, v := range m {
			if n := text.Key(k); n != k {
				delete(m, k)
				m[n] = v
			}
		}
	}
}

// numberArticles may stand between a comparison and a decade.
var numberArticles = map[string]bool{"the": true, "den": true, "der": true, "les": true, "la": true, "el": true, "die": true}

// comparator is what a comparison word does to the number after it.
type comparator int

const (
	cmpNone comparator = iota
	cmpBelow
	cmpAtMost
	cmpAbove
	cmpAtLeast
	cmpOlder   // "older than": an earlier year, or a higher age
	cmpNewer   // "newer than": a later year
	cmpYounger // "younger than": a lower age
	cmpExact   // "in 1995", "from 1995"
)

// comparators are the comparison phrases before a number, longest first.
var comparators = map[string]comparator{
	"before": cmpBelow, "earlier than": cmpBelow, "prior to": cmpBelow, "pre": cmpBelow, "under": cmpBelow, "below": cmpBelow,
	"less than": cmpBelow, "fewer than": cmpBelow, "cheaper than": cmpBelow, "lower than": cmpBelow, "shorter than": cmpBelow,
	"for less than": cmpBelow, "for under": cmpBelow, "no later than": cmpAtMost, "not after": cmpAtMost,
	"up to": cmpAtMost, "until": cmpAtMost, "till": cmpAtMost, "at most": cmpAtMost, "no more than": cmpAtMost,
	"not more than": cmpAtMost, "max": cmpAtMost, "maximum": cmpAtMost, "within": cmpAtMost, "by": cmpAtMost,
	"after": cmpAbove, "later than": cmpAbove, "more recent than": cmpAbove, "post": cmpAbove, "over": cmpAbove,
	"above": cmpAbove, "more than": cmpAbove, "greater than": cmpAbove, "higher than": cmpAbove, "longer than": cmpAbove,
	"since": cmpAtLeast, "at least": cmpAtLeast, "no less than": cmpAtLeast, "not before": cmpAtLeast, "min": cmpAtLeast,
	"minimum": cmpAtLeast, "no earlier than": cmpAtLeast, "starting": cmpAtLeast, "starting from": cmpAtLeast,
	"older than": cmpOlder, "newer than": cmpNewer, "younger than": cmpYounger,
	"in": cmpExact, "from": cmpExact, "of": cmpExact, "circa": cmpExact, "around": cmpExact,
	// French, Spanish, German.
	"anterior a": cmpBelow, "anteriores a": cmpBelow, "anterieur a": cmpBelow, "anterieurs a": cmpBelow,
	"posterior a": cmpAbove, "posteriores a": cmpAbove, "posterieur a": cmpAbove, "posterieurs a": cmpAbove, "fruher als": cmpBelow, "spater als": cmpAbove,
	"avant": cmpBelow, "moins de": cmpBelow, "antes de": cmpBelow, "menos de": cmpBelow, "vor": cmpBelow, "unter": cmpBelow,
	"weniger als": cmpBelow, "jusqu a": cmpAtMost, "hasta": cmpAtMost, "bis": cmpAtMost, "maximal": cmpAtMost,
	"apres": cmpAbove, "plus de": cmpAbove, "despues de": cmpAbove, "mas de": cmpAbove, "nach": cmpAbove, "uber": cmpAbove,
	"mehr als": cmpAbove, "depuis": cmpAtLeast, "desde": cmpAtLeast, "seit": cmpAtLeast, "au moins": cmpAtLeast,
	"al menos": cmpAtLeast, "mindestens": cmpAtLeast, "en": cmpExact, "de": cmpExact, "aus": cmpExact, "von": cmpExact,
}

var maxComparator = 3

// postfixes are the comparison phrases after a number ("1990 or later").
var postfixes = map[string]comparator{
	"or earlier": cmpAtMost, "or before": cmpAtMost, "or less": cmpAtMost, "or under": cmpAtMost, "or fewer": cmpAtMost,
	"or below": cmpAtMost, "or cheaper": cmpAtMost, "and under": cmpAtMost, "and below": cmpAtMost, "or younger": cmpAtMost,
	"or later": cmpAtLeast, "or after": cmpAtLeast, "or more": cmpAtLeast, "or above": cmpAtLeast, "or newer": cmpAtLeast,
	"and up": cmpAtLeast, "and above": cmpAtLeast, "and later": cmpAtLeast, "and older": cmpAtLeast, "onward": cmpAtLeast,
	"onwards": cmpAtLeast, "on": cmpAtLeast, "and beyond": cmpAtLeast, "or older": cmpAtLeast, "plus": cmpAtLeast,
	"ou plus": cmpAtLeast, "ou moins": cmpAtMost, "o mas": cmpAtLeast, "o menos": cmpAtMost, "oder mehr": cmpAtLeast,
	"oder weniger": cmpAtMost, "und alter": cmpAtLeast,
}

// rangeWords open ("between", "from") and join ("and", "to") a range.
var (
	rangeOpen = map[string]bool{"between": true, "from": true, "entre": true, "zwischen": true, "von": true, "desde": true, "de": true}
	rangeJoin = map[string]bool{"and": true, "to": true, "through": true, "thru": true, "until": true, "till": true,
		"et": true, "a": true, "y": true, "und": true, "bis": true, "hasta": true}
)

// mention is a number read from an instruction, before it is grounded.
type mention struct {
	unit     string // UnitYear, …, or "" when the words did not say
	min, max *float64
	minOpen  bool
	maxOpen  bool
	decade   bool
	words    string // the words as typed
	swapped  bool   // a range written upside down
}

// numAt reads one number at token j: digits ("1995", "29.99"), a currency
// sign and digits ("$30"), a number word ("seven"), a decade ("1970s",
// "80s", "seventies", "80er") or a decade after its lead word ("années
// 80"). n is the tokens read, unit what the number itself says (price after
// a currency sign, year for a decade), decade whether it names ten years.
func (p *parser) numAt(j int) (v float64, n int, unit string, decade bool) {
	if j >= len(p.toks) {
		return 0, 0, "", false
	}
	t := p.toks[j]
	if t.Mark == '$' {
		if v, n, _, d := p.numAt(j + 1); n > 0 && !d {
			return v, n + 1, UnitPrice, false
		}
		return 0, 0, "", false
	}
	if t.Mark != 0 {
		return 0, 0, "", false
	}
	w := t.Orig
	if decadeLead[t.Norm] {
		if v, n, _, _ := p.numAt(j + 1); n == 1 && isDecadeNumber(v) {
			return decadeStart(v), 2, UnitYear, true
		}
	}
	if x, ok := decadeWords[t.Norm]; ok {
		return decadeStart(x), 1, UnitYear, true
	}
	if x, ok := numberWords[t.Norm]; ok {
		return x, 1, "", false
	}
	// German compounds of an age: "achtjährigen", "8-jährige" (the hyphen
	// splits the second: "8" then "jahrige").
	for _, suf := range []string{"jahrigen", "jahriger", "jahrige", "jahrig"} {
		if n, ok := strings.CutSuffix(t.Norm, suf); ok {
			if x, ok := germanNumbers[n]; ok {
				return x, 1, UnitAge, false
			}
		}
	}
	if teenWords[t.Norm] {
		return 15, 1, UnitAge, false
	}
	// "1970s", "70s", "80er", "90ern": a decade.
	for _, suf := range []string{"s", "er", "ern"} {
		if d := strings.TrimSuffix(w, suf); d != w && isDigits(d) {
			if x, _ := strconv.Atoi(d); isDecadeNumber(float64(x)) {
				return decadeStart(float64(x)), 1, UnitYear, true
			}
		}
	}
	if x, ok := parseNumber(w); ok && (isDigits(w) || strings.Count(w, ".") == 1) {
		n := 1
		if p.isWord(j+1) && p.toks[j+1].Norm == "k" { // "30k"
			x *= 1000
			n++
		}
		return x, n, "", false
	}
	return 0, 0, "", false
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// isDecadeNumber reports whether x names a decade: 20, 30 … 90, 0 ("00s"),
// 10, or a year ending in 0.
func isDecadeNumber(x float64) bool {
	return x == math.Trunc(x) && x >= 0 && int(x)%10 == 0 && (x < 100 || (x >= 1800 && x <= 2100))
}

// decadeStart turns "70" into 1970 and "10" or "0" into 2010 or 2000.
func decadeStart(x float64) float64 {
	switch {
	case x >= 100:
		return x
	case x < 20:
		return 2000 + x
	}
	return 1900 + x
}

// phraseAt returns the length of the longest phrase of m starting at token
// j, and its value.
func phraseAt[V any](p *parser, j int, m map[string]V, longest int) (int, V) {
	var zero V
	for k := longest; k >= 1; k-- {
		if j+k > len(p.toks) {
			continue
		}
		ws := make([]string, 0, k)
		for q := j; q < j+k; q++ {
			if !p.isWord(q) {
				break
			}
			ws = append(ws, p.toks[q].Norm)
		}
		if len(ws) < k {
			continue
		}
		if v, ok := m[strings.Join(ws, " ")]; ok {
			return k, v
		}
	}
	return 0, zero
}

// unitAt reads a unit word after a number: "dollars", "stars", "minutes",
// "years old", "year-old", "yo", or a currency sign ("30€").
func (p *parser) unitAt(j int) (n int, unit string, scale float64) {
	if j < len(p.toks) && p.toks[j].Mark == '$' {
		return 1, UnitPrice, 1
	}
	if !p.isWord(j) {
		return 0, "", 1
	}
	w := p.toks[j].Norm
	if w == "year" || w == "yr" || w == "ans" || w == "ano" || w == "jahre" {
		if p.isWord(j+1) && (p.toks[j+1].Norm == "old" || p.toks[j+1].Norm == "olds") {
			return 2, UnitAge, 1
		}
		if w != "year" {
			return 1, UnitAge, 1
		}
		return 0, "", 1
	}
	if u, ok := unitAfter[w]; ok {
		if hours[w] {
			return 1, u, 60
		}
		return 1, u, 1
	}
	if name := p.l.namedNumber(w); name != "" {
		return 1, name, 1 // "300 pages": the catalog's "pages" facet
	}
	return 0, "", 1
}

// numeric reads a number expression starting at token i: a range, a
// comparison, a number with its unit, a decade or a year. It returns the
// tokens read and the mention (nil, 0 when there is none).
func (p *parser) numeric(i int) (int, *mention) {
	j := i
	cmp := cmpNone
	unit := ""
	// A unit word before: "age 7", "ages 8 and up", "rated 4", "year 1995".
	if p.isWord(j) {
		if u, ok := unitBefore[p.toks[j].Norm]; ok {
			if _, n, _, _ := p.numAt(j + 1); n > 0 {
				unit = u
				j++
			} else if k, _ := phraseAt(p, j+1, comparators, maxComparator); k > 0 {
				if _, n, _, _ := p.numAt(j + 1 + k); n > 0 { // "rated above 3"
					unit = u
					j++
				}
			}
		}
	}
	// A range: "between 1980 and 1985", "from 1990 to 1995", "1990 to 1995".
	if m, n := p.rangeAt(j, unit); m != nil {
		m.words = p.span(i, n+j-i)
		return n + j - i, m
	}
	if k, c := phraseAt(p, j, comparators, maxComparator); k > 0 {
		if p.isWord(j+k) && numberArticles[p.toks[j+k].Norm] {
			if _, n, _, d := p.numAt(j + k + 1); n > 0 && d {
				k++ // "from the 80s", "aus den 90ern"
			}
		}
		if _, n, _, _ := p.numAt(j + k); n > 0 {
			cmp = c
			j += k
		} else if p.isWord(j+k) && unitBefore[p.toks[j+k].Norm] != "" {
			if _, n, _, _ := p.numAt(j + k + 1); n > 0 { // "under age 10", "before year 5"
				cmp, unit = c, unitBefore[p.toks[j+k].Norm]
				j += k + 1
			}
		}
	}
	v, n, u, decade := p.numAt(j)
	if n == 0 {
		return 0, nil
	}
	j += n
	if u != "" {
		unit = u
	}
	if decade && p.isWord(j) && decadeTail[p.toks[j].Norm] {
		j++
	}
	if p.isWord(j) && (p.toks[j].Norm == "jahrige" || p.toks[j].Norm == "jahrigen" || p.toks[j].Norm == "jahriger") && !decade {
		unit = UnitAge // "8-jährige"
		j++
	}
	if k, uu, scale := p.unitAt(j); k > 0 && !decade {
		if unit == "" || unit == uu {
			unit = uu
			v *= scale
			j += k
		}
	}
	if k, c := phraseAt(p, j, postfixes, 2); k > 0 && cmp == cmpNone {
		cmp = c
		j += k
	} else if j < len(p.toks) && p.toks[j].Mark == ',' && cmp == cmpNone && p.plusAt(j) {
		cmp = cmpAtLeast // "8+"
		j++
	}
	// A bare number with nothing to say what it counts: a year when it
	// looks like one; a lone small number ("Final Fantasy 7", "top 10") is
	// left to the other rules.
	if unit == "" && !decade {
		switch {
		case v >= 1800 && v <= 2100 && v == math.Trunc(v):
			unit = UnitYear
		case cmp != cmpNone && v < 100 && v == math.Trunc(v) && p.twoDigitYear(&v):
			unit = UnitYear // "a movie from '95", "before 85"
		case v >= 1 && v <= 17 && v == math.Trunc(v) && p.childBefore(i):
			unit = UnitAge // "my son is 9", "my daughter, she's 8"
		case cmp == cmpNone || cmp == cmpExact:
			return 0, nil
		}
	}
	if cmp == cmpExact && (unit != UnitYear || decade) && unit != "" {
		cmp = cmpNone
	}
	m := &mention{unit: unit, decade: decade, words: p.span(i, j-i)}
	m.bound(v, cmp)
	return j - i, m
}

// plusAt reports whether the soft mark at j is a "+" right after a number.
func (p *parser) plusAt(j int) bool { return j < len(p.toks) && p.toks[j].Orig == "+" }

// rangeAt reads "between A and B", "from A to B", "A to B", "A-B" at j,
// and returns the tokens read.
func (p *parser) rangeAt(j int, unit string) (*mention, int) {
	start := j
	open := p.isWord(j) && rangeOpen[p.toks[j].Norm]
	if open {
		j++
	}
	a, n, ua, da := p.numAt(j)
	if n == 0 {
		return nil, 0
	}
	j += n
	k, ub, scale := p.unitAt(j)
	if k > 0 && ua == "" {
		ua = ub
		a *= scale
		j += k
	}
	switch {
	case p.isWord(j) && rangeJoin[p.toks[j].Norm]:
		j++
	case !open && p.hyphenBetween(j):
		// "1970-1979": the analyzer dropped the hyphen between two years
	default:
		return nil, 0
	}
	b, n2, ub2, db := p.numAt(j)
	if n2 == 0 {
		return nil, 0
	}
	j += n2
	if k, uu, sc := p.unitAt(j); k > 0 {
		if ub2 == "" {
			ub2 = uu
		}
		if ua == "" {
			a *= sc
		}
		b *= sc
		j += k
	}
	u := unit
	for _, x := range []string{ua, ub2} {
		if u == "" {
			u = x
		}
	}
	if u == "" {
		if a >= 1800 && a <= 2100 && b >= 1800 && b <= 2100 {
			u = UnitYear
		} else if !open {
			return nil, 0 // "3 to 4" alone says nothing
		}
	}
	m := &mention{unit: u}
	lo, hi := a, b
	if db {
		hi = b + 9
	}
	if lo > hi {
		lo, hi = b, a
		if da {
			hi = a + 9
		}
		m.swapped = true
	}
	m.min, m.max = &lo, &hi
	return m, j - start
}

// hyphenBetween reports whether the words before j and at j were written
// with only a hyphen between them ("1970-1979"): the analyzer drops the
// hyphen, so this reads the original words' shapes: both numbers.
func (p *parser) hyphenBetween(j int) bool {
	return j > 0 && j < len(p.toks) && isDigits(p.toks[j-1].Orig) && isDigits(p.toks[j].Orig) && len(p.toks[j-1].Orig) == 4 && len(p.toks[j].Orig) == 4
}

// bound sets the mention's range from a number and its comparator.
func (m *mention) bound(v float64, cmp comparator) {
	lo, hi := v, v
	if m.decade {
		hi = v + 9
	}
	integer := m.unit == UnitYear || m.unit == UnitAge
	set := func(min, max *float64, minOpen, maxOpen bool) {
		m.min, m.max = min, max
		if integer { // a whole number: an open bound is the next one
			if minOpen && min != nil {
				x := *min + 1
				m.min = &x
			}
			if maxOpen && max != nil {
				x := *max - 1
				m.max = &x
			}
			return
		}
		m.minOpen, m.maxOpen = minOpen, maxOpen
	}
	switch cmp {
	case cmpBelow:
		set(nil, &lo, false, true)
	case cmpAtMost:
		set(nil, &hi, false, false)
	case cmpAbove:
		set(&hi, nil, true, false)
	case cmpAtLeast:
		set(&lo, nil, false, false)
	case cmpOlder:
		if m.unit == UnitAge {
			set(&hi, nil, true, false)
		} else {
			m.unit = UnitYear
			set(nil, &lo, false, true)
		}
	case cmpNewer:
		m.unit = UnitYear
		set(&hi, nil, true, false)
	case cmpYounger:
		set(nil, &lo, false, true)
	default:
		set(&lo, &hi, false, false)
	}
}

// label writes the mention's range in words: "1970 to 1979", "before
// 1970", "at most 30", "1995".
func (m *mention) label() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case m.min != nil && m.max != nil && *m.min == *m.max:
		return f(*m.min)
	case m.min != nil && m.max != nil:
		return f(*m.min) + " to " + f(*m.max)
	case m.max != nil && m.maxOpen:
		return "under " + f(*m.max)
	case m.max != nil:
		return "at most " + f(*m.max)
	case m.min != nil && m.minOpen:
		return "over " + f(*m.min)
	case m.min != nil:
		return "at least " + f(*m.min)
	}
	return ""
}

// unitNoun names what a unit counts, for notes: "this catalog has no prices".
var unitNoun = map[string]string{UnitYear: "years", UnitPrice: "prices", UnitRating: "ratings", UnitMinutes: "durations", UnitAge: "age ratings"}

// numberColumn returns the catalog's (or the request's) number facet of a
// unit, "" when there is none.
func (l *Linker) numberColumn(unit string, x *Extra) (Column, bool) {
	for _, c := range l.cols {
		if c.Type == ColNumber && c.Unit == unit {
			return c, true
		}
	}
	for _, c := range l.cols { // a facet named by its own word ("pages")
		if c.Type == ColNumber && c.Name == unit && unitNoun[c.Unit] == "" {
			return c, true
		}
	}
	if x != nil {
		if f, ok := x.units[unit]; ok {
			return Column{Name: f, Type: ColNumber, Unit: unit, Min: math.Inf(-1), Max: math.Inf(1)}, true
		}
	}
	return Column{}, false
}

// ground turns a number mention into a clause of a number facet, or says in
// a note why it is not used.
func (p *parser) groundNumber(m *mention) (Clause, bool) {
	col, ok := p.l.numberColumn(m.unit, p.x)
	if !ok {
		noun := unitNoun[m.unit]
		if noun == "" {
			noun = "numbers of that kind"
		}
		p.note(fmt.Sprintf("this catalog has no %s: %q is not used", noun, m.words))
		return Clause{}, false
	}
	if m.swapped {
		p.note(fmt.Sprintf("%q is read as %s", m.words, m.label()))
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	if m.min != nil {
		lo = *m.min
	}
	if m.max != nil {
		hi = *m.max
	}
	if hi < col.Min || lo > col.Max || (m.maxOpen && hi <= col.Min) || (m.minOpen && lo >= col.Max) {
		p.note(fmt.Sprintf("%q matches nothing in this catalog (its %s run from %s to %s): not used", m.words, col.Name,
			strconv.FormatFloat(col.Min, 'f', -1, 64), strconv.FormatFloat(col.Max, 'f', -1, 64)))
		return Clause{}, false
	}
	c := Clause{Facet: col.Name, Value: m.label(), Text: m.words, How: HowNumber, Min: m.min, Max: m.max,
		Unit: m.unit, MinOpen: m.minOpen, MaxOpen: m.maxOpen, key: col.Name + " " + m.label()}
	return c, true
}

// groundAge grounds an age ("for my 7-year-old", "kids under 10"): in an
// age facet when the catalog has one (the items whose minimum age is at most
// the child's); else, for a child of 12 or less, in the catalog's values for
// children (the lexicon's Children's, Kids, Family: a filter when the
// catalog gives them, a preference when it only infers them), and, under
// 17, away from its values for adults (the lexicon's Mature, when the
// catalog has them); else a note says the catalog has no age ratings.
// It places the clauses itself and reports whether it placed any.
func (p *parser) groundAge(m *mention) bool {
	age := math.Inf(1)
	if m.max != nil {
		age = *m.max
	} else if m.min != nil {
		age = *m.min
	}
	a := strconv.FormatFloat(age, 'f', -1, 64)
	if col, ok := p.l.numberColumn(UnitAge, p.x); ok {
		x := age
		p.place(Clause{Facet: col.Name, Value: "suitable from age " + a + " or younger", Text: m.words, How: HowNumber,
			Max: &x, Unit: UnitAge, key: col.Name + " age " + a})
		return true
	}
	placed := false
	if p.mode == scopePositive || p.mode == scopeOnly || p.mode == scopePrefer {
		if ents := p.l.lookup("kid", p.x); age <= 12 && len(ents) > 0 {
			e := ents[0]
			c := Clause{Facet: e.Facet, Value: e.Value, Text: m.words, How: p.l.howOf(e), key: text.Key(e.Value),
				Detail: fmt.Sprintf("%s → %s (a child's age; this catalog has no age ratings)", m.words, e.Value)}
			if c.How == HowInferred {
				c.Detail = fmt.Sprintf("%s → %s first (a child's age; this catalog has no age ratings, and %s is inferred from titles)", m.words, e.Value, e.Value)
				p.in.Prefer = append(p.in.Prefer, c)
			} else {
				p.place(c)
			}
			placed = true
		}
		if ents := p.l.lookup("mature", p.x); age < 17 && len(ents) > 0 {
			e := ents[0]
			p.in.Exclude = append(p.in.Exclude, Clause{Facet: e.Facet, Value: e.Value, Text: m.words, How: p.l.howOf(e), key: text.Key(e.Value),
				Detail: fmt.Sprintf("%s → not %s (too young for it)", m.words, e.Value), HintWords: text.AnalyzedWords(e.Value)})
			placed = true
		}
	}
	if !placed {
		p.note(fmt.Sprintf("this catalog has no age ratings: %q is not used", m.words))
	}
	return placed
}

// onlyNumberColumn returns the catalog's one number facet whose range holds
// a mention that did not say its unit ("under 20" on a catalog whose only
// number is a price).
func (l *Linker) onlyNumberColumn(m *mention) (Column, bool) {
	var found []Column
	for _, c := range l.cols {
		if c.Type != ColNumber || c.Unit == "" {
			continue
		}
		v := m.min
		if v == nil {
			v = m.max
		}
		if v != nil && *v >= c.Min && *v <= c.Max {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		return Column{}, false
	}
	return found[0], true
}

// twoDigitYear reads a two-digit number as a year of the catalog's year
// facet ("'95" → 1995, "05" → 2005), when one of the two centuries falls in
// its range; it writes the year to v.
func (p *parser) twoDigitYear(v *float64) bool {
	col, ok := p.l.numberColumn(UnitYear, p.x)
	if !ok {
		return false
	}
	for _, y := range []float64{1900 + *v, 2000 + *v} {
		if y >= col.Min && y <= col.Max {
			*v = y
			return true
		}
	}
	return false
}

// childBefore reports whether a word for a child stands in the few tokens
// before i ("my son is 9", "for my little brother, he is six").
func (p *parser) childBefore(i int) bool {
	for j := max(0, i-6); j < i; j++ {
		if p.isWord(j) && childWords[p.toks[j].Norm] {
			return true
		}
	}
	return false
}
