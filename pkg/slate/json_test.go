package slate

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// plainResult and plainChosen have Result's and Chosen's fields without the
// MarshalJSON methods, Values as maps: encoding/json's own encoding, the
// reference.
type plainChosen struct {
	ID            string             `json:"id"`
	Session       string             `json:"session"`
	Line          string             `json:"line"`
	Tokens        int                `json:"tokens"`
	Rank          int                `json:"rank"`
	Score         float64            `json:"score"`
	Reason        string             `json:"reason"`
	Hop           string             `json:"hop,omitempty"`
	Matched       []string           `json:"matched,omitempty"`
	Why           string             `json:"why,omitempty"`
	Features      map[string]float64 `json:"features,omitempty"`
	Contributions map[string]float64 `json:"contributions,omitempty"`
	PartScores    []float64          `json:"part_scores,omitempty"`
}

// valuesOf is m as Values, sorted by name.
func valuesOf(m map[string]float64) Values {
	b, _ := json.Marshal(m)
	var v Values
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

type plainResult struct {
	Ranker  string        `json:"ranker"`
	Budget  int           `json:"budget"`
	Tokens  int           `json:"tokens"`
	Pool    int           `json:"pool"`
	Units   []plainChosen `json:"units"`
	PoolIDs []string      `json:"pool_ids,omitempty"`
}

func plain(r Result) plainResult {
	p := plainResult{Ranker: r.Ranker, Budget: r.Budget, Tokens: r.Tokens, Pool: r.Pool, PoolIDs: r.PoolIDs}
	if r.Units != nil {
		p.Units = []plainChosen{}
	}
	for _, c := range r.Units {
		p.Units = append(p.Units, plainChosen{ID: c.ID, Session: c.Session, Line: c.Line, Tokens: c.Tokens, Rank: c.Rank,
			Score: c.Score, Reason: c.Reason, Hop: c.Hop, Matched: c.Matched, Why: c.Why, Features: c.Features.Map(), Contributions: c.Contributions.Map(), PartScores: c.PartScores})
	}
	return p
}

func TestMarshalJSONMatchesEncodingJSON(t *testing.T) {
	feats := map[string]float64{}
	for i, f := range FeatureNames {
		feats[f] = round6(float64(i)*0.1234567 - 2)
	}
	for _, r := range []Result{
		{Ranker: "learned", Units: nil},
		{Ranker: "bm25", Budget: 10, Tokens: 7, Pool: 3, Units: []Chosen{}},
		{Ranker: `q"\<>&`, Units: []Chosen{{ID: "a\u2028b\u2029c", Session: "s\x00\x1f\x7f\b\f\n\r\t", Line: "caf\xe9 \xff ok é 😀 </script>",
			Tokens: -3, Rank: 1, Score: -0.0, Reason: "context", PartScores: []float64{}}}},
		{Ranker: "learned", Units: []Chosen{{ID: "x", Score: 0.030488, Hop: "feedback", Matched: []string{"pottery", "<b>&"}, Why: "Ranked 1st of 3. “Dated” <then> & \u2028.", Features: valuesOf(feats),
			Contributions: valuesOf(map[string]float64{"z": 1e-7, "a": 1e21, "m": -1.5e-7, "b": 123456789.125, "c": 1e20, "d": math.Copysign(0, -1), "<&>": 1}),
			PartScores:    []float64{3.91, -2.05, 0, 1e-6, 0.1, 2.5e-5, 999999999.999999}}}, PoolIDs: []string{"a", "<b>"}},
	} {
		want, err := json.Marshal(plain(r))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("json.Marshal:\ngot  %s\nwant %s", got, want)
		}
		if got, err := r.AppendJSON([]byte("x")); err != nil || string(got) != "x"+string(want) {
			t.Errorf("AppendJSON:\ngot  %s\nwant x%s", got, want)
		}
		// Without HTML escaping, as an Encoder with SetEscapeHTML(false) writes.
		var a, b strings.Builder
		ea, eb := json.NewEncoder(&a), json.NewEncoder(&b)
		ea.SetEscapeHTML(false)
		eb.SetEscapeHTML(false)
		if err := ea.Encode(r); err != nil {
			t.Fatal(err)
		}
		if err := eb.Encode(plain(r)); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("Encoder without HTML escaping:\ngot  %s\nwant %s", a.String(), b.String())
		}
	}
	if _, err := json.Marshal(Result{Units: []Chosen{{Score: math.NaN()}}}); err == nil {
		t.Error("NaN encoded")
	}
}

// TestMarshalJSONCoversFields fails when Result or Chosen gains a field that
// the hand-written encoder (json.go) does not write yet.
func TestMarshalJSONCoversFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		tags []string
	}{
		{Result{}, []string{"ranker", "budget", "tokens", "pool", "units", "pool_ids,omitempty"}},
		{Chosen{}, []string{"id", "session", "line", "tokens", "rank", "score", "reason", "hop,omitempty", "matched,omitempty", "why,omitempty", "features,omitempty", "contributions,omitempty", "part_scores,omitempty"}},
	} {
		rt := reflect.TypeOf(c.v)
		var tags []string
		for i := range rt.NumField() {
			tags = append(tags, rt.Field(i).Tag.Get("json"))
		}
		if !slices.Equal(tags, c.tags) {
			t.Errorf("%s fields %q, json.go writes %q: update the encoder", rt.Name(), tags, c.tags)
		}
	}
}

// TestValues: Get finds by name, Map and UnmarshalJSON round-trip, and the
// encoding equals a map's.
func TestValues(t *testing.T) {
	v := valuesOf(map[string]float64{"b": 2, "a": 1, "c<": -0.5})
	if got := []string{v[0].Name, v[1].Name, v[2].Name}; !slices.Equal(got, []string{"a", "b", "c<"}) {
		t.Fatalf("order %v", got)
	}
	for _, tt := range []struct {
		name string
		want float64
		ok   bool
	}{{"a", 1, true}, {"c<", -0.5, true}, {"z", 0, false}, {"", 0, false}} {
		if got, ok := v.Get(tt.name); got != tt.want || ok != tt.ok {
			t.Errorf("Get(%q) = %v, %v", tt.name, got, ok)
		}
	}
	got, _ := json.Marshal(v)
	want, _ := json.Marshal(v.Map())
	if string(got) != string(want) {
		t.Errorf("Values encode %s, the map %s", got, want)
	}
	if err := json.Unmarshal([]byte(`{"a":"x"}`), &v); err == nil {
		t.Error("a non-number value decoded")
	}
}
