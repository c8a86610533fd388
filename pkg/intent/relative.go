package intent

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Relative words ("cheap", "top rated", "short") ask for one half of a
// number facet without a number. Each is read as the half of the
// catalog's items on its side of the facet's median: "cheap" keeps the
// items priced at most the median price, "top rated" those rated at least
// the median rating. The median is the catalog's, not the request's, so the
// same words mean the same range for every request; it is computed once per
// facet, at the first word that needs it (O(items) then, O(1) after).
//
// Words for years ("old", "recent") are not among them: what they mean
// depends on today and on the person, not on a catalog's median (on
// MovieLens 100K the median year is 1995); they stay words the interpreter
// leaves unknown, for the language model's parse step (docs/llm.md) when a
// host has one.
//
// A catalog value always wins over a relative word ("Budget" as a series,
// "Short" as a genre); a catalog with no number facet of the word's unit
// gets a note ("this catalog has no prices: \"cheap\" is not used").

// relative is what a relative word asks: the unit of the facet and whether
// it is the high half.
type relative struct {
	unit string
	high bool
}

// relativeWords are the relative phrases, in English, French, Spanish and
// German, as typed (normalized by init).
var relativeWords = map[string]relative{
	"cheap": {UnitPrice, false}, "cheaper": {UnitPrice, false}, "cheapest": {UnitPrice, false}, "inexpensive": {UnitPrice, false},
	"affordable": {UnitPrice, false}, "budget": {UnitPrice, false}, "bargain": {UnitPrice, false}, "low cost": {UnitPrice, false},
	"low priced": {UnitPrice, false}, "pas cher": {UnitPrice, false}, "pas chers": {UnitPrice, false}, "pas chere": {UnitPrice, false}, "pas cheres": {UnitPrice, false}, "bon marche": {UnitPrice, false},
	"barato": {UnitPrice, false}, "baratos": {UnitPrice, false}, "barata": {UnitPrice, false}, "baratas": {UnitPrice, false},
	"economico": {UnitPrice, false}, "economicos": {UnitPrice, false}, "billig": {UnitPrice, false}, "billige": {UnitPrice, false},
	"gunstig": {UnitPrice, false}, "gunstige": {UnitPrice, false},
	"expensive": {UnitPrice, true}, "pricey": {UnitPrice, true}, "premium": {UnitPrice, true}, "high end": {UnitPrice, true},
	"luxury": {UnitPrice, true}, "cher": {UnitPrice, true}, "chers": {UnitPrice, true}, "chere": {UnitPrice, true}, "cheres": {UnitPrice, true}, "haut de gamme": {UnitPrice, true},
	"caro": {UnitPrice, true}, "caros": {UnitPrice, true}, "de gama alta": {UnitPrice, true}, "teuer": {UnitPrice, true}, "teure": {UnitPrice, true},
	"highly rated": {UnitRating, true}, "top rated": {UnitRating, true}, "best rated": {UnitRating, true}, "highest rated": {UnitRating, true},
	"well rated": {UnitRating, true}, "well reviewed": {UnitRating, true}, "acclaimed": {UnitRating, true}, "critically acclaimed": {UnitRating, true},
	"bien note": {UnitRating, true}, "bien notes": {UnitRating, true}, "mejor valorado": {UnitRating, true}, "mejor valorados": {UnitRating, true},
	"bien valorado": {UnitRating, true}, "gut bewertet": {UnitRating, true}, "gut bewertete": {UnitRating, true},
	"short": {UnitMinutes, false}, "shorter": {UnitMinutes, false}, "quick": {UnitMinutes, false}, "court": {UnitMinutes, false},
	"courts": {UnitMinutes, false}, "corto": {UnitMinutes, false}, "cortos": {UnitMinutes, false}, "kurz": {UnitMinutes, false},
	"kurze": {UnitMinutes, false},
	"long":  {UnitMinutes, true}, "longer": {UnitMinutes, true}, "lengthy": {UnitMinutes, true}, "longs": {UnitMinutes, true},
	"largo": {UnitMinutes, true}, "largos": {UnitMinutes, true}, "lang": {UnitMinutes, true}, "lange": {UnitMinutes, true},
}

// maxRelative is the most words of a relative phrase.
var maxRelative int

func normalizeRelativeWords() {
	norm := map[string]relative{}
	for w, r := range relativeWords {
		k := text.Key(w)
		norm[k] = r
		maxRelative = max(maxRelative, len(strings.Fields(k)))
	}
	relativeWords = norm
}

// relativeAt reads a relative phrase at word i when the catalog has a
// number facet of its unit (or, for a phrase of several words, to say in a
// note that it has none), and no catalog value of as many words nor a
// longer title phrase starts there ("Modern Times" is a film, "long" alone
// is not the title words it appears in). It returns the words read (0 for
// none).
func (p *parser) relativeAt(i int) (int, relative) {
	k, r := phraseAt(p, i, relativeWords, maxRelative)
	if k == 0 {
		return 0, relative{}
	}
	if _, ok := p.l.numberColumn(r.unit, nil); !ok {
		if k == 1 {
			return 0, relative{} // a word of its own too: vectorSynonym notes it
		}
		return k, r // "top rated": addRelative notes it
	}
	if n, ents := p.entity(i, 1); n > k || (n == k && len(ents) > 0 && ents[0].Facet != "title") {
		return 0, relative{}
	}
	return k, r
}

// addRelative grounds a relative phrase of words i..i+k-1 in the half of
// its number facet, or notes why not.
func (p *parser) addRelative(i, k int, r relative) {
	p.cueUsed = true
	typed := p.span(i, k)
	col, ok := p.l.numberColumn(r.unit, nil)
	if !ok {
		p.note(fmt.Sprintf("this catalog has no %s: %q is not used", unitNoun[r.unit], typed))
		return
	}
	med, ok := p.l.median(col.Name)
	if !ok {
		p.note(fmt.Sprintf("no item of this catalog has a %s: %q is not used", col.Name, typed))
		return
	}
	x := med
	f := strconv.FormatFloat(x, 'f', -1, 64)
	c := Clause{Facet: col.Name, Text: typed, How: HowNumber, Unit: r.unit, relative: true}
	half := "lower"
	if r.high {
		c.Min, c.Value, half = &x, "at least "+f, "upper"
	} else {
		c.Max, c.Value = &x, "at most "+f
	}
	c.key = col.Name + " " + c.Value
	c.Detail = fmt.Sprintf("%s → %s %s (the %s half of this catalog's %s)", typed, col.Name, c.Value, half, col.Name)
	p.place(c)
}

// median returns the median of a number facet over the catalog's items
// that have it, computed once per facet.
func (l *Linker) median(facet string) (float64, bool) {
	l.medMu.Lock()
	defer l.medMu.Unlock()
	if v, ok := l.medians[facet]; ok {
		return v, !math.IsNaN(v)
	}
	k, ok := l.colOf[facet]
	med := math.NaN()
	if ok {
		var xs []float64
		for _, m := range l.meta {
			if k < len(m) {
				if x, ok := number(m[k]); ok {
					xs = append(xs, x)
				}
			}
		}
		if len(xs) > 0 {
			slices.Sort(xs)
			med = xs[(len(xs)-1)/2] // the lower median: a value an item has
		}
	}
	if l.medians == nil {
		l.medians = map[string]float64{}
	}
	l.medians[facet] = med
	return med, !math.IsNaN(med)
}

// dropRelative drops a relative clause when the instruction gives a number
// of the same facet ("old horror, before 1980"): the number says which
// range, and two clauses of one facet would be read as alternatives.
func (p *parser) dropRelative() {
	given := map[string]string{}
	for _, cs := range [][]Clause{p.in.Only, p.in.Exclude, p.in.Prefer, p.in.Avoid} {
		for _, c := range cs {
			if c.Numeric() && !c.relative {
				given[c.Facet] = c.Text
			}
		}
	}
	if len(given) == 0 {
		return
	}
	drop := func(cs []Clause) []Clause {
		out := cs[:0]
		for _, c := range cs {
			if t, ok := given[c.Facet]; ok && c.relative {
				p.note(fmt.Sprintf("%q gives way to %q", c.Text, t))
				continue
			}
			out = append(out, c)
		}
		return out
	}
	p.in.Only, p.in.Exclude, p.in.Prefer, p.in.Avoid = drop(p.in.Only), drop(p.in.Exclude), drop(p.in.Prefer), drop(p.in.Avoid)
}
