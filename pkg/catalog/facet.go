package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/intent"
)

// Facet types: how the values of one metadata column are read.
const (
	// TypeText is one value per item (a title, a platform, a series).
	TypeText = "text"
	// TypeList is several values per item, stored joined by ListSep
	// ("Action|Sci-Fi"): a genre list, tags. Each value is a facet value of
	// its own for filters, instructions and explanations.
	TypeList = "list"
	// TypeNumber is one number per item (a year, a price, a rating, a
	// duration): instructions compare it ("before 1970", "under $30").
	TypeNumber = "number"
)

// ListSep separates the values of a list facet in Meta.
const ListSep = "|"

// Facet describes one metadata column: its name, its type and, for a
// number, its unit and the range of its values over the catalog. A catalog
// declares its facets (the JSON form's "facets", the binary form's facet
// section, RecBole's column types through recmem train catalog); a catalog
// that declares none has them inferred from its values (InferFacets).
type Facet struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Unit is what a number counts: "year", "price", "rating", "minutes",
	// "age" (UnitOf infers it from the column's name when not declared);
	// instructions compare a number only with a facet of its unit.
	Unit string `json:"unit,omitempty"`
	// Inferred marks values inferred from the data rather than given
	// (a genre read from titles and what users bought together): the
	// interpreter says so when it grounds a word in them.
	Inferred bool `json:"inferred,omitempty"`
	// Min and Max are the range of a number facet's values (computed when
	// the catalog is finished; not read from the JSON form).
	Min float64 `json:"-"`
	Max float64 `json:"-"`
}

// Limits of a facet declaration.
const (
	maxFacetName = 64
	maxListLen   = 64 // values of one list facet on one item
)

// UnitOf infers the unit of a number column from its name ("release_year" →
// "year", "price_usd" → "price"); "" when no word of the name says.
func UnitOf(name string) string { return intent.UnitOf(name) }

// ParseNumber reads a number facet's value ("1995", "29.99"); ok is false
// for anything else, NaN and infinities included.
func ParseNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// InferFacets types the columns of a catalog that declares none: a column
// whose non-empty values all parse as numbers is a number (its unit read from
// its name); one whose values hold ListSep is a list, unless it is the title;
// anything else is text. O(items · columns).
func InferFacets(names []string, meta [][]string) []Facet {
	out := make([]Facet, len(names))
	for k, n := range names {
		f := Facet{Name: n, Type: TypeText}
		num, list, seen := true, false, false
		for _, m := range meta {
			if k >= len(m) || m[k] == "" {
				continue
			}
			seen = true
			if _, ok := ParseNumber(m[k]); !ok {
				num = false
			}
			list = list || strings.Contains(m[k], ListSep)
		}
		switch {
		case n == "title" || !seen:
		case num:
			f.Type, f.Unit = TypeNumber, UnitOf(n)
		case list:
			f.Type = TypeList
		}
		out[k] = f
	}
	return out
}

// checkFacets validates the declared facets against the columns and the
// values, and computes the number facets' ranges.
func (c *Catalog) checkFacets() error {
	if c.Facets == nil {
		c.Facets = InferFacets(c.MetaNames, c.Meta)
	}
	if len(c.Facets) != len(c.MetaNames) {
		return fmt.Errorf("%w: facets: %d declared for %d metadata columns", ErrFormat, len(c.Facets), len(c.MetaNames))
	}
	for k := range c.Facets {
		f := &c.Facets[k]
		if f.Type == "" {
			f.Type = TypeText
		}
		switch {
		case f.Name != c.MetaNames[k]:
			return fmt.Errorf("%w: facets[%d]: name %q, want the column's %q", ErrFormat, k, f.Name, c.MetaNames[k])
		case f.Type != TypeText && f.Type != TypeList && f.Type != TypeNumber:
			return fmt.Errorf("%w: facets[%d].type: %q, want text, list or number", ErrFormat, k, f.Type)
		case len(f.Unit) > maxFacetName:
			return fmt.Errorf("%w: facets[%d].unit: longer than %d bytes", ErrFormat, k, maxFacetName)
		case f.Type != TypeNumber && f.Unit != "":
			return fmt.Errorf("%w: facets[%d].unit: only a number facet has a unit", ErrFormat, k)
		case f.Name == "title" && f.Type != TypeText:
			return fmt.Errorf("%w: facets[%d]: the title is text", ErrFormat, k)
		}
		if f.Type == TypeNumber && f.Unit == "" {
			f.Unit = UnitOf(f.Name)
		}
		f.Min, f.Max = 0, 0
		first := true
		for i, m := range c.Meta {
			v := m[k]
			if v == "" {
				continue
			}
			switch f.Type {
			case TypeNumber:
				x, ok := ParseNumber(v)
				if !ok {
					return fmt.Errorf("%w: items[%d].meta.%s: %q is not a number", ErrFormat, i, f.Name, v)
				}
				if first || x < f.Min {
					f.Min = x
				}
				if first || x > f.Max {
					f.Max = x
				}
				first = false
			case TypeList:
				if n := strings.Count(v, ListSep) + 1; n > maxListLen {
					return fmt.Errorf("%w: items[%d].meta.%s: %d values, at most %d", ErrFormat, i, f.Name, n, maxListLen)
				}
			}
		}
	}
	return nil
}

// Values returns the values of item i's column k: one for text, each
// element for a list (empty elements left out), none when empty. O(len).
func (c *Catalog) Values(i, k int) []string {
	v := c.Meta[i][k]
	if v == "" {
		return nil
	}
	if c.Facets[k].Type != TypeList {
		return []string{v}
	}
	var out []string
	for _, e := range strings.Split(v, ListSep) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// Number returns item i's value of number column k (ok false when the item
// has none or the column is not a number). O(len).
func (c *Catalog) Number(i, k int) (float64, bool) {
	if c.Facets[k].Type != TypeNumber || c.Meta[i][k] == "" {
		return 0, false
	}
	return ParseNumber(c.Meta[i][k])
}

// Facet returns the facet named name and its column (-1 when there is none).
func (c *Catalog) Facet(name string) (Facet, int) {
	for k, f := range c.Facets {
		if f.Name == name {
			return f, k
		}
	}
	return Facet{}, -1
}
