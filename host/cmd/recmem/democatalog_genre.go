package main

import (
	"os"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/rec"
)

// gameGenres are the genres the demo catalog infers for its games, each the
// name of a concept of the interpreter's lexicon (pkg/intent/lexicon.json)
// or of the games table's own lexicon (web/catalog/games-intent.json).
var gameGenres = []string{"Racing", "Sports", "Shooter", "Platformer", "Puzzle", "RPG", "Fighting", "Strategy",
	"Simulation", "Music Games", "Horror", "Family"}

// inferGenres fills the demo items' genre from the evidence in Games-6k
// (rec.InferFacet): titles holding a genre's words, carried to the items
// their buyers took with them. Only games get a genre.
func inferGenres(ds *dataset.RecBole, titles []string, order []int, c *DemoCatalog) {
	lex := intent.Concepts()
	if b, err := os.ReadFile(findUp("web/catalog/games-intent.json")); err == nil {
		if t, err := intent.ParseTable(b); err == nil {
			lex = append(t.Lexicon, lex...)
		}
	}
	concepts := rec.ConceptsNamed(lex, gameGenres)
	names := make([]string, len(concepts))
	for k, cp := range concepts {
		for _, g := range gameGenres {
			for _, v := range cp.Values {
				if v == g {
					names[k] = g
				}
			}
		}
	}
	var hist [][]int
	for _, s := range ds.Test {
		hist = append(hist, append(append([]int(nil), s.History...), s.Target))
	}
	inf := rec.InferFacet(titles, hist, names, concepts, rec.InferConfig{})
	for k, i := range order {
		if c.Items[k].Kind == "game" {
			c.Items[k].Genre = inf.Values[i]
		}
	}
}
