package intent

import (
	"strings"
	"testing"
)

// films is a hand-made film catalog with a list facet (genre) and a number
// facet (year): every expectation below can be checked by reading it.
func films(t testing.TB) *Linker {
	t.Helper()
	cols := []Column{{Name: "title", Type: ColText}, {Name: "genre", Type: ColList},
		{Name: "year", Type: ColNumber, Unit: UnitYear, Min: 1939, Max: 1998}}
	meta := [][]string{
		{"Alien", "Horror|Sci-Fi", "1979"},
		{"Airplane!", "Comedy", "1980"},
		{"Toy Story", "Animation|Children's|Comedy", "1995"},
		{"Casablanca", "Drama|Romance|War", "1942"},
		{"The Wizard of Oz", "Adventure|Children's|Fantasy|Musical", "1939"},
		{"Metropolis", "Sci-Fi", "1927"},
		{"Heat", "Action|Crime|Thriller", "1995"},
		{"Scream", "Horror|Thriller", "1996"},
		{"Chinatown", "Film-Noir|Mystery", "1974"},
		{"Titanic", "Drama|Romance", "1997"},
	}
	return NewLinkerColumns(cols, meta, nil)
}

func TestUnderstandFilms(t *testing.T) {
	l := films(t)
	tests := []struct{ in, summary string }{
		// list facets: one value of a list is a value
		{"sci-fi", "only: Sci-Fi"},
		{"comedies but no animation", "only: Comedy · not: Animation"},
		{"Children's films", "only: Children's"},
		// everyday words and other languages (the lexicon)
		{"something spooky", "only: Horror"},
		{"a tearjerker", "only: Drama"},
		{"for the whole family", "only: Children's"},
		{"whodunit", "only: Mystery"},
		{"pas de films d'horreur", "not: Horror"},
		{"películas de terror", "only: Horror"},
		{"keine Komödien", "not: Comedy"},
		{"nur Western", "not understood: western"},
		{"solo comedias", "only: Comedy"},
		// typos
		{"thriler", "only: Thriller"}, // 7 letters, one edit
		{"casablanka", "only: casablanca"},
		// numbers
		{"films from the seventies", "only: year 1970 to 1979"},
		{"before 1970", "only: year at most 1969"},
		{"newer than 1990", "only: year at least 1991"},
		{"between 1995 and 1980", "only: year 1980 to 1995"},
		{"90s comedies", "only: year 1990 to 1999 · only: Comedy"},
		{"nothing from the 80s", "not: year 1980 to 1989"},
		{"los ochenta", "only: year 1980 to 1989"},
		{"années 70", "only: year 1970 to 1979"},
		{"80er Jahre", "only: year 1980 to 1989"},
		{"under $20", ""},
		{"for my 7-year-old", "only: Children's"},
		{"before year -5", ""},
		{"1970-1979", "only: year 1970 to 1979"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := l.Parse(tt.in, nil)
			if got := in.Summary(); got != tt.summary {
				t.Errorf("Summary = %q, want %q (notes %q)", got, tt.summary, in.Notes)
			}
		})
	}
}

func TestNumberNotes(t *testing.T) {
	l := films(t)
	for in, note := range map[string]string{
		"under $20":             "this catalog has no prices",
		"before year -5":        "matches nothing in this catalog",
		"between 1995 and 1980": "is read as 1980 to 1995",
		"for my 7-year-old":     "",
		"at least 4 stars":      "this catalog has no ratings",
		"under 10":              "not sure what",
		"less than 90 minutes":  "this catalog has no durations",
		"under $999999999999":   "this catalog has no prices",
	} {
		got := strings.Join(l.Parse(in, nil).Notes, " | ")
		if note == "" && got != "" || !strings.Contains(got, note) {
			t.Errorf("%q: notes %q, want one containing %q", in, got, note)
		}
	}
}
