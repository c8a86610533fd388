package main

import (
	"os"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/rec"
)

// The demo catalog's inferred facets: each value is the name of a concept of
// the interpreter's lexicon (pkg/intent/lexicon.json) or of the games
// table's own (web/catalog/games-intent.json), whose words and title words
// seed it.
var (
	gameGenres = []string{"Racing", "Sports", "Soccer", "American Football", "Basketball", "Hockey", "Baseball", "Golf", "Tennis", "Wrestling",
		"Shooter", "Platformer", "Puzzle", "RPG", "Fighting", "Hack and Slash", "Strategy", "Simulation", "Music Games", "Horror", "Open World", "Stealth"}
	gameAudiences = []string{"Family", "Mature"}
)

// inferFacets fills the demo games' genre and audience from the evidence
// in Games-6k's titles (rec.InferFacet). Only games get them.
func inferFacets(ds *dataset.RecBole, titles []string, order []int, c *DemoCatalog) {
	lex := intent.Concepts()
	if b, err := os.ReadFile(findUp("web/catalog/games-intent.json")); err == nil {
		if t, err := intent.ParseTable(b); err == nil {
			lex = append(t.Lexicon, lex...)
		}
	}
	infer := func(names []string) [][]string {
		concepts, kept := rec.ConceptsNamed(lex, names)
		return rec.InferFacet(titles, nil, kept, concepts, rec.InferConfig{}).Values
	}
	genres, audiences := infer(gameGenres), infer(gameAudiences)
	for k, i := range order {
		if c.Items[k].Kind == "game" {
			c.Items[k].Genre, c.Items[k].Audience = genres[i], audiences[i]
		}
	}
}
