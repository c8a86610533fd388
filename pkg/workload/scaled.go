package workload

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/recmem/recmem/pkg/catalog"
)

// ScaledInstruction is the instruction the catalog-size benchmarks rank
// with: a synonym, a decade, a negated genre and a negated value.
const ScaledInstruction = "spooky films from the 80s, no romance, not Drama"

// ScaledInstructions are the instructions the first-request benchmarks
// rank with, by what they make the interpreter read: facet values only
// (ScaledInstruction), title words ("dark city", which only titles
// name), and a typo of a title word ("citty").
var ScaledInstructions = []struct{ Name, Text string }{
	{"values", ScaledInstruction},
	{"title", "something like dark city, not Horror"},
	{"typo", "dark citty please"},
}

// ScaledCatalog is a synthetic film catalog of n items: titles, a genre list
// and a year, as a MovieLens catalog has, with no collaborative data. The
// catalog-size benchmarks (pkg/rank, host) rank on it. O(n).
func ScaledCatalog(n int) (*catalog.Catalog, error) {
	genres := []string{"Action", "Comedy", "Drama", "Horror", "Sci-Fi", "Romance", "Thriller", "Children's", "Animation", "War"}
	words := []string{"night", "story", "return", "dark", "love", "city", "king", "space", "war", "house", "man", "girl", "blue", "last", "day"}
	c := &catalog.Catalog{Dataset: "scaled", MetaNames: []string{"title", "genre", "year"},
		Facets: []catalog.Facet{{Name: "title", Type: catalog.TypeText}, {Name: "genre", Type: catalog.TypeList}, {Name: "year", Type: catalog.TypeNumber, Unit: "year"}}}
	for i := range n {
		c.IDs = append(c.IDs, strconv.Itoa(i))
		title := fmt.Sprintf("%s %s %d", words[i%len(words)], words[(i/len(words))%len(words)], i)
		c.Meta = append(c.Meta, []string{title, genres[i%len(genres)] + "|" + genres[(i/3)%len(genres)], strconv.Itoa(1930 + i%69)})
		c.Pop = append(c.Pop, float32(i%100))
		c.Recent = append(c.Recent, 0)
		c.Bias = append(c.Bias, 0)
		c.Trans = append(c.Trans, nil)
		c.CoOc = append(c.CoOc, nil)
	}
	if err := c.Finish(); err != nil {
		return nil, err
	}
	return c, nil
}

// ScaledCandidates are the ids of m candidates spread evenly over a
// ScaledCatalog of n items (item k·(n/m) for k < m).
func ScaledCandidates(n, m int) []string {
	out := make([]string, m)
	for k := range out {
		out[k] = strconv.Itoa(k * (n / m))
	}
	return out
}

// ScaledRank is the rank input of the catalog-size benchmarks: m
// candidates of a ScaledCatalog of n items, the instruction, k 20.
func ScaledRank(n, m int, instruction string) []byte {
	b, _ := json.Marshal(map[string]any{"candidates": ScaledCandidates(n, m), "instruction": instruction, "k": 20})
	return b
}
