package text

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var updateVectors = flag.Bool("update-vectors", false, "rewrite testdata/text/analyze.json from the Go analyzer")

// analyzeVectors are the inputs the page's analyzer (web/app/analyze.js)
// and this package must read alike; testdata/text/analyze.json holds them
// with Key's answers, and web/test/analyze.test.mjs checks the JavaScript.
var analyzeVectors = []string{
	"", "Pokémon", "POKÉMON Black Version 2", "Assassin's Creed II", "Final Fantasy X-2", "the 1970s and '80s",
	"pas de films d'horreur", "Straße ŒUVRE Æon", "under $29.99 or 1,000 coins", "a 7-year-old", "¿películas de terror?",
	"e\u0301te\u0301", "don't you dare", "Stories, buses, classes, Is", "Ōkami HD", "Łódź Noir", "Mario & Luigi: Superstar Saga",
	"TOM CLANCY’S Rainbow Six", "Naïve café", "l'Été", "Halo 3: ODST", "Children's", "Sci-Fi|Horror", "S.T.A.L.K.E.R.",
}

func TestAnalyzeVectors(t *testing.T) {
	type vec struct {
		In  string `json:"in"`
		Key string `json:"key"`
	}
	var want []vec
	for _, in := range analyzeVectors {
		want = append(want, vec{in, Key(in)})
	}
	const file = "../../testdata/text/analyze.json"
	if *updateVectors {
		b, _ := json.MarshalIndent(want, "", "  ")
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var got []vec
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s holds %d cases, want %d (go test ./pkg/text -run TestAnalyzeVectors -args -update-vectors)", file, len(got), len(want))
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s[%d] = %+v, Key gives %+v", file, k, got[k], want[k])
		}
	}
}
