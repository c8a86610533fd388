package intentlab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGold(t *testing.T) {
	halo := map[string]string{"title": "Halo 3 - Xbox 360", "platform": "Xbox 360", "kind": "game"}
	pad := map[string]string{"title": "Xbox 360 Wireless Controller", "platform": "Xbox 360", "kind": "accessory"}
	ac := map[string]string{"title": "Assassin's Creed II - PlayStation 3", "platform": "PlayStation 3", "kind": "game"}
	tests := []struct {
		gold string
		want [3]bool // halo, pad, ac
	}{
		{`{"title": "halo"}`, [3]bool{true, false, false}},
		{`{"not": {"title": "halo"}}`, [3]bool{false, true, true}},
		{`{"title": ["controller", "assassin s creed"]}`, [3]bool{false, true, true}},
		{`{"title": "hal"}`, [3]bool{false, false, false}}, // whole words only
		{`{"platform": "xbox 360"}`, [3]bool{true, true, false}},
		{`{"all": [{"platform": "Xbox 360"}, {"not": {"kind": "accessory"}}]}`, [3]bool{true, false, false}},
		{`{"any": [{"kind": "accessory"}, {"platform": "PlayStation 3"}]}`, [3]bool{false, true, true}},
	}
	for _, tt := range tests {
		var g Gold
		if err := json.Unmarshal([]byte(tt.gold), &g); err != nil {
			t.Fatalf("%s: %v", tt.gold, err)
		}
		got := [3]bool{g.Holds(halo), g.Holds(pad), g.Holds(ac)}
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.gold, got, tt.want)
		}
	}
}

func TestReadCasesErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"id":"a","kind":"negation","instruction":"no x"}`, "line 1: id, instruction and gold are required"},
		{`{"id":"a","kind":"mood","instruction":"x","gold":{"title":"x"}}`, `line 1: kind: "mood" is not one of`},
		{"{\"id\":\"a\",\"kind\":\"only\",\"instruction\":\"x\",\"gold\":{\"title\":\"x\"}}\n{\"id\":\"a\",\"kind\":\"only\",\"instruction\":\"y\",\"gold\":{\"title\":\"y\"}}", `line 2: id "a" repeated`},
		{`{"id":"a","kind":"only","instruction":"x","gold":{"title":"x","platform":"y"}}`, "want exactly one key"},
		{`{"id":"a","kind":"only","instruction":"x","gold":{"title":"x"},"extra":1}`, `unknown field "extra"`},
	} {
		_, err := ReadCases([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestGoldListsAndNumbers judges list-valued fields as sets and numeric
// fields by range, on films as pkg/dataset keeps MovieLens ("|"-joined
// genres, the year as text).
func TestGoldListsAndNumbers(t *testing.T) {
	items := []map[string]string{
		{"title": "Toy Story", "year": "1995", "genre": "Animation|Children's|Comedy"},
		{"title": "Alien", "year": "1979", "genre": "Action|Horror|Sci-Fi|Thriller"},
		{"title": "Casablanca", "year": "1942", "genre": " Drama | Romance|War "},
		{"title": "Untitled", "year": "", "genre": ""},
	}
	tests := []struct {
		gold string
		want [4]bool // toy, alien, casa, untitled
	}{
		{`{"genre": "comedy"}`, [4]bool{true, false, false, false}},                        // one element, any case
		{`{"genre": ["horror", "war"]}`, [4]bool{false, true, true, false}},                // either value
		{`{"genre": "Sci"}`, [4]bool{false, false, false, false}},                          // an element, not a substring
		{`{"genre": "romance"}`, [4]bool{false, false, true, false}},                       // elements are trimmed
		{`{"genre": "Action|Horror|Sci-Fi|Thriller"}`, [4]bool{false, true, false, false}}, // the whole value too
		{`{"all": [{"genre": "Action"}, {"genre": "Sci-Fi"}]}`, [4]bool{false, true, false, false}},
		{`{"not": {"genre": "drama"}}`, [4]bool{true, true, false, true}},
		{`{"year": {"min": 1970, "max": 1979}}`, [4]bool{false, true, false, false}},
		{`{"year": {"max": 1969}}`, [4]bool{false, false, true, false}}, // no year is in no range
		{`{"year": {"min": 1995}}`, [4]bool{true, false, false, false}}, // both ends included
		{`{"not": {"year": {"min": 1990}}}`, [4]bool{false, true, true, true}},
		{`{"unconstrained": "price"}`, [4]bool{true, true, true, true}},
		{`{"all": [{"title": "story"}, {"year": {"min": 1995, "max": 1995}}]}`, [4]bool{true, false, false, false}},
	}
	for _, tt := range tests {
		var g Gold
		if err := json.Unmarshal([]byte(tt.gold), &g); err != nil {
			t.Fatalf("%s: %v", tt.gold, err)
		}
		var got [4]bool
		for i, it := range items {
			got[i] = g.Holds(it)
		}
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.gold, got, tt.want)
		}
	}
	// A price with its currency sign and separators, and a list of prices.
	pad := map[string]string{"title": "Pad", "price": "$1,299.99", "offers": "19.5|€24"}
	for _, tt := range []struct {
		gold string
		want bool
	}{
		{`{"price": {"max": 1300}}`, true},
		{`{"price": {"max": 1299}}`, false},
		{`{"price": {"min": 1299.99, "max": 1299.99}}`, true},
		{`{"offers": {"min": 20, "max": 30}}`, true}, // €24
		{`{"offers": {"max": 19}}`, false},
		{`{"title": {"max": 5}}`, false}, // not a number
	} {
		var g Gold
		if err := json.Unmarshal([]byte(tt.gold), &g); err != nil {
			t.Fatalf("%s: %v", tt.gold, err)
		}
		if got := g.Holds(pad); got != tt.want {
			t.Errorf("%s on %v: %v, want %v", tt.gold, pad, got, tt.want)
		}
	}
}

func TestGoldErrors(t *testing.T) {
	for _, tt := range []struct{ gold, want string }{
		{`{"year": {"min": 1980, "max": 1970}}`, "gold.year: min 1980 is above max 1970"},
		{`{"year": {}}`, "gold.year: a range needs min, max or both"},
		{`{"year": {"from": 1970}}`, `gold.year: want {"min": x, "max": y}: json: unknown field "from"`},
		{`{"year": {"min": "1970"}}`, "gold.year: want"},
		{`{"unconstrained": ""}`, "gold.unconstrained: want the word"},
		{`{"unconstrained": ["price"]}`, "gold.unconstrained: want the word"},
		{`{"all": []}`, "gold.all: want a list of predicates"},
		{`{"any": [null]}`, "gold.any: want a list of predicates"},
		{`{"genre": []}`, "gold.genre: want a string, a list of strings or a range"},
		{`{"genre": 3}`, "gold.genre: want a string, a list of strings or a range"},
	} {
		var g Gold
		err := json.Unmarshal([]byte(tt.gold), &g)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.gold, err, tt.want)
		}
	}
}

func TestValuesAndNumber(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"Action|Comedy", []string{"Action", "Comedy"}},
		{" a | | b ", []string{"a", "b"}},
		{"PlayStation 4", []string{"PlayStation 4"}},
		{"", nil},
	} {
		if got := Values(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Values(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1995", 1995, true}, {"$1,299.99", 1299.99, true}, {" €24 ", 24, true}, {"-5", -5, true},
		{"19.5.1", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {"", 0, false}, {"1995a", 0, false},
	} {
		if got, ok := Number(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("Number(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestUnconstrainedWords(t *testing.T) {
	for _, tt := range []struct {
		gold  string
		words []string
		alone bool
	}{
		{`{"unconstrained": "price"}`, []string{"price"}, true},
		{`{"all": [{"platform": "PlayStation 4"}, {"unconstrained": "price"}]}`, []string{"price"}, false},
		{`{"any": [{"title": "halo"}, {"all": [{"unconstrained": "price"}, {"unconstrained": "rating"}]}]}`, []string{"price", "rating"}, false},
		{`{"title": "halo"}`, nil, false},
	} {
		var g Gold
		if err := json.Unmarshal([]byte(tt.gold), &g); err != nil {
			t.Fatal(err)
		}
		words, alone := g.UnconstrainedWords()
		if !slices.Equal(words, tt.words) || alone != tt.alone {
			t.Errorf("%s: %q, %v; want %q, %v", tt.gold, words, alone, tt.words, tt.alone)
		}
	}
}

// TestReadCasePath reads a directory whose dev.jsonl and heldout.jsonl give
// their cases their split, and never opens the other split's file.
func TestReadCasePath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("dev.jsonl", `{"id":"d1","kind":"genre","instruction":"comedies","gold":{"genre":"Comedy"}}`+"\n")
	write("heldout.jsonl", `{"id":"h1","kind":"genre","instruction":"westerns","gold":{"genre":"Western"}}`+"\n")
	// held-1 is held out by FNV-1a of its id, a1 is not.
	write("other.jsonl", `{"id":"held-1","kind":"only","instruction":"x","gold":{"title":"x"}}`+"\n"+`{"id":"a1","kind":"only","instruction":"y","gold":{"title":"y"},"split":"heldout"}`+"\n")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("sub/more.jsonl", `{"id":"s1","kind":"only","instruction":"z","gold":{"title":"z"}}`+"\n")
	split := func(cs []Case) string {
		var b strings.Builder
		for _, c := range cs {
			fmt.Fprintf(&b, "%s:%v ", c.ID, c.HeldOut())
		}
		return b.String()
	}
	for _, tt := range []struct{ split, want string }{
		{"all", "d1:false h1:true held-1:true a1:true "},
		{"dev", "d1:false held-1:true a1:true "},
		{"heldout", "h1:true held-1:true a1:true "},
	} {
		cs, err := ReadCasePath(dir, tt.split)
		if err != nil {
			t.Fatal(err)
		}
		if got := split(cs); got != tt.want {
			t.Errorf("split %s: %s, want %s", tt.split, got, tt.want)
		}
	}
	if cs, err := ReadCasePath(filepath.Join(dir, "heldout.jsonl"), "all"); err != nil || split(cs) != "h1:true " {
		t.Errorf("one file: %v, %v", cs, err)
	}
	if _, err := ReadCasePath(filepath.Join(dir, "heldout.jsonl"), "dev"); err == nil || !strings.Contains(err.Error(), "no cases of the dev split") {
		t.Errorf("held-out file with split dev: err = %v", err)
	}
	write("dev.jsonl", `{"id":"d1","kind":"genre","instruction":"comedies","gold":{"genre":"Comedy"},"split":"heldout"}`+"\n")
	if _, err := ReadCasePath(dir, "all"); err == nil || !strings.Contains(err.Error(), `case "d1": split "heldout" in a dev file`) {
		t.Errorf("a held-out case in dev.jsonl: err = %v", err)
	}
	if _, err := ReadCases([]byte(`{"id":"a","kind":"only","instruction":"x","gold":{"title":"x"},"split":"test"}`)); err == nil || !strings.Contains(err.Error(), `split: "test" is not dev or heldout`) {
		t.Errorf("split test: err = %v", err)
	}
}
