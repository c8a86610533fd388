package intent

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestFacets(t *testing.T) {
	got := films(t).Facets()
	// Columns in order, the title left out; a list facet's values the most
	// common first, ties in the order of their normalized words; a number
	// facet's range. Counted by hand in films: 16 genres; Comedy,
	// Children's, Drama, Horror, Romance, Sci-Fi and Thriller are held by
	// two films each, the other nine by one.
	if len(got) != 2 || got[0].Name != "genre" || got[1].Name != "year" {
		t.Fatalf("facets %+v, want genre then year", got)
	}
	g := got[0]
	if g.Type != ColList || len(g.Values) != 16 || len(g.Counts) != 16 {
		t.Fatalf("genre: type %s, %d values, %d counts; want a list of 16", g.Type, len(g.Values), len(g.Counts))
	}
	wantHead := []string{"Children's", "Comedy", "Drama", "Horror", "Romance", "Sci-Fi", "Thriller"}
	if !slices.Equal(g.Values[:7], wantHead) || !slices.Equal(g.Counts[:7], []int{2, 2, 2, 2, 2, 2, 2}) {
		t.Errorf("genre's most common: %v %v, want %v each held by 2", g.Values[:7], g.Counts[:7], wantHead)
	}
	if y := got[1]; y.Type != ColNumber || y.Unit != UnitYear || y.Min != 1939 || y.Max != 1998 || y.Values != nil {
		t.Errorf("year: %+v, want a number facet of years 1939 to 1998", y)
	}
}

func TestValueAndRangeClauses(t *testing.T) {
	l := films(t)
	c, ok := l.ValueClause("genre", "sci fi")
	if !ok || c.Value != "Sci-Fi" || c.How != HowLLM || c.Facet != "genre" {
		t.Errorf("ValueClause(genre, sci fi) = %+v, %v; want the catalog's Sci-Fi, how llm", c, ok)
	}
	for _, bad := range [][2]string{{"genre", "Western"}, {"title", "Alien"}, {"year", "1979"}, {"studio", "MGM"}} {
		if c, ok := l.ValueClause(bad[0], bad[1]); ok {
			t.Errorf("ValueClause(%s, %s) = %+v, want none", bad[0], bad[1], c)
		}
	}
	f := func(x float64) *float64 { return &x }
	r, err := l.RangeClause("year", nil, f(1960))
	if err != nil || r.Value != "at most 1960" || r.Unit != UnitYear || !r.Numeric() || r.Label() != "year at most 1960" {
		t.Errorf("RangeClause(year, ≤1960) = %+v, %v", r, err)
	}
	it := l.CatalogItem(3) // Casablanca, 1942
	if !l.Meets(r, it) || l.Meets(r, l.CatalogItem(0)) {
		t.Error("a model's range is not met as a number: Casablanca (1942) must meet year at most 1960, Alien (1979) not")
	}
	for _, tt := range []struct {
		facet    string
		min, max *float64
		want     string
	}{
		{"genre", nil, f(1960), `"genre" is not a number facet`},
		{"rating", nil, f(3), `"rating" is not a facet of the catalog`},
		{"year", nil, nil, "a range needs a min or a max"},
		{"year", f(math.Inf(1)), nil, "a bound is not a finite number"},
		{"year", f(1990), f(1980), "min 1990 is above max 1980"},
		{"year", nil, f(1900), "matches nothing in this catalog (its year run from 1939 to 1998)"},
	} {
		if _, err := l.RangeClause(tt.facet, tt.min, tt.max); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("RangeClause(%s, %v, %v) = %v, want %q", tt.facet, tt.min, tt.max, err, tt.want)
		}
	}
}

func TestUnknownScope(t *testing.T) {
	l := films(t)
	for _, tt := range []struct{ in, word, scope string }{
		{"gory films", "gory", ScopeOnly},
		{"only gory films", "gory", ScopeOnly},
		{"no gory films", "gory", ScopeExclude},
		{"preferably gory", "gory", ScopePrefer},
		{"fewer gory ones", "gory", ScopeAvoid},
		{"gory films", "bloody", ""},
	} {
		in := l.Parse(tt.in, nil)
		if got := in.UnknownScope(tt.word); got != tt.scope {
			t.Errorf("%q: UnknownScope(%q) = %q, want %q (unknown %v)", tt.in, tt.word, got, tt.scope, in.Unknown)
		}
	}
}

func TestResolve(t *testing.T) {
	l := films(t)
	in := l.Parse("no gory films. no slimy films. only zany ones", nil)
	if !slices.Equal(in.Unknown, []string{"gory", "slimy", "zany"}) {
		t.Fatalf("unknown %v, want gory, slimy, zany", in.Unknown)
	}
	before := len(in.Notes)
	in.Resolve([]string{"gory", "zany", "never typed"})
	if !slices.Equal(in.Unknown, []string{"slimy"}) || in.UnknownScope("slimy") != ScopeExclude || in.UnknownScope("gory") != "" {
		t.Errorf("after Resolve: unknown %v (slimy read as %q)", in.Unknown, in.UnknownScope("slimy"))
	}
	if !slices.Equal(in.Negative, []string{"slimy"}) || !slices.Equal(in.NegatedUnknown, []string{"slimy"}) || len(in.Positive) != 0 {
		t.Errorf("hint words: negative %v, negated unknown %v, positive %v; want slimy only", in.Negative, in.NegatedUnknown, in.Positive)
	}
	if len(in.Notes) != before-1 {
		t.Errorf("notes %q: the note that zany after only matched nothing must go", in.Notes)
	}
}

func TestWidens(t *testing.T) {
	l := films(t)
	in := l.Parse("comedies from the seventies", nil)
	year, _ := l.RangeClause("year", nil, ptr(1960.0))
	drama, _ := l.ValueClause("genre", "Drama")
	if !l.Widens(&in, year) {
		t.Error("a second year range would be an alternative of the seventies: it widens")
	}
	if l.Widens(&in, drama) {
		t.Error("a genre is a list facet: a second genre is asked for too, which narrows")
	}
}

func ptr[T any](v T) *T { return &v }

func TestSupports(t *testing.T) {
	l := films(t)
	vec := map[string][]float32{"grisly": {0.8, 0.6}, "horror": {1, 0}, "comedy": {0, 1}, "old": {0, 1}, "ancient": {0.6, 0.8}}
	l.WordVec = func(w string) ([]float32, bool) { v, ok := vec[w]; return v, ok }
	horror, _ := l.ValueClause("genre", "Horror")
	comedy, _ := l.ValueClause("genre", "Comedy")
	thriller, _ := l.ValueClause("genre", "Thriller")
	old, _ := l.RangeClause("year", nil, ptr(1960.0))
	recent, _ := l.RangeClause("year", ptr(1990.0), nil)
	closed, _ := l.RangeClause("year", ptr(1950.0), ptr(1960.0))
	for _, tt := range []struct {
		word string
		c    Clause
		ok   bool
	}{
		{"Horrorfilme", horror, true}, // begins like horror
		{"thriler", thriller, true},   // one edit
		{"thrlr", thriller, false},    // three edits
		{"grisly", horror, true},      // cosine 0.8
		{"grisly", comedy, true},      // cosine 0.6, at least 0.5
		{"ancient", horror, true},     // 0.6
		{"zany", comedy, false},       // no vector, no spelling
		{"old", old, true},            // a word for low years
		{"old", recent, false},        // the wrong side
		{"ancient", old, true},        // near "old": cosine 0.8
		{"old", closed, false},        // a closed range is no word's meaning
		{"two words", comedy, false},
	} {
		if _, ok := l.Supports(tt.word, tt.c); ok != tt.ok {
			t.Errorf("Supports(%q, %s) = %v, want %v", tt.word, tt.c.Label(), ok, tt.ok)
		}
	}
}

func TestFilterRelaxesTheModelsClauseFirst(t *testing.T) {
	l := films(t)
	in := l.Parse("comedies", nil)
	war, _ := l.ValueClause("genre", "War")
	war.Text = "zany"
	in.Only = append(in.Only, war) // no comedy is a war film
	items := make([]*Item, 10)
	for i := range items {
		items[i] = l.CatalogItem(i)
	}
	keep, relaxed := l.Filter(&in, items)
	if len(relaxed) != 1 || relaxed[0].Value != "War" {
		t.Fatalf("relaxed %+v, want the model's War dropped, not the user's Comedy", relaxed)
	}
	var kept []int
	for i, k := range keep {
		if k {
			kept = append(kept, i)
		}
	}
	if !reflect.DeepEqual(kept, []int{1, 2}) { // Airplane!, Toy Story
		t.Errorf("kept %v, want the two comedies", kept)
	}
}
