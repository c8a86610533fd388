package intent

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Concept is one entry of the lexicon: the values a catalog may hold for one
// idea ("Horror") and the words people use for it, in several languages
// ("scary", "spooky", "épouvante", "de terror", "gruselig"). Its words
// ground only where the loaded catalog has one of its values.
type Concept struct {
	Values []string `json:"values"`
	Words  []string `json:"words"`
	// Titles are title words that show an item is of the concept ("lego"
	// for Family), read only when a catalog infers a facet from its titles
	// (rec.InferFacet): never words an instruction is grounded in, since
	// "Lego games" asks for Lego, not for family games.
	Titles []string `json:"titles,omitempty"`
}

// Lexicon is the cross-domain vocabulary the interpreter ships with, as data
// (lexicon.json): the words that name the kind of thing recommended in any
// catalog ("movies", "films", "jeux") and the concepts.
type Lexicon struct {
	Comment  string    `json:"comment,omitempty"`
	Filler   []string  `json:"filler"`
	Concepts []Concept `json:"concepts"`
}

//go:embed lexicon.json
var lexiconJSON []byte

// lexicon is the embedded lexicon, read once at start-up.
var lexicon = func() Lexicon {
	var x Lexicon
	if err := json.Unmarshal(lexiconJSON, &x); err != nil {
		panic("intent: lexicon.json: " + err.Error()) // embedded data, checked by TestLexicon
	}
	return x
}()

// lexiconMeaning maps a one-word everyday word of the embedded lexicon to
// the first value of its concept ("poems" → Poetry). A word the lexicon
// knows is never grounded by word vectors in another value: where the
// catalog lacks its concept, it is not understood, and a note says what it
// means ("poems" is not Memoir because their vectors are near).
var lexiconMeaning = func() map[string]string {
	m := map[string]string{}
	for _, c := range lexicon.Concepts {
		for _, w := range c.Words {
			if k := text.Key(w); !strings.Contains(k, " ") && k != "" {
				if _, ok := m[k]; !ok {
					m[k] = c.Values[0]
				}
			}
		}
	}
	return m
}()

// Limits of a table's own concepts.
const maxConcepts = 500

// checkConcepts validates a table's concepts.
func checkConcepts(cs []Concept) error {
	if len(cs) > maxConcepts {
		return fmt.Errorf("%w: lexicon: more than %d concepts", ErrTable, maxConcepts)
	}
	for i, c := range cs {
		if len(c.Values) == 0 || len(c.Words)+len(c.Titles) == 0 {
			return fmt.Errorf("%w: lexicon[%d]: wants values, and words or titles", ErrTable, i)
		}
		for _, w := range append(append(append([]string(nil), c.Values...), c.Words...), c.Titles...) {
			if len(text.Key(w)) == 0 || len(w) > maxAliasBytes {
				return fmt.Errorf("%w: lexicon[%d]: %q is empty or longer than %d bytes", ErrTable, i, w, maxAliasBytes)
			}
		}
	}
	return nil
}

// addLexicon adds the words of every concept (the table's first, then the
// embedded lexicon's) whose values the catalog has in some facet, as
// synonyms of those values. A word that already names something (a value,
// an alias) keeps it. O(concepts · words).
func (l *Linker) addLexicon() {
	own := map[string]bool{} // words the table's concepts ground: the embedded lexicon's do not add to them
	for n, c := range append(append([]Concept(nil), l.table.Lexicon...), lexicon.Concepts...) {
		fromTable := n < len(l.table.Lexicon)
		var ents []Entity
		for _, v := range c.Values {
			for _, e := range l.phrases[text.Key(v)] {
				if e.How == HowExact && l.facets[e.Facet] > 0 {
					ents = append(ents, Entity{Facet: e.Facet, Value: e.Value, How: HowSynonym})
				}
			}
		}
		if len(ents) == 0 {
			continue
		}
		for _, w := range c.Words {
			k := text.Key(w)
			if k == "" || l.named(k) || (!fromTable && own[k]) {
				continue
			}
			if fromTable {
				own[k] = true
			}
			for _, e := range ents {
				l.addPhrase(k, e)
			}
		}
	}
}

// named reports whether a phrase names a value or an alias already (not an
// everyday word added by the lexicon).
func (l *Linker) named(k string) bool {
	for _, e := range l.phrases[k] {
		if e.How != HowSynonym {
			return true
		}
	}
	return false
}

// detail says how a clause read from typed words was grounded, in words.
func detail(typed string, e Entity, inferred bool) string {
	var s string
	switch e.How {
	case HowSynonym:
		s = fmt.Sprintf("%s → %s (an everyday word for it)", typed, e.Value)
	case HowPartial:
		s = fmt.Sprintf("%s → %s (part of its name)", typed, e.Value)
	case HowAlias:
		if !strings.EqualFold(typed, e.Value) {
			s = fmt.Sprintf("%s → %s", typed, e.Value)
		}
	}
	if inferred {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%s is inferred from the catalog's data, not given by it", e.Value)
	}
	return s
}

// Concepts returns a copy of the embedded lexicon's concepts.
func Concepts() []Concept {
	out := make([]Concept, len(lexicon.Concepts))
	for k, c := range lexicon.Concepts {
		out[k] = Concept{Values: slices.Clone(c.Values), Words: slices.Clone(c.Words), Titles: slices.Clone(c.Titles)}
	}
	return out
}
