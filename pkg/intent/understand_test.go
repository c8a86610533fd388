package intent

import (
	"strconv"
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

// TestLanguagesNeverGroundStopWords: a stop word of another language is
// never an entity, even when a title holds it ("de" in "Dead Man de ...").
func TestLanguagesNeverGroundStopWords(t *testing.T) {
	cols := []Column{{Name: "title", Type: ColText}, {Name: "platform", Type: ColText}}
	meta := [][]string{{"Bajo de la Mesa", "PC"}, {"Das Boot", "PlayStation"}, {"El Tigre", "PC"}, {"La Noire", "PC"}}
	l := NewLinkerColumns(cols, meta, nil)
	for in, want := range map[string]string{
		"juegos de PC":                         "only: PC",
		"des jeux pour PC, pas de PlayStation": "only: PC · not: PlayStation",
		"keine PlayStation bitte":              "not: PlayStation",
		"nur PC":                               "only: PC",
		"solo PC":                              "only: PC",
		"das boot":                             "only: das boot",
	} {
		x := l.Parse(in, nil)
		if got := x.Summary(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestGroupsAndDefault: the values one phrase names are one exclusion, said
// once; a request naming a platform and no kind prefers games.
func TestGroupsAndDefault(t *testing.T) {
	names := []string{"title", "platform", "kind"}
	meta := [][]string{
		{"Mario Kart 8", "Nintendo Wii U", "game"},
		{"Zelda", "Nintendo Switch", "game"},
		{"Halo 5", "Xbox One", "game"},
		{"Wii U GamePad", "Nintendo Wii U", "accessory"},
	}
	tb, err := ParseTable([]byte(`{"aliases": {"platform": {"Nintendo": ["Nintendo Wii U", "Nintendo Switch"]}},
		"implies_default": {"facet": "kind", "value": "game"}}`))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLinker(names, meta, tb)
	in := l.Parse("nothing from Nintendo", nil)
	if len(in.Exclude) != 2 || in.Exclude[0].Group != "nintendo" || in.Exclude[1].Group != "nintendo" {
		t.Fatalf("exclude %+v", in.Exclude)
	}
	parts, _, _ := l.Meeting(&in, l.CatalogItem(2))
	if strings.Join(parts, "|") != "not nintendo" {
		t.Errorf("Halo 5 meets %q, want one line", parts)
	}
	items := []*Item{l.CatalogItem(0), l.CatalogItem(1), l.CatalogItem(2), l.CatalogItem(3)}
	keep, relaxed := l.Filter(&in, items)
	if keep[0] || keep[1] || !keep[2] || keep[3] || len(relaxed) != 0 {
		t.Errorf("keep %v relaxed %v", keep, relaxed)
	}
	in = l.Parse("I only play on Nintendo Wii U", nil)
	if got := in.Summary(); got != "only: Nintendo Wii U · prefer: game" || in.Prefer[0].How != HowImplied {
		t.Errorf("default kind: %q %+v", got, in.Prefer)
	}
	neg := l.Parse("no Halo", nil)
	if got := neg.Summary(); got != "not: halo" {
		t.Errorf("a negation alone implies nothing: %q", got)
	}
}

// TestNumberMeets holds open and closed bounds and numbers a request gives.
func TestNumberMeets(t *testing.T) {
	lo, hi := 10.0, 30.0
	cases := []struct {
		c    Clause
		x    float64
		want bool
	}{
		{Clause{Facet: "price", How: HowNumber, Max: &hi, MaxOpen: true}, 30, false},
		{Clause{Facet: "price", How: HowNumber, Max: &hi}, 30, true},
		{Clause{Facet: "price", How: HowNumber, Min: &lo, MinOpen: true}, 10, false},
		{Clause{Facet: "price", How: HowNumber, Min: &lo, Max: &hi}, 29.99, true},
		{Clause{Facet: "price", How: HowNumber, Min: &lo, Max: &hi}, 9.99, false},
	}
	l := NewLinker([]string{"title"}, nil, nil)
	for _, tt := range cases {
		it := l.ItemWith(-1, map[string][]string{"price": {strconv.FormatFloat(tt.x, 'f', -1, 64)}})
		if got := l.Meets(tt.c, &it); got != tt.want {
			t.Errorf("%+v meets %v = %v, want %v", tt.c, tt.x, got, tt.want)
		}
	}
	// A request's own prices make "under $30" mean something.
	x := NewExtra([]map[string][]string{{"price": {"19.99"}}, {"price": {"49.99"}}})
	in := l.Parse("under $30", x)
	if len(in.Only) != 1 || in.Only[0].Unit != UnitPrice || *in.Only[0].Max != 30 || !in.Only[0].MaxOpen {
		t.Errorf("under $30 with prices: %+v notes %q", in.Only, in.Notes)
	}
}

// TestTypoRules: one edit from five letters, two from nine, never on short
// words, stop words or words the word table knows.
func TestTypoRules(t *testing.T) {
	cols := []Column{{Name: "title", Type: ColText}, {Name: "series", Type: ColText}}
	meta := [][]string{{"Metroid Prime", "Metroid"}, {"Castlevania Lords of Shadow", "Castlevania"}, {"Halo 3", "Halo"}}
	l := NewLinkerColumns(cols, meta, nil)
	l.Known = func(w string) bool { return w == "metro" }
	for in, want := range map[string]string{
		"metriod":     "only: Metroid",            // a swap: one edit
		"castelvanya": "only: Castlevania",        // two edits, 11 letters
		"metrod":      "only: Metroid",            // six letters, one edit
		"haloo":       "only: Halo",               // five letters, one edit from a word of four
		"hallo":       "",                         // a German stop word: never a typo
		"halp":        "not understood: halp",     // short: never
		"metro":       "not understood: metro",    // a real word
		"castlvna":    "not understood: castlvna", // 8 letters, two edits: too many
	} {
		x := l.Parse(in, nil)
		if got := x.Summary(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
