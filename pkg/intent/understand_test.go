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

// shelf is a hand-made book catalog unlike the films above: an author
// facet, a unit-less number facet named "pages", a "num_players" count, and
// titles made only of stop words ("It", "Us").
func shelf(t testing.TB) *Linker {
	t.Helper()
	cols := []Column{{Name: "title", Type: ColText}, {Name: "author", Type: ColText},
		{Name: "pages", Type: ColNumber, Min: 32, Max: 1138}, {Name: "num_players", Type: ColNumber, Min: 1, Max: 6},
		{Name: "weight", Type: ColNumber, Unit: "grams", Min: 100, Max: 900}}
	meta := [][]string{
		{"It", "Stephen King", "1138", "1"},
		{"Carrie", "Stephen King", "199", "1"},
		{"Us", "David Nicholls", "396", "1"},
		{"It Ends with Us", "Colleen Hoover", "384", "1"},
		{"The Gruffalo", "Julia Donaldson", "32", "2"},
		{"Party Quiz", "Anna Lee", "64", "6"},
		{"The Hobbit", "J.R.R. Tolkien", "310", "1"},
		{"Jane Eyre", "Charlotte Brontë", "507", "1"},
		{"Wuthering Heights", "Emily Brontë", "416", "1"},
		{"Night Shift", "Stephen King", "336", "1"},
	}
	l := NewLinkerColumns(cols, meta, nil)
	l.Common = func(w string) bool { return w == "king" || w == "lee" }
	return l
}

func TestUnderstandShelf(t *testing.T) {
	l := shelf(t)
	tests := []struct{ in, summary, note string }{
		// a title of stop words, as the whole rest of a negation's clause
		{"Stephen King but not It", "only: Stephen King · not: it", ""},
		{"anything by Stephen King except It", "only: Stephen King · not: it", ""},
		{"no Us please", "not: us", ""},
		{"nothing but Us", "only: us", ""},
		{"us", "", "only common words"}, // a plain mention is never one
		// a negation that must name its object never reaches back
		{"Stephen King except for", "only: Stephen King", `"except for" is followed by nothing`},
		{"Stephen King? Not for me.", "not: Stephen King", ""},
		// a number facet named by its own word
		{"under 300 pages", "only: pages under 300", ""},
		{"at least 500 pages", "only: pages at least 500", ""},
		{"between 50 and 200 pages", "only: pages 50 to 200", ""},
		{"for 4 players or more", "only: num_players at least 4", ""},
		{"less than 300 grams", "only: weight under 300", ""}, // a declared unit of its own
		{"a 300 page book", "", "one number, not a range"},    // "book": the lexicon's kind word
		// the last word of a name names it, unless it is a common word
		{"Tolkien", "only: J.R.R. Tolkien", ""},
		{"tolkein", "only: J.R.R. Tolkien", ""}, // a typo of it
		{"no Brontë", "not: Charlotte Brontë · not: Emily Brontë", ""},
		{"King", "not understood: king", ""},
		{"Donaldson or Nicholls", "only: Julia Donaldson · only: David Nicholls", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := l.Parse(tt.in, nil)
			if got := in.Summary(); got != tt.summary {
				t.Errorf("Summary = %q, want %q (notes %q, unknown %q)", got, tt.summary, in.Notes, in.Unknown)
			}
			if notes := strings.Join(in.Notes, " | "); !strings.Contains(notes, tt.note) || tt.note == "" && notes != "" {
				t.Errorf("notes %q, want one containing %q", notes, tt.note)
			}
		})
	}
}

// TestStopTitleIsWhole: "not It" removes the book "It", not every title
// holding the word ("It Ends with Us").
func TestStopTitleIsWhole(t *testing.T) {
	l := shelf(t)
	in := l.Parse("Stephen King or Colleen Hoover, not It", nil)
	if len(in.Exclude) != 1 {
		t.Fatalf("exclude %+v", in.Exclude)
	}
	for i, want := range map[int]bool{0: true, 3: false, 1: false} {
		if got := l.Meets(in.Exclude[0], l.CatalogItem(i)); got != want {
			t.Errorf("item %d meets %+v = %v, want %v", i, in.Exclude[0], got, want)
		}
	}
}

// TestLexiconFillerYields: the lexicon's kind words ("books", "songs") are
// filler, unless the catalog names them: then they ground as its value.
func TestLexiconFillerYields(t *testing.T) {
	cols := []Column{{Name: "title", Type: ColText}, {Name: "kind", Type: ColText}, {Name: "genre", Type: ColList}}
	meta := [][]string{{"Moon Atlas", "Book", "Science"}, {"Moon Atlas", "Audiobook", "Science"}, {"Tide Songs", "Album", "Folk"}}
	l := NewLinkerColumns(cols, meta, nil)
	for in, want := range map[string]string{
		"books about science": "only: Book · only: Science",
		"albums":              "only: Album",
		"songs":               "",
		"true stories":        "not understood: true, stories", // no Nonfiction here
		"popular science":     "only: Science",
	} {
		pi := l.Parse(in, nil)
		if got := pi.Summary(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestLexiconWordNeverNear: a word the lexicon knows is not grounded by
// word vectors in another value when the catalog lacks its own.
func TestLexiconWordNeverNear(t *testing.T) {
	cols := []Column{{Name: "title", Type: ColText}, {Name: "genre", Type: ColList}}
	l := NewLinkerColumns(cols, [][]string{{"Quiet Years", "Memoir"}, {"Red Sky", "Thriller"}}, nil)
	l.WordVec = func(string) ([]float32, bool) { return []float32{1, 0}, true } // every word near every value
	in := l.Parse("poems", nil)
	if in.Summary() != "not understood: poems" || len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "means Poetry") {
		t.Errorf("poems: %q, notes %q", in.Summary(), in.Notes)
	}
}

// TestRelativeWords: "cheap", "top rated", "short" ask for a half of a
// number facet, split at its median over the catalog (hand-computed below).
func TestRelativeWords(t *testing.T) {
	cols := []Column{{Name: "title", Type: ColText}, {Name: "category", Type: ColText},
		{Name: "price", Type: ColNumber, Unit: UnitPrice, Min: 10, Max: 90}, {Name: "rating", Type: ColNumber, Unit: UnitRating, Min: 3, Max: 5}}
	// prices 10 20 30 40 90: the lower median is 30; ratings 3 4 4.5 4.5 5: 4.5
	meta := [][]string{{"Long Cable", "Cable", "10", "3"}, {"Budget Mouse", "Budget", "20", "4"}, {"Desk Lamp", "Lamp", "30", "4.5"},
		{"Arc Lamp", "Lamp", "40", "4.5"}, {"Gold Lamp", "Lamp", "90", "5"}}
	l := NewLinkerColumns(cols, meta, nil)
	for in, want := range map[string]string{
		"a cheap lamp":        "only: price at most 30 · only: Lamp",
		"nothing expensive":   "not: price at least 30",
		"top rated lamps":     "only: rating at least 4.5 · only: Lamp",
		"une lampe pas chère": "only: Lamp · only: price at most 30",
		"cheap, under $15":    "only: price under 15",
		"budget":              "only: Budget",                       // the catalog's value wins
		"something recent":    "",                                   // no year facet: a note
		"a long cable":        "only: Cable · not understood: long", // no duration facet: a note says so
	} {
		pi := l.Parse(in, nil)
		if got := pi.Summary(); got != want && !(want == "" && strings.HasPrefix(got, "not understood")) {
			t.Errorf("%q: %q, want %q (notes %q)", in, got, want, pi.Notes)
		}
	}
	if pi := l.Parse("a short one", nil); !strings.Contains(strings.Join(pi.Notes, " "), "this catalog has no durations") {
		t.Errorf("a short one: notes %q", pi.Notes)
	}
}

// TestLongWordIsNoTypo: a word of thousands of letters (an instruction may
// hold 4,000 bytes) is not looked up as a typo: its deletes would number
// millions (about n²/2 at two edits). Before MaxTypoLen this test ran for
// minutes.
func TestLongWordIsNoTypo(t *testing.T) {
	l := films(t)
	for _, n := range []int{MaxTypoLen + 1, 3900} {
		in := l.Parse("qwertz"+strings.Repeat("q", n-6), nil)
		if len(in.Only)+len(in.Exclude)+len(in.Prefer)+len(in.Avoid) != 0 || len(in.Unknown) != 1 {
			t.Errorf("%d letters: %d clauses, unknown %d", n, len(in.Only)+len(in.Exclude)+len(in.Prefer)+len(in.Avoid), len(in.Unknown))
		}
	}
	// a catalog word that long is not indexed either
	long := strings.Repeat("ab", 2000)
	l2 := NewLinkerColumns([]Column{{Name: "title", Type: ColText}}, [][]string{{"Alien " + long}}, nil)
	if in := l2.Parse("alein", nil); in.Summary() != "only: alien" {
		t.Errorf("alein: %q", in.Summary())
	}
}
