package intent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/recmem/recmem/pkg/text"
	"strings"
)

// Table is the per-domain knowledge the interpreter needs besides the
// catalog's own facet values. It ships with the catalog asset (the JSON
// catalog's "intent" field) or beside it as a file, never in the ranker:
//
//	{"aliases": {"platform": {"PS4": ["PlayStation 4"], "Xbox": ["Xbox", "Xbox 360", "Xbox One"]}},
//	 "filler": ["game", "games", "title"],
//	 "implies": {"games": {"facet": "kind", "value": "game"}},
//	 "title_facets": ["series"]}
//
// Aliases map what users type to one or more values of a facet; an alias
// naming several values stands for the family (any of them). Filler words are
// the domain's words that name the kind of thing recommended ("games") and
// carry no constraint. Implies gives a filler word the facet value it
// suggests when the instruction uses it outside a negation: "PS2 games"
// prefers items of kind "game" to the console and its cables, as a soft
// preference, never a filter, and "no Halo games" implies nothing. A title facet is one whose values are also read from
// titles: an item meets "series Halo" when its series is Halo or its title
// holds the phrase (a series derived from titles misses "Halo Wars").
type Table struct {
	Aliases map[string]map[string][]string `json:"aliases,omitempty"`
	Filler  []string                       `json:"filler,omitempty"`
	Implies map[string]Entity              `json:"implies,omitempty"`
	// ImpliesDefault is the value a request implies when it names
	// something but no value of that facet: "I only play on PS2" prefers
	// games (kind game) to the console and its cables. A preference,
	// never a filter; "a headset for my PS4" names the kind itself.
	ImpliesDefault *Entity `json:"implies_default,omitempty"`
	// ImpliesTitles are title words that imply a value instead of the
	// default: "a headset for my PS4" asks for titles holding "headset"
	// and prefers accessories to games. The word stays a title word.
	ImpliesTitles map[string]Entity `json:"implies_titles,omitempty"`
	TitleFacets   []string          `json:"title_facets,omitempty"`
	// Lexicon adds the domain's own concepts to the embedded lexicon
	// (lexicon.json): everyday words for the values this catalog holds.
	Lexicon []Concept `json:"lexicon,omitempty"`
}

// Limits of a table: it is data shipped with a catalog, so it is bounded.
const (
	maxAliases    = 5000
	maxAliasBytes = 200
)

// ErrTable is wrapped by every table decoding error.
var ErrTable = errors.New("intent: bad table")

// ParseTable reads a table from JSON, refusing unknown fields, empty names
// and oversized entries; the error names the field. O(size).
func ParseTable(b []byte) (*Table, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTable, err)
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return &t, nil
}

// Check validates a table already decoded (for example as part of a catalog).
func (t *Table) Check() error {
	n := 0
	for facet, m := range t.Aliases {
		if facet == "" {
			return fmt.Errorf("%w: aliases: empty facet name", ErrTable)
		}
		for alias, values := range m {
			n++
			switch {
			case n > maxAliases:
				return fmt.Errorf("%w: aliases: more than %d", ErrTable, maxAliases)
			case len(text.Key(alias)) == 0 || len(alias) > maxAliasBytes:
				return fmt.Errorf("%w: aliases.%s: alias %q is empty or longer than %d bytes", ErrTable, facet, alias, maxAliasBytes)
			case len(values) == 0:
				return fmt.Errorf("%w: aliases.%s.%s: no value", ErrTable, facet, alias)
			}
			for _, v := range values {
				if len(text.Key(v)) == 0 || len(v) > maxAliasBytes {
					return fmt.Errorf("%w: aliases.%s.%s: value %q is empty or longer than %d bytes", ErrTable, facet, alias, v, maxAliasBytes)
				}
			}
		}
	}
	for w, e := range t.Implies {
		switch {
		case len(text.Key(w)) == 0 || len(w) > maxAliasBytes || strings.Contains(text.Key(w), " "):
			return fmt.Errorf("%w: implies: %q is not one word", ErrTable, w)
		case e.Facet == "" || e.Facet == "title" || len(text.Key(e.Value)) == 0 || len(e.Value) > maxAliasBytes:
			return fmt.Errorf("%w: implies.%s: wants a facet (not title) and a value", ErrTable, w)
		}
	}
	if e := t.ImpliesDefault; e != nil && (e.Facet == "" || e.Facet == "title" || len(text.Key(e.Value)) == 0 || len(e.Value) > maxAliasBytes) {
		return fmt.Errorf("%w: implies_default: wants a facet (not title) and a value", ErrTable)
	}
	for w, e := range t.ImpliesTitles {
		if len(text.Key(w)) == 0 || len(w) > maxAliasBytes || e.Facet == "" || e.Facet == "title" || len(text.Key(e.Value)) == 0 {
			return fmt.Errorf("%w: implies_titles.%s: wants a word, a facet (not title) and a value", ErrTable, w)
		}
	}
	if err := checkConcepts(t.Lexicon); err != nil {
		return err
	}
	for i, f := range t.Filler {
		if len(text.Key(f)) == 0 || len(f) > maxAliasBytes {
			return fmt.Errorf("%w: filler[%d]: %q is empty or too long", ErrTable, i, f)
		}
	}
	return nil
}
