package intent

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Another reader of an instruction, a language model behind the host (pkg/
// llm's parse step), may ground the words this interpreter left unknown. What
// it may add is held here to what this package would add itself: a value the
// catalog has (ValueClause) or a range of a number facet (RangeClause), in the
// scope the interpreter read the word in (UnknownScope), never against a
// clause the interpreter grounded (Same, Widens). The words it grounds leave
// Unknown (Resolve), and the clauses it adds say How HowLLM.

// Scopes of an unknown word, as UnknownScope says them, and the lists of an
// intent a clause goes into.
const (
	ScopeOnly    = "only"    // asked for: a plain request, or after "only"
	ScopeExclude = "exclude" // negated
	ScopePrefer  = "prefer"  // a hedged request
	ScopeAvoid   = "avoid"   // a hedged negation
)

// scopeName names the list a parser scope puts clauses in.
func scopeName(s scope) string {
	switch s {
	case scopeExclude:
		return ScopeExclude
	case scopeAvoid:
		return ScopeAvoid
	case scopePrefer:
		return ScopePrefer
	}
	return ScopeOnly
}

// unknownWord is how the parser read a word of Unknown: the scope it stood in
// and its normalized form (the one Positive and Negative hold).
type unknownWord struct {
	scope, norm string
}

// UnknownScope says how the interpreter read the word w of Unknown: ScopeOnly,
// ScopeExclude, ScopePrefer or ScopeAvoid (the list a clause of its own
// would have gone into); "" when w is not in Unknown.
func (in *Intent) UnknownScope(w string) string {
	if k := slices.Index(in.Unknown, w); k >= 0 && k < len(in.unknownAt) {
		return in.unknownAt[k].scope
	}
	return ""
}

// Resolve removes words of Unknown that another reader grounded: from
// Unknown, from the hint words read from them (Positive, Negative,
// NegatedUnknown) and from the notes that said they matched nothing.
// O(words · (unknown + notes)).
func (in *Intent) Resolve(words []string) {
	for _, w := range words {
		k := slices.Index(in.Unknown, w)
		if k < 0 {
			continue
		}
		norm := ""
		if k < len(in.unknownAt) {
			norm = in.unknownAt[k].norm
			in.unknownAt = slices.Delete(slices.Clone(in.unknownAt), k, k+1)
		}
		in.Unknown = slices.Delete(slices.Clone(in.Unknown), k, k+1)
		drop := func(xs []string, x string) []string {
			return slices.DeleteFunc(slices.Clone(xs), func(s string) bool { return s == x })
		}
		in.Positive, in.Negative = drop(in.Positive, norm), drop(in.Negative, norm)
		in.NegatedUnknown = drop(in.NegatedUnknown, w)
		prefix := strconv.Quote(w) + " after "
		in.Notes = slices.DeleteFunc(slices.Clone(in.Notes), func(n string) bool { return strings.HasPrefix(n, prefix) })
	}
}

// ValueClause returns the clause that names value of facet as the catalog
// spells it (matched after normalization: case, accents and punctuation do
// not matter), with How HowLLM and no Text; ok is false when facet is the
// title or not a facet of the catalog, or has no such value. O(1).
func (l *Linker) ValueClause(facet, value string) (Clause, bool) {
	f, ok := l.facetNamed(facet)
	if !ok || f.Type == ColNumber {
		return Clause{}, false
	}
	key := text.Key(value)
	v, ok := l.spelling(facet, key)
	if !ok {
		return Clause{}, false
	}
	return Clause{Facet: facet, Value: v, How: HowLLM, key: key}, true
}

// RangeClause returns the clause of a number facet for the range [min, max]
// (a nil bound is open), with How HowLLM and the facet's unit, worded as the
// interpreter words its ranges ("1970 to 1979", "at most 1960"). It fails,
// naming why, when facet is not a number facet of the catalog, neither bound
// is given, a bound is not finite, min is above max, or the range holds none
// of the facet's values. O(facets).
func (l *Linker) RangeClause(facet string, min, max *float64) (Clause, error) {
	f, ok := l.facetNamed(facet)
	switch {
	case !ok:
		return Clause{}, fmt.Errorf("%q is not a facet of the catalog", facet)
	case f.Type != ColNumber:
		return Clause{}, fmt.Errorf("%q is not a number facet", facet)
	case min == nil && max == nil:
		return Clause{}, errors.New("a range needs a min or a max")
	case min != nil && (math.IsNaN(*min) || math.IsInf(*min, 0)), max != nil && (math.IsNaN(*max) || math.IsInf(*max, 0)):
		return Clause{}, errors.New("a bound is not a finite number")
	case min != nil && max != nil && *min > *max:
		return Clause{}, fmt.Errorf("min %g is above max %g", *min, *max)
	case (max != nil && *max < f.Min) || (min != nil && *min > f.Max):
		return Clause{}, fmt.Errorf("the range matches nothing in this catalog (its %s run from %s to %s)", f.Name,
			strconv.FormatFloat(f.Min, 'f', -1, 64), strconv.FormatFloat(f.Max, 'f', -1, 64))
	}
	m := mention{min: min, max: max}
	label := m.label()
	return Clause{Facet: facet, Value: label, How: HowLLM, Min: min, Max: max, Unit: f.Unit, key: facet + " " + label}, nil
}

// Same reports whether c and o name the same value of the same facet (or the
// same range of a number facet).
func (c Clause) Same(o Clause) bool {
	k1, k2 := c.key, o.key
	if k1 == "" {
		k1 = text.Key(c.Value)
	}
	if k2 == "" {
		k2 = text.Key(o.Value)
	}
	return c.Facet == o.Facet && k1 == k2
}

// Numeric reports whether c is a range of a number facet.
func (c Clause) Numeric() bool { return c.How == HowNumber || c.Min != nil || c.Max != nil }

// Widens reports whether an Only clause c added to in would be an
// alternative of an Only clause in already holds (one facet's values are
// alternatives, the title and title facets one group; a list facet's values
// are all asked for), and so would let through items that in keeps out.
// O(clauses).
func (l *Linker) Widens(in *Intent, c Clause) bool {
	if l.isList(c.Facet) {
		return false
	}
	g := l.GroupOf(c.Facet)
	return slices.ContainsFunc(in.Only, func(o Clause) bool { return l.GroupOf(o.Facet) == g })
}

// ModelSupportCos is the word-vector cosine at which a word supports a value
// another reader (a language model) named for it (Supports). Below the
// interpreter's own DefaultSynonymCos (0.7), which grounds a word in the
// nearest value with nothing else to go on: here the model chose the value
// and the vectors only confirm that the word is about it. 0.5 was chosen
// from a few pairs of the development cases' words, before any model answer
// was measured ("grown" and Mature 0.71, "together" and Family 0.61 pass;
// "easy" and Family 0.31, "cheap" and digital 0.28, "relaxing" and
// Simulation 0.00 do not).
const ModelSupportCos = 0.5

// rangeWords are, per unit, the words whose meaning is a range of it: low
// values (a range with a max: "old" films, "cheap" games) or high ones (a
// min). A range another reader names for a word must have the open side of
// the words near it.
var rangeWords = map[string][2][]string{
	UnitYear:    {{"old", "older", "classic", "vintage", "early"}, {"new", "newer", "recent", "modern", "latest"}},
	UnitPrice:   {{"cheap", "inexpensive", "affordable", "budget"}, {"expensive", "pricey", "premium", "luxury"}},
	UnitMinutes: {{"short", "quick", "brief"}, {"long", "lengthy", "epic"}},
	UnitRating:  {{"bad", "poor", "worst"}, {"good", "best", "acclaimed", "top"}},
	UnitAge:     {{"kid", "young", "child", "toddler"}, {"adult", "mature", "grown"}},
}

// Supports says whether the word w, as typed, is about the clause c that
// another reader named for it, and why: for a value, one of w and a word of
// the value (four letters or more) begins with the other ("horrorfilme" and
// Horror) or they are a typo apart (one edit from four letters, two from
// five: "dooty" and Duty), or their word-vector cosine is at least
// ModelSupportCos; for a range, w is that near a word of the unit's
// rangeWords on the range's side. A word or value the vectors do not know
// is supported by its spelling only. O(value words · len(w)²) plus the
// vectors.
func (l *Linker) Supports(w string, c Clause) (string, bool) {
	ws := text.AnalyzedWords(w)
	if len(ws) != 1 {
		return "", false
	}
	word := ws[0]
	if c.Numeric() {
		f, ok := l.facetNamed(c.Facet)
		side := 0 // 0: a max (low values), 1: a min (high values)
		if c.Max == nil {
			side = 1
		}
		if !ok || c.Min != nil && c.Max != nil {
			return "", false // a closed range is no word's meaning
		}
		for _, r := range rangeWords[f.Unit][side] {
			if word == r {
				return fmt.Sprintf("%q is a word for %s %s", w, []string{"low", "high"}[side], unitNoun[f.Unit]), true
			}
			if x, ok := l.cosine([]string{word}, []string{r}); ok && x >= ModelSupportCos {
				return fmt.Sprintf("%q is near %q (word-vector similarity %.2f)", w, r, x), true
			}
		}
		return "", false
	}
	vs := text.AnalyzedWords(c.Value)
	for _, v := range vs {
		switch {
		case len(v) >= 4 && len(word) >= 4 && (strings.HasPrefix(word, v) || strings.HasPrefix(v, word)):
			return fmt.Sprintf("%q begins like %q", w, v), true
		case len(word) >= 4 && editDistance(word, v, min(2, len(word)-3)) <= min(2, len(word)-3):
			return fmt.Sprintf("%q is a typo of %q", w, v), true
		}
	}
	if x, ok := l.cosine([]string{word}, vs); ok && x >= ModelSupportCos {
		return fmt.Sprintf("word-vector similarity %.2f", x), true
	}
	return "", false
}

// cosine is the word-vector cosine of two runs of normalized words (each
// averaged), rounded to 4 decimals so that every host decides alike; ok is
// false when the table lacks a word.
func (l *Linker) cosine(a, b []string) (float64, bool) {
	if l.WordVec == nil {
		return 0, false
	}
	x, y := l.embed(a), l.embed(b)
	if x == nil || y == nil {
		return 0, false
	}
	var dot float32
	for k, v := range x {
		dot += v * y[k]
	}
	return math.Round(float64(dot)*1e4) / 1e4, true
}
