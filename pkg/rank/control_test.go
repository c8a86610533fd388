package rank

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/memory"
)

// seriesCatalog has five Assassin's Creed games (the most popular), two
// editions of Halo 4, a Halo 5 and three others, ranked by popularity alone.
func seriesCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	items := []struct {
		id, title, platform, series string
		pop                         int
	}{
		{"ac1", "Assassin's Creed Unity", "Xbox One", "Assassin's Creed", 100},
		{"ac2", "Assassin's Creed Syndicate", "Xbox One", "Assassin's Creed", 99},
		{"ac3", "Assassin's Creed Origins", "Xbox One", "Assassin's Creed", 98},
		{"ac4", "Assassin's Creed Odyssey", "PlayStation 4", "Assassin's Creed", 97},
		{"ac5", "Assassin's Creed Rogue", "PlayStation 3", "Assassin's Creed", 96},
		{"h4", "Halo 4", "Xbox 360", "Halo", 95},
		{"h4l", "Halo 4: Limited Edition", "Xbox 360", "Halo", 94},
		{"h5", "Halo 5: Guardians", "Xbox One", "Halo", 50},
		// No series of its own, but its title begins with one the
		// catalog names.
		{"hr", "Halo Reach", "Xbox 360", "", 45},
		{"f", "Forza Motorsport 6", "Xbox One", "", 40},
		{"m", "Minecraft", "PC", "", 30},
		{"s", "The Sims 4", "PC", "", 20},
	}
	var b strings.Builder
	b.WriteString(`{"format":"recmem.catalog","version":1,"dataset":"series","meta_names":["title","platform","series"],"dim":0,"items":[`)
	for i, it := range items {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%q,"meta":[%q,%q,%q],"pop":%d}`, it.id, it.title, it.platform, it.series, it.pop)
	}
	b.WriteString(`],"weights":{"popularity":{"weight":1,"scale":1},"preference":{"weight":1,"scale":1}}}`)
	c, err := catalog.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ids(rs []Ranked) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, " ")
}

func all(c *catalog.Catalog) []Candidate {
	out := make([]Candidate, c.Len())
	for i := range out {
		out[i] = Candidate{ID: c.IDs[i]}
	}
	return out
}

// rankWith ranks every item of r's catalog for u under an instruction (""
// for none), through Understand as the rank export does.
func rankWith(t *testing.T, r *Ranker, u User, instruction string) []Ranked {
	t.Helper()
	req := Request{Candidates: all(r.cat), Instruction: instruction}
	if instruction != "" {
		und := r.Understand(req)
		req = und.Constrained(req)
	}
	out, err := r.Rank(u, req)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(out); k++ {
		if out[k].Score > out[k-1].Score {
			t.Fatalf("score not monotone with the order at %d: %s", k, ids(out))
		}
	}
	return out
}

func TestVariety(t *testing.T) {
	r := New(seriesCatalog(t))
	cases := []struct {
		name, instruction, want string
		cap                     int
	}{
		// By popularity alone: five Assassin's Creed, then two editions
		// of Halo 4.
		{"no cap", "", "ac1 ac2 ac3 ac4 ac5 h4 h4l h5 hr f m s", -1},
		// Three of a series, one edition of a title, then the rest in
		// score order.
		{"the default cap", "", "ac1 ac2 ac3 h4 h5 hr f m s ac4 ac5 h4l", 0},
		{"a cap of one", "", "ac1 h4 f m s ac2 ac3 ac4 ac5 h4l h5 hr", 1},
	}
	for _, c := range cases {
		r.SeriesCap = c.cap
		if got := ids(rankWith(t, r, User{}, c.instruction)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	// An instruction that asks for the series gets it whole, first.
	for _, in := range []string{"Assassin's Creed games", "more Assassin's Creed", "only Assassin's Creed"} {
		r.SeriesCap = 0
		got := rankWith(t, r, User{}, in)
		for k := range 5 {
			if !strings.HasPrefix(got[k].ID, "ac") {
				t.Errorf("%q: %s", in, ids(got))
				break
			}
		}
	}
	r.SeriesCap = 0
	out := rankWith(t, r, User{}, "")
	last := out[len(out)-1].Explanation.Children
	if msg := last[len(last)-1].Message; msg != "another edition of a title already in the list: shown after the others" {
		t.Errorf("h4l says %q", msg)
	}
}

func TestStatedAvoidance(t *testing.T) {
	r := New(seriesCatalog(t))
	halo := Chunk{Category: "series", Text: "Avoids the Halo series", Strength: -1, Keys: []string{"halo"}, Stated: true}
	u := User{Chunks: []Chunk{halo}}
	// Halo comes after everything else, whatever its popularity (the memory
	// text of "Halo 4" puts it just below its limited edition, which the
	// list then counts as the first edition).
	if got := ids(rankWith(t, r, u, "")); got != "ac1 ac2 ac3 f m s ac4 ac5 hr h4l h5 h4" {
		t.Errorf("avoided: %s", got)
	}
	// Unless the instruction asks for it.
	if got := ids(rankWith(t, r, u, "Halo please")); !strings.HasPrefix(got, "h4") {
		t.Errorf("asked for Halo: %s", got)
	}
	// Below full strength it is a preference like another, not a wall.
	weaker := halo
	weaker.Strength = -0.9
	if got := ids(rankWith(t, r, User{Chunks: []Chunk{weaker}}, "")); strings.HasSuffix(got, "h4 h5 h4l") {
		t.Errorf("a 0.9 avoidance walls Halo off: %s", got)
	}
}

func TestStatedLiking(t *testing.T) {
	r := New(seriesCatalog(t))
	halo := Chunk{Category: "series", Text: "Likes Halo", Strength: 1, Keys: []string{"halo"}, Stated: true}
	// Halo first, three of it (the cap holds over the liking), then the
	// rest; the limited edition and Halo Reach, as the fourth and an edition,
	// after the others.
	got := ids(rankWith(t, r, User{Chunks: []Chunk{halo}}, ""))
	if !strings.HasPrefix(got, "h4 h5 hr ac1 ac2 ac3") {
		t.Errorf("liked: %s", got)
	}
	// Avoided and liked at once: the avoidance wins (Halo 5, on Xbox One,
	// goes with the other Xbox One games, after the rest).
	avoid := Chunk{Category: "platform", Text: "Avoids Xbox One", Strength: -1, Keys: []string{"xbox one"}, Stated: true}
	got = ids(rankWith(t, r, User{Chunks: []Chunk{halo, avoid}}, ""))
	if got != "h4 hr ac4 ac5 m s h4l h5 ac1 f ac2 ac3" {
		t.Errorf("liked and avoided: %s", got)
	}
}

// TestDeletedPreferenceMutesItsEvents: the user bought "c" (farm) and then
// "a" (an action shooter), and deleted the preference for action shooters.
// No feature of taste reads "a" any more, for any candidate, as if the user
// had bought "c" alone: "b", another action shooter, loses what "a" gave
// it, and "d" and "e" (not action shooters) are scored with "c" as the
// latest purchase, as a user who never bought "a" would see them; "a"
// stays seen. Values by hand from testdata/catalog/tiny.json (transition
// decay 0.7, co-occurrence decay 0.9, latest purchase first).
func TestDeletedPreferenceMutesItsEvents(t *testing.T) {
	r := New(tiny(t))
	req := Request{Candidates: []Candidate{{ID: "a"}, {ID: "b"}, {ID: "d"}, {ID: "e"}}}
	u := User{Events: []Event{{Item: "c"}, {Item: "a"}}}
	before, err := r.Vectors(u, req)
	if err != nil {
		t.Fatal(err)
	}
	u.Tombstones = []Tombstone{{Category: "category", Keys: []string{"action shooter"}, Text: "Enjoys Action Shooter", Events: []int{1}}}
	after, err := r.Vectors(u, req)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := r.Vectors(User{Events: []Event{{Item: "c"}}}, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cand    int
		feature string
		was, is float64
	}{
		{1, "transition", 0.75, 0},     // a→b 0.75 at weight 1; c→b none
		{1, "cooccurrence", 0.5, 0},    // a~b 0.5 at weight 1
		{2, "transition", 0.7, 1},      // c→d 1 at weight 0.7, then at 1
		{3, "cooccurrence", 0.45, 0.5}, // c~e 0.5 at weight 0.9, then at 1
		{0, "novelty", 0, 0},           // a was bought: still seen
		{1, "novelty", 1, 1},
	} {
		f := feature(c.feature)
		if got, was := after[c.cand][f], before[c.cand][f]; math.Abs(was-c.was) > 1e-12 || math.Abs(got-c.is) > 1e-12 {
			t.Errorf("candidate %s %s: %v then %v, want %v then %v", req.Candidates[c.cand].ID, c.feature, was, got, c.was, c.is)
		}
	}
	// Every feature but novelty is what the user who bought "c" alone gets.
	for k := range req.Candidates {
		for f, name := range Features {
			if name != "novelty" && after[k][f] != alone[k][f] {
				t.Errorf("candidate %s %s: %v after the deletion, %v for a user who never bought a", req.Candidates[k].ID, name, after[k][f], alone[k][f])
			}
		}
	}
}

// TestDeletedNote: a candidate about a deleted preference says that its
// evidence is not read; one about none says nothing.
func TestDeletedNote(t *testing.T) {
	shooter := Tombstone{Category: "category", Keys: []string{"action shooter"}, Text: "Enjoys Action Shooter", Events: []int{0, 3}}
	horror := Tombstone{Category: "genre", Keys: []string{"horror"}, Text: "Avoids Horror", Disliked: []int{2}}
	empty := Tombstone{Category: "genre", Keys: []string{"racing"}, Text: "Enjoys Racing"}
	keys := []memory.ItemKey{{Category: "category", Key: "action shooter"}, {Category: "genre", Key: "horror"}, {Category: "genre", Key: "racing"}}
	for _, c := range []struct {
		name string
		ts   []Tombstone
		keys []memory.ItemKey
		want string
	}{
		{"two events", []Tombstone{shooter}, keys, `the user deleted "Enjoys Action Shooter": the 2 events that showed it are not read`},
		{"one disliked", []Tombstone{horror}, keys, `the user deleted "Avoids Horror": the event that showed it is not read`},
		{"both", []Tombstone{shooter, horror}, keys, `the user deleted "Enjoys Action Shooter" and "Avoids Horror": the 3 events that showed them are not read`},
		{"no evidence in the list", []Tombstone{empty}, keys, ""},
		{"not about it", []Tombstone{shooter}, []memory.ItemKey{{Category: "category", Key: "racing family"}}, ""},
	} {
		u := User{Tombstones: c.ts}
		if got := deletedNote(&u, c.keys); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFromMemoryTombstones: a deleted liking's evidence is the liked and
// neutral events about it in memory at the deletion (indices into
// User.Events), a deleted avoidance's the disliked ones (into
// User.Disliked); later events are new evidence.
func TestFromMemoryTombstones(t *testing.T) {
	ev := func(n int, rating int, genre string) memory.Event {
		return memory.Event{ID: "e" + strconv.Itoa(n), Item: "i" + strconv.Itoa(n), Action: "rate", Rating: rating, Meta: map[string][]string{"genre": {genre}}}
	}
	m := &memory.State{
		// User.Events: e1 (0), e3 (1), e4 (2), e6 (3); User.Disliked: e2 (0), e5 (1).
		Events: []memory.Event{ev(1, 5, "Horror"), ev(2, 1, "Horror"), ev(3, 3, "Horror"), ev(4, 4, "Comedy"), ev(5, 2, "Horror"), ev(6, 5, "Horror")},
		Tombstones: []memory.Tombstone{
			{Chunk: "c1", Category: "genre", Key: "horror", Polarity: "likes", Text: "Enjoys Horror", Before: 6},
			{Chunk: "c2", Category: "genre", Key: "horror", Polarity: "avoids", Text: "Avoids Horror", Before: 5},
		},
	}
	u := FromMemory(m)
	if len(u.Events) != 4 || len(u.Disliked) != 2 || len(u.Tombstones) != 2 {
		t.Fatalf("events %d, disliked %d, tombstones %d", len(u.Events), len(u.Disliked), len(u.Tombstones))
	}
	for i, want := range []struct{ events, disliked []int }{
		{[]int{0, 1}, nil}, // e1 and e3 (e6 came after the deletion)
		{nil, []int{0}},    // e2 (e5 came after)
	} {
		if got := u.Tombstones[i]; !slices.Equal(got.Events, want.events) || !slices.Equal(got.Disliked, want.disliked) {
			t.Errorf("tombstone %d: events %v disliked %v, want %v %v", i, got.Events, got.Disliked, want.events, want.disliked)
		}
	}
}

// TestStrengthIsMonotone: raising a liked chunk's strength never lowers
// an item it is about, nor raises one it is not about, against the others.
func TestStrengthIsMonotone(t *testing.T) {
	cat := tiny(t)
	cat.Weights["preference"] = 1
	r := New(cat)
	prev := -1.0
	for _, s := range []float64{0, 0.25, 0.5, 0.75, 1} {
		u := User{Events: []Event{{Item: "c"}}, Chunks: []Chunk{{Category: "category", Text: "Enjoys Racing Family", Strength: s, Keys: []string{"racing family"}}}}
		out, err := r.Rank(u, Request{Candidates: []Candidate{{ID: "a"}, {ID: "b"}, {ID: "d"}, {ID: "e"}}})
		if err != nil {
			t.Fatal(err)
		}
		var d, rest float64
		for _, x := range out {
			if x.ID == "d" {
				d = x.Score
			} else {
				rest = max(rest, x.Score)
			}
		}
		if gap := d - rest; gap < prev {
			t.Errorf("strength %v: d's lead over the best other %v fell from %v", s, gap, prev)
		} else {
			prev = gap
		}
	}
}

func TestGround(t *testing.T) {
	r := New(seriesCatalog(t))
	for _, c := range []struct {
		words, facet, values string
		ok                   bool
	}{
		{"Halo", "series", "Halo", true},
		{"Xbox One", "platform", "Xbox One", true},
		{"racing", "", "", false},          // no facet value
		{"Halo and racing", "", "", false}, // a word left unknown
		{"Guardians", "", "", false},       // a title phrase
	} {
		facet, values, ok := r.Ground(c.words)
		if facet != c.facet || strings.Join(values, ",") != c.values || ok != c.ok {
			t.Errorf("Ground(%q) = %s %v %v, want %s %s %v", c.words, facet, values, ok, c.facet, c.values, c.ok)
		}
	}
}

// TestVarietyOfKinds: five controllers are the most popular items of a
// catalog of games; at most three come before the games, unless asked for.
func TestVarietyOfKinds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format":"recmem.catalog","version":1,"dataset":"kinds","meta_names":["title","kind"],"dim":0,"items":[`)
	for i := range 11 {
		kind, title := "game", fmt.Sprintf("Game Number %c", 'A'+i)
		if i < 5 {
			kind, title = "accessory", fmt.Sprintf("Controller Model %c", 'A'+i)
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"i%d","meta":[%q,%q],"pop":%d}`, i, title, kind, 100-i)
	}
	b.WriteString(`],"weights":{"popularity":{"weight":1,"scale":1}}}`)
	c, err := catalog.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := New(c)
	if got := ids(rankWith(t, r, User{}, "")); got != "i0 i1 i2 i5 i6 i7 i8 i9 i10 i3 i4" {
		t.Errorf("kinds: %s", got)
	}
	if got := ids(rankWith(t, r, User{}, "accessory")); !strings.HasPrefix(got, "i0 i1 i2 i3 i4") {
		t.Errorf("asked for accessories: %s", got)
	}
}
