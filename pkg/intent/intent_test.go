package intent

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// tiny is a hand-made catalog: every expectation below can be checked by
// reading it.
func tiny(t testing.TB) *Linker {
	names := []string{"title", "platform", "series", "kind"}
	meta := [][]string{
		{"Halo 3 - Xbox 360", "Xbox 360", "Halo", "game"},
		{"Halo Wars - Xbox 360", "Xbox 360", "", "game"},
		{"Mario Kart 8 - Nintendo Wii U", "Nintendo Wii U", "Mario Kart", "game"},
		{"Super Mario 3D World - Nintendo Wii U", "Nintendo Wii U", "", "game"},
		{"Call of Duty: Black Ops - PlayStation 3", "PlayStation 3", "Call of Duty", "game"},
		{"Xbox 360 Wireless Controller", "Xbox 360", "", "accessory"},
		{"Final Fantasy X - PlayStation 2", "PlayStation 2", "Final Fantasy", "game"},
		{"Assassin's Creed II - PlayStation 3", "PlayStation 3", "Assassin's Creed", "game"},
	}
	tb, err := ParseTable([]byte(`{"aliases": {"platform": {"PS3": ["PlayStation 3"], "360": ["Xbox 360"],
		"PlayStation": ["PlayStation 2", "PlayStation 3"]}, "kind": {"accessories": ["accessory"]}},
		"filler": ["game", "games"], "title_facets": ["series"]}`))
	if err != nil {
		t.Fatal(err)
	}
	return NewLinker(names, meta, tb)
}

func TestParse(t *testing.T) {
	l := tiny(t)
	tests := []struct {
		in, summary string
		notes       []string
		conflicts   int
	}{
		{"no Halo", "not: Halo", nil, 0},
		{"anything but Call of Duty", "not: Call of Duty", nil, 0},
		{"not Xbox 360", "not: Xbox 360", nil, 0},
		{"I only play on PS3", "only: PlayStation 3", nil, 0},
		{"Mario, but not Mario Kart", "only: mario · not: Mario Kart", nil, 0},
		{"no Halo or Call of Duty", "not: Halo · not: Call of Duty", nil, 0},
		{"no Halo and something for my 360", "only: Xbox 360 · not: Halo", nil, 0},
		{"Halo is not for me", "not: Halo", nil, 0},
		{"Halo? No thanks.", "not: Halo", nil, 0},
		{"PS3 games only", "only: PlayStation 3", nil, 0},
		{"playstation", "only: PlayStation 2 · only: PlayStation 3", nil, 0},
		{"no accessories", "not: accessory", nil, 0},
		{"Final Fantasy 10", "only: final fantasy 10", nil, 0},
		{"Final Fantasy X", "only: final fantasy x", nil, 0},
		{"no Assassins Creed", "not: Assassin's Creed", nil, 0},
		{"preferably Halo", "prefer: Halo", nil, 0},
		{"less Halo", "avoid: Halo", nil, 0},
		{"no shooters", "not understood: shooters", nil, 0},
		{"Zork", "not understood: zork", nil, 0},
		{"only Halo, no Halo", "not: Halo", nil, 1},
		{"", "", []string{"no instruction: nothing to act on"}, 0},
		{"the of and", "", []string{"only common words: nothing to act on"}, 0},
		{"no", "", []string{`"no" is followed by nothing to act on`}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := l.Parse(tt.in, nil)
			if got := in.Summary(); got != tt.summary {
				t.Errorf("Summary = %q, want %q", got, tt.summary)
			}
			if tt.notes != nil && !reflect.DeepEqual(in.Notes, tt.notes) {
				t.Errorf("Notes = %q, want %q", in.Notes, tt.notes)
			}
			if len(in.Conflicts) != tt.conflicts {
				t.Errorf("Conflicts = %q, want %d", in.Conflicts, tt.conflicts)
			}
		})
	}
}

// TestNegatedWordNeverPositive: the words of a negated scope never reach
// the positive words the ranker's text features read.
func TestNegatedWordNeverPositive(t *testing.T) {
	l := tiny(t)
	for _, s := range []string{"no shooters", "not Halo", "anything but racing", "I don't want horror"} {
		in := l.Parse(s, nil)
		if len(in.Positive) != 0 || len(in.Only)+len(in.Prefer) != 0 {
			t.Errorf("%q: positive words %q, only %v, prefer %v", s, in.Positive, in.Only, in.Prefer)
		}
	}
}

func TestFilterAndRelax(t *testing.T) {
	l := tiny(t)
	items := make([]*Item, len(l.items))
	for i := range items {
		items[i] = l.CatalogItem(i)
	}
	tests := []struct {
		in      string
		keep    string // one digit per item: 1 kept
		relaxed []Relaxed
	}{
		{"no Halo", "00111111", nil},                   // Halo Wars has no series: its title holds Halo
		{"not Xbox 360", "00111011", nil},              // items 0, 1 and 5 are on Xbox 360
		{"PS3 or PlayStation 2 only", "00001011", nil}, // OR within one facet
		{"Mario on the Wii U", "00110000", nil},        // "mario" is a title phrase: both Wii U items hold it
		{"Halo and Mario", "11110000", nil},            // the title and title facets are one group
		// Dropping either leaves 2: the last mentioned goes.
		{"Halo on PS3", "11000000", []Relaxed{{"only", "platform", "PlayStation 3", `no candidate met every constraint: "only PlayStation 3" was dropped, which leaves 2`, []string{"PlayStation 3"}}}},
		// Everything is excluded; dropping "not PS3" or "not wii u" (a
		// title phrase here: this table has no Wii U alias) leaves 2 each,
		// "not 360" and "not PlayStation 2" 1, "not Halo" 0.
		{"no Halo, no 360, no PS3, no PlayStation 2, no Wii U", "00110000", []Relaxed{
			{"exclude", "title", "wii u", `no candidate met every constraint: "not wii u" was dropped, which leaves 2`, []string{"wii u"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := l.Parse(tt.in, nil)
			keep, relaxed := l.Filter(&in, items)
			var b strings.Builder
			for _, k := range keep {
				if k {
					b.WriteByte('1')
				} else {
					b.WriteByte('0')
				}
			}
			if b.String() != tt.keep {
				t.Errorf("keep = %s, want %s (%s)", b.String(), tt.keep, in.Summary())
			}
			if !reflect.DeepEqual(relaxed, tt.relaxed) {
				t.Errorf("relaxed = %+v, want %+v", relaxed, tt.relaxed)
			}
		})
	}
}

// TestImplies: a filler word of a positive scope ("PS3 games") adds the
// value the table says it implies as a preference, never a filter; under a
// negation, or when the instruction names the facet itself, it adds nothing.
// A value the catalog lacks is never implied.
func TestImplies(t *testing.T) {
	names := []string{"title", "platform", "series", "kind"}
	meta := [][]string{
		{"Halo 3 - Xbox 360", "Xbox 360", "Halo", "game"},
		{"Xbox 360 Wireless Controller", "Xbox 360", "", "accessory"},
		{"Call of Duty: Black Ops - PlayStation 3", "PlayStation 3", "Call of Duty", "game"},
	}
	tb, err := ParseTable([]byte(`{"aliases": {"platform": {"PS3": ["PlayStation 3"], "360": ["Xbox 360"]}, "kind": {"accessories": ["accessory"]}},
		"filler": ["game", "games", "titles"], "implies": {"games": {"facet": "kind", "value": "game"}, "titles": {"facet": "kind", "value": "book"}},
		"title_facets": ["series"]}`))
	if err != nil {
		t.Fatal(err)
	}
	l := NewLinker(names, meta, tb)
	for _, tt := range []struct{ in, summary string }{
		{"PS3 games", "only: PlayStation 3 · prefer: game"},
		{"games", "prefer: game"},
		{"no Halo games", "not: Halo"},
		{"Halo games, but no accessories", "only: Halo · not: accessory · prefer: game"},
		{"360 accessories and games", "only: Xbox 360 · only: accessory"},
		{"preferably games", "prefer: game"},
		{"titles", ""}, // kind "book" is not in the catalog: filler only
	} {
		in := l.Parse(tt.in, nil)
		if got := in.Summary(); got != tt.summary {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.summary)
		}
		if in.Hard() && len(in.Only) > 0 {
			for _, c := range in.Only {
				if c.Facet == "kind" && c.Value == "game" {
					t.Errorf("%q: an implied value became a filter", tt.in)
				}
			}
		}
	}
}

func TestParseTableErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"aliases": {"platform": {"": ["x"]}}}`, `aliases.platform: alias "" is empty`},
		{`{"aliases": {"platform": {"ps": []}}}`, `aliases.platform.ps: no value`},
		{`{"alias": {}}`, `unknown field "alias"`},
		{`{"filler": [" "]}`, `filler[0]`},
		{`{"implies": {"video games": {"facet": "kind", "value": "game"}}}`, `implies: "video games" is not one word`},
		{`{"implies": {"games": {"facet": "title", "value": "game"}}}`, `implies.games: wants a facet (not title) and a value`},
		{`{"implies": {"games": {"facet": "kind", "value": " "}}}`, `implies.games: wants a facet`},
	} {
		_, err := ParseTable([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// BenchmarkParse parses the instructions against the demo catalog
// (3,000 items) and its table; the target is 0.2 ms an instruction.
func BenchmarkParse(b *testing.B) {
	raw, err := os.ReadFile("../../web/catalog/games-demo.json")
	if err != nil {
		b.Skip("no demo catalog")
	}
	var dc struct{ Items []map[string]any }
	if err := json.Unmarshal(raw, &dc); err != nil {
		b.Fatal(err)
	}
	names := []string{"title", "platform", "kind", "series", "format"}
	var meta [][]string
	for _, it := range dc.Items {
		m := make([]string, len(names))
		for k, n := range names {
			m[k], _ = it[n].(string)
		}
		meta = append(meta, m)
	}
	tb, err := os.ReadFile("../../web/catalog/games-intent.json")
	if err != nil {
		b.Fatal(err)
	}
	table, err := ParseTable(tb)
	if err != nil {
		b.Fatal(err)
	}
	l := NewLinker(names, meta, table)
	ins := []string{"no Halo", "anything but Call of Duty", "not Xbox 360", "I only play on PlayStation 2",
		"Mario, but not Mario Kart", "no Battlefield and no Call of Duty, only PS4 games that aren't LEGO please"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Parse(ins[i%len(ins)], nil)
	}
}

// TestParseAnyText: any text within the limit parses, the same way twice,
// and every clause it reports is grounded (has a facet and a value).
func TestParseAnyText(t *testing.T) {
	l := tiny(t)
	words := []string{"no", "not", "only", "Halo", "PS3", ",", ".", "but", "and", "or", "é", "\u2019s", "XIII", "360",
		"preferably", "less", "Mario", "Kart", "the", "?", "\x00", "\xff", "nothing", "else", "my", "son"}
	seed := uint32(1)
	next := func() uint32 { seed = seed*1664525 + 1013904223; return seed >> 8 }
	for n := 0; n < 2000; n++ {
		var b strings.Builder
		for b.Len() < int(next()%120) {
			b.WriteString(words[next()%uint32(len(words))])
			b.WriteByte(' ')
		}
		s := b.String()
		a, c := l.Parse(s, nil), l.Parse(s, nil)
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("%q: two parses differ", s)
		}
		for _, cs := range [][]Clause{a.Only, a.Exclude, a.Prefer, a.Avoid} {
			for _, cl := range cs {
				if cl.Facet == "" || cl.Value == "" {
					t.Fatalf("%q: ungrounded clause %+v", s, cl)
				}
			}
		}
	}
	long := strings.Repeat("no Halo, ", 500)[:4000]
	if in := l.Parse(long, nil); len(in.Exclude) != 1 {
		t.Fatalf("4,000 bytes: %s", in.Summary())
	}
}
