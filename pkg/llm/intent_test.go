package llm

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/intent"
)

// filmShelf is a made-up film catalog with a list facet (genre), a text facet
// (studio) and a number facet (year), and word vectors for a few words, so
// that every decision below can be checked by hand: "grisly" is at cosine
// 0.6 from "horror" (below the interpreter's 0.7, at least the 0.5 that
// supports a model's reading) and 0 from "comedy"; "ancient" at 0.8 from
// "old" and 0.6 from "comedy".
func filmShelf(t *testing.T) *intent.Linker {
	t.Helper()
	cols := []intent.Column{{Name: "title", Type: intent.ColText}, {Name: "genre", Type: intent.ColList},
		{Name: "studio", Type: intent.ColText}, {Name: "year", Type: intent.ColNumber, Unit: intent.UnitYear, Min: 1930, Max: 1999}}
	meta := [][]string{
		{"Night Terrors", "Horror", "Hammer", "1958"},
		{"Laugh Riot", "Comedy", "Ealing", "1949"},
		{"Moon Base", "Sci-Fi|Horror", "Hammer", "1979"},
		{"Sunny Days", "Comedy|Romance", "Ealing", "1995"},
		{"Iron Fist", "Action", "Golden Harvest", "1972"},
	}
	lk := intent.NewLinkerColumns(cols, meta, nil)
	vec := map[string][]float32{"horror": {1, 0, 0}, "comedy": {0, 1, 0}, "grisly": {0.6, 0, 0.8}, "old": {0, 0, 1}, "ancient": {0, 0.6, 0.8}}
	lk.WordVec = func(w string) ([]float32, bool) { v, ok := vec[w]; return v, ok }
	return lk
}

func TestIntentRequest(t *testing.T) {
	lk := filmShelf(t)
	in := lk.Parse("no grisly films, preferably from Ealing", nil)
	req := IntentRequestFor(Compact, "no grisly films, preferably from Ealing", &in, lk.Facets())
	if req.Purpose != PurposeParse || req.User != "" || req.MaxTokens != maxTokensIntent || req.ResponseFormat != "json" {
		t.Errorf("request %+v: want purpose parse, no user, %d tokens, json", req, maxTokensIntent)
	}
	user := req.Messages[1].Content
	for _, want := range []string{
		`Request: "no grisly films, preferably from Ealing"`,
		`Understood already: prefer: Ealing`,
		`Words not understood: "grisly" (refused)`,
		`- genre (list, 5 values): Comedy, Horror, Action, Romance, Sci-Fi`,
		`- studio (text, 3 values): Ealing, Hammer, Golden Harvest`,
		`- year (number, year): 1930 to 1999`,
	} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(req.Messages[0].Content, "gloomy") {
		t.Error("the compact profile shows no example")
	}
	if full := IntentRequestFor(Full, "x", &in, lk.Facets()); !strings.Contains(full.Messages[0].Content, `"word":"gloomy"`) {
		t.Error("the full profile shows its book example")
	}
	// The schema: only "exclude" and "avoid" may hold a clause (grisly was
	// refused); its word is grisly; a genre or studio value, or a year range
	// enumerated from 1930 to 1999.
	var s struct {
		Properties map[string]struct {
			MaxItems int `json:"maxItems"`
			Items    struct {
				OneOf []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"oneOf"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(req.Schema, &s); err != nil {
		t.Fatal(err)
	}
	for list, max := range map[string]int{"only": 0, "prefer": 0, "exclude": 2, "avoid": 2} {
		if got := s.Properties[list].MaxItems; got != max {
			t.Errorf("schema %s: maxItems %d, want %d", list, got, max)
		}
	}
	ex := s.Properties["exclude"].Items.OneOf
	if len(ex) != 3 || string(ex[0].Properties["word"]) != `{"enum":["grisly"]}` ||
		string(ex[1].Properties["value"]) != `{"enum":["Ealing","Hammer","Golden Harvest"]}` ||
		!strings.HasPrefix(string(ex[2].Properties["min"]), `{"enum":[1930,1931,`) {
		t.Errorf("exclude's clause schema: %s", req.Schema)
	}
}

func TestParseIntent(t *testing.T) {
	lk := filmShelf(t)
	tests := []struct {
		name, instruction, answer string
		want                      string // the clauses added, as "list facet=value"
		check                     string // the rejection's check, "" when accepted
	}{
		{"a refused word read as a genre, supported by word vectors", "no grisly films",
			`{"only":[],"exclude":[{"word":"grisly","facet":"genre","value":"horror"}],"prefer":[],"avoid":[]}`, "exclude genre=Horror", ""},
		{"an exclusion made an avoidance: softer, same polarity", "no grisly films",
			`{"avoid":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "avoid genre=Horror", ""},
		{"a number word as a range on its side", "ancient comedies",
			`{"only":[{"word":"ancient","facet":"year","min":1930,"max":1960}],"exclude":[],"prefer":[],"avoid":[]}`, "only year=at most 1960", ""},
		{"no clause: nothing added", "no grisly films", `{"only":[],"exclude":[],"prefer":[],"avoid":[]}`, "", ""},
		{"a clause the parse already holds adds nothing", "grisly horror films",
			`{"only":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", ""},
		{"a word read as refused cannot be asked for", "no grisly films",
			`{"only":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", CheckUnsupported},
		{"a hedged word cannot become a filter", "preferably grisly",
			`{"only":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", CheckUnsupported},
		{"a word the parse understood", "no grisly films",
			`{"exclude":[{"word":"films","facet":"genre","value":"Horror"}]}`, "", CheckUnsupported},
		{"a value nothing about the word supports", "no grisly films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"Comedy"}]}`, "", CheckUnsupported},
		{"a value the catalog does not have", "no grisly films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"Splatter"}]}`, "", CheckUnknownID},
		{"a facet the catalog does not have", "ancient comedies",
			`{"only":[{"word":"ancient","facet":"decade","min":1930,"max":1960}]}`, "", CheckUnknownID},
		{"a range on the wrong side of its word", "ancient comedies",
			`{"only":[{"word":"ancient","facet":"year","min":1980,"max":1999}]}`, "", CheckUnsupported},
		{"a range that holds every year", "ancient comedies",
			`{"only":[{"word":"ancient","facet":"year","min":1900,"max":2000}]}`, "", CheckRule},
		{"contradicts the grounded only", "grisly horror films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", CheckUnsupported},
		{"widens the grounded only", "ancient films from the seventies",
			`{"only":[{"word":"ancient","facet":"year","min":1930,"max":1950}]}`, "", CheckUnsupported},
		{"the same clause twice", "no grisly films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"Horror"},{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", CheckRepetition},
		{"contradicts itself", "no grisly films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"Horror"}],"avoid":[{"word":"grisly","facet":"genre","value":"Horror"}]}`, "", CheckRepetition},
		{"a placeholder", "no grisly films",
			`{"exclude":[{"word":"grisly","facet":"genre","value":"<value>"}]}`, "", CheckPlaceholder},
		{"the prompt's example", "no gloomy films",
			`{"exclude":[{"word":"gloomy","facet":"genre","value":"Tragedy"}]}`, "", CheckExampleCopy},
		{"HTML", "no grisly films", `<html><body>502 Bad Gateway</body></html>`, "", CheckFormat},
		{"a refusal", "no grisly films", `I'm sorry, but I cannot help with that.`, "", CheckRefusal},
		{"an unknown field", "no grisly films", `{"exclude":[],"reason":"none"}`, "", CheckFormat},
		{"too many clauses", "no grisly films", `{"avoid":[` + strings.Repeat(`{"word":"grisly","facet":"studio","value":"Hammer"},`, 8) + `{"word":"grisly","facet":"studio","value":"Hammer"}]}`, "", CheckRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := lk.Parse(tt.instruction, nil)
			adds, err := ParseIntent(tt.answer, &in, lk)
			if tt.check != "" {
				if err == nil {
					t.Fatalf("accepted %+v, want a %s rejection", adds, tt.check)
				}
				if got := checkOf(err); got != tt.check {
					t.Fatalf("check %s (%v), want %s", got, err, tt.check)
				}
				return
			}
			if err != nil {
				t.Fatalf("rejected: %v (unknown %v, understood %q)", err, in.Unknown, in.Summary())
			}
			var got []string
			for _, a := range adds {
				if a.Clause.How != intent.HowLLM || a.Clause.Text == "" || !strings.Contains(a.Clause.Detail, "read by the language model") {
					t.Errorf("clause %+v: want how llm, its word and a detail", a.Clause)
				}
				got = append(got, a.List+" "+a.Clause.Facet+"="+a.Clause.Value)
			}
			if strings.Join(got, "; ") != tt.want {
				t.Errorf("added %q, want %q", strings.Join(got, "; "), tt.want)
			}
		})
	}
}

func TestInterpreter(t *testing.T) {
	lk := filmShelf(t)
	t.Run("nothing unknown: no call", func(t *testing.T) {
		c := &scripted{text: `{}`}
		var log Log
		in := lk.Parse("horror from Hammer", nil)
		before := in
		Interpreter{C: c, Linker: lk, Log: &log}.Refine("horror from Hammer", &in)
		if c.calls != 0 || len(log.Outcomes) != 0 || !reflect.DeepEqual(in, before) {
			t.Errorf("%d calls, outcomes %+v: want none", c.calls, log.Outcomes)
		}
	})
	t.Run("accepted: clauses added, words resolved", func(t *testing.T) {
		c := &scripted{text: `{"only":[],"exclude":[{"word":"grisly","facet":"genre","value":"Horror"}],"prefer":[],"avoid":[]}`}
		var log Log
		in := lk.Parse("no grisly films, something from Ealing", nil)
		Interpreter{C: c, Linker: lk, Log: &log, Prompts: Compact}.Refine("no grisly films, something from Ealing", &in)
		if got := in.Summary(); got != "only: Ealing · not: Horror" {
			t.Errorf("understood %q", got)
		}
		if len(in.Negative)+len(in.NegatedUnknown) != 0 {
			t.Errorf("the resolved word is still a hint: %v %v", in.Negative, in.NegatedUnknown)
		}
		want := []Outcome{{Purpose: PurposeParse, Status: "accepted", Reason: "1 clause(s) added for 1 of the 1 word(s) not understood"}}
		if !reflect.DeepEqual(log.Outcomes, want) {
			t.Errorf("outcomes %+v, want %+v", log.Outcomes, want)
		}
	})
	for _, bad := range []struct {
		name  string
		c     *scripted
		check string
	}{
		{"exchange failed", &scripted{err: errors.New("connection refused")}, CheckExchange},
		{"empty body", &scripted{text: ""}, CheckFormat},
		{"1 MB answer", &scripted{text: `{"only":[` + strings.Repeat(" ", 1<<20) + `]}`}, CheckFormat},
		{"a value not in the catalog", &scripted{text: `{"exclude":[{"word":"grisly","facet":"genre","value":"Gore"}]}`}, CheckUnknownID},
	} {
		t.Run(bad.name, func(t *testing.T) {
			var log Log
			in := lk.Parse("no grisly films", nil)
			before := lk.Parse("no grisly films", nil)
			Interpreter{C: bad.c, Linker: lk, Log: &log}.Refine("no grisly films", &in)
			if !reflect.DeepEqual(in, before) {
				t.Errorf("the intent changed: %q, want %q", in.Summary(), before.Summary())
			}
			if len(log.Outcomes) != 1 || log.Outcomes[0].Status != "fallback" || log.Outcomes[0].Check != bad.check {
				t.Errorf("outcomes %+v, want one fallback with check %s", log.Outcomes, bad.check)
			}
		})
	}
}
