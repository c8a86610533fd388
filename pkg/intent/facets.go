package intent

import (
	"slices"
	"sync"

	"github.com/recmem/recmem/pkg/text"
)

// Facet is one facet of the catalog as an instruction can ask of it: its
// name and type, and its values (a text or list facet) or its range and unit
// (a number facet). It is what another reader of the instruction (pkg/llm's
// parse step) is shown of the catalog, and what it may answer with.
type Facet struct {
	Name     string
	Type     string // ColText, ColList or ColNumber
	Unit     string // a number facet's unit: year, price, age, rating, minutes, or ""
	Inferred bool   // its values were inferred from the data rather than given
	// Values are a text or list facet's values as the catalog spells them,
	// the most common first (ties in the order of their normalized words).
	Values []string
	// Counts[i] is the number of items that hold Values[i].
	Counts []int
	// Min and Max are a number facet's range.
	Min, Max float64
}

// facetCache holds Facets, built on the first call.
type facetCache struct {
	once   sync.Once
	facets []Facet
}

// Facets describes the catalog's facets but the title, in column order: each
// text or list facet with its values, the most common first, and each number
// facet with its range. O(items · values) on the first call, then O(1); the
// result is shared and must not be changed.
func (l *Linker) Facets() []Facet {
	l.lazy.facets.once.Do(func() { l.lazy.facets.facets = l.facetList() })
	return l.lazy.facets.facets
}

func (l *Linker) facetList() []Facet {
	var out []Facet
	for k, c := range l.cols {
		if k == l.titleCol {
			continue
		}
		f := Facet{Name: c.Name, Type: c.Type, Unit: c.Unit, Inferred: c.Inferred}
		if c.Type == ColNumber {
			f.Min, f.Max = c.Min, c.Max
			out = append(out, f)
			continue
		}
		counts := map[string]int{}
		for i := range l.items {
			vs := l.catalogItem(i).facets[c.Name]
			for j, key := range vs {
				if !slices.Contains(vs[:j], key) {
					counts[key]++
				}
			}
		}
		keys := sortedKeys(counts)
		slices.SortStableFunc(keys, func(a, b string) int { return counts[b] - counts[a] })
		for _, key := range keys {
			if v, ok := l.spelling(c.Name, key); ok {
				f.Values = append(f.Values, v)
				f.Counts = append(f.Counts, counts[key])
			}
		}
		if len(f.Values) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// spelling is the catalog's own spelling of a facet's value from its
// normalized words (the first the catalog or the table's aliases gave: an
// alias of the value itself is listed first, and its entity stands for
// both).
func (l *Linker) spelling(facet, key string) (string, bool) {
	for _, e := range l.phrases[key] {
		if e.Facet == facet && text.Key(e.Value) == key {
			return e.Value, true
		}
	}
	return "", false
}

// facetNamed returns the facet called name (not the title), if any.
func (l *Linker) facetNamed(name string) (Facet, bool) {
	for _, f := range l.Facets() {
		if f.Name == name {
			return f, true
		}
	}
	return Facet{}, false
}
