package peers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
)

// Units with hand-computed tokens: ceil(code points of "[date] speaker: text" / 4).
var handUnits = []struct {
	u      slate.Unit
	tokens int
}{
	// "[8 May, 2023] Caroline: hi": 14 + 10 + 2 = 26 code points → 7.
	{slate.Unit{ID: "a", Session: "S1", Date: "8 May, 2023", Speaker: "Caroline", Text: "hi"}, 7},
	// "A: " + 37 letters = 40 → 10.
	{slate.Unit{ID: "b", Session: "S1", Speaker: "A", Text: strings.Repeat("x", 37)}, 10},
	// "A: " + 38 letters = 41 → 11.
	{slate.Unit{ID: "c", Session: "S1", Speaker: "A", Text: strings.Repeat("x", 38)}, 11},
	// No date, no speaker: "café" is 4 code points (5 bytes) → 1.
	{slate.Unit{ID: "d", Session: "S2", Text: "café"}, 1},
	// "[2023-05-08] " (13, from Time) + "B: " (3) + 16 = 32 → 8.
	{slate.Unit{ID: "e", Session: "S2", Time: "2023-05-08", Speaker: "B", Text: "sixteen letters!"}, 8},
}

func TestFill(t *testing.T) {
	tokens := map[string]int{}
	for _, h := range handUnits {
		if got := h.u.Tokens(); got != h.tokens {
			t.Fatalf("unit %s: %q is %d tokens, want %d", h.u.ID, h.u.Render(), got, h.tokens)
		}
		tokens[h.u.ID] = h.tokens
	}
	// Tokens: a 7, b 10, c 11, d 1, e 8.
	cases := []struct {
		name   string
		ranked []string
		budget int
		want   []string
		used   int
	}{
		{"all fit", []string{"a", "b", "c", "d", "e"}, 37, []string{"a", "b", "c", "d", "e"}, 37},
		{"zero budget", []string{"a", "b"}, 0, nil, 0},
		{"exact fit", []string{"b", "c"}, 21, []string{"b", "c"}, 21},
		{"skip and go on", []string{"c", "b", "d", "a"}, 13, []string{"c", "d"}, 12},
		{"rank order, not size", []string{"e", "a", "d", "b"}, 16, []string{"e", "a", "d"}, 16},
		{"first too big", []string{"c", "a", "e"}, 10, []string{"a"}, 7},
		{"no hits", nil, 2000, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, used := fill(c.ranked, tokens, c.budget)
			if !slices.Equal(got, c.want) || used != c.used {
				t.Fatalf("fill(%v, B=%d) = %v, %d; want %v, %d", c.ranked, c.budget, got, used, c.want, c.used)
			}
		})
	}
}

// TestBleveBM25 checks, on a hand-made memory, that the index scores with
// BM25 (not bleve's default TF-IDF), that the en analyzer stems and drops
// stop words, and that the peer's slate respects the budget.
func TestBleveBM25(t *testing.T) {
	units := []slate.Unit{
		{ID: "u1", Session: "S1", Speaker: "Ann", Text: "I went hiking in the mountains last weekend."},
		{ID: "u2", Session: "S1", Speaker: "Bob", Text: "The painting class was fun, I painted a lake."},
		{ID: "u3", Session: "S2", Speaker: "Ann", Text: "My dog loves the beach."},
		{ID: "u4", Session: "S2", Speaker: "Bob", Text: "We adopted two cats and a dog from the shelter."},
	}
	p, err := newBlevePeer(units)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	expl, err := p.explainTop("paintings")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(expl, "as per bm25 model") {
		t.Fatalf("scoring is not BM25; explanation:\n%s", expl)
	}
	for _, c := range []struct {
		query string
		first string
	}{
		{"Who paints?", "u2"},              // stemmed: paints, painting, painted
		{"Where did Ann hike?", "u1"},      // hike ~ hiking
		{"the a of and", ""},               // stop words only: no hit
		{"Whose dog loves beaches?", "u3"}, // dog in u3 and u4; beach only in u3
	} {
		ranked, err := p.rank(c.query, hits)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(ranked) > 0 {
			got = ranked[0]
		}
		if got != c.first {
			t.Errorf("%q: first hit %q, want %q (all: %v)", c.query, got, c.first, ranked)
		}
	}
	// "dog" ranks u3 and u4; at a budget of u3's tokens only u3 enters.
	b := units[2].Tokens()
	ids, used, ranked, err := p.selectSlate("dog", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) != 2 || !slices.Equal(ids, []string{"u3"}) || used != b {
		t.Fatalf("dog at B=%d: ranked %v, slate %v (%d tokens); want 2 ranked, slate [u3] of %d", b, ranked, ids, used, b)
	}
}

// TestBleveTies checks that equal scores rank in insertion order, whatever
// order bleve numbered the documents in, on every build of the index.
func TestBleveTies(t *testing.T) {
	var units []slate.Unit
	for i := range 6 {
		units = append(units, slate.Unit{ID: string(rune('a' + i)), Session: "S1", Text: "Jazz tonight at the club."})
	}
	units = append(units, slate.Unit{ID: "z", Session: "S1", Text: "Jazz, jazz and more jazz."})
	for range 5 {
		p, err := newBlevePeer(units)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.rank("jazz", hits)
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"z", "a", "b", "c", "d", "e", "f"}; !slices.Equal(got, want) {
			t.Fatalf("rank(jazz) = %v, want %v", got, want)
		}
	}
}
