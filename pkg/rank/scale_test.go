package rank

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

// scaledCatalog is a synthetic film catalog of n items: titles, a genre list
// and a year, as a MovieLens catalog has, with no collaborative data.
func scaledCatalog(tb testing.TB, n int) *catalog.Catalog {
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
		tb.Fatal(err)
	}
	return c
}

// BenchmarkRankInstructionCatalogSize ranks 300 candidates with an
// instruction on catalogs of growing size: the cost of a request must not
// grow with the catalog (the first request pays the lazy typo index).
func BenchmarkRankInstructionCatalogSize(b *testing.B) {
	for _, n := range []int{1682, 64000} {
		r := New(scaledCatalog(b, n))
		var cands []Candidate
		for i := 0; i < 300; i++ {
			cands = append(cands, Candidate{ID: strconv.Itoa(i * (n / 300))})
		}
		req := Request{Candidates: cands, Instruction: "spooky films from the 80s, no romance, not Drama", K: 20}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				u := r.Understand(req)
				if _, err := r.Rank(User{}, u.Constrained(req)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
