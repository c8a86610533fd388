package engine

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

func tinyCatalog(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rankCall(t *testing.T, e *Engine, name, input string) []byte {
	t.Helper()
	out, err := e.Call(name, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

type rankOutput struct {
	Ranking []struct {
		ID          string  `json:"id"`
		Rank        int     `json:"rank"`
		Score       float64 `json:"score"`
		Explanation struct {
			Value    float64 `json:"value"`
			Children []struct {
				Value   float64 `json:"value"`
				Message string  `json:"message"`
			} `json:"children"`
		} `json:"explanation"`
	} `json:"ranking"`
	Ranker   string             `json:"ranker"`
	LLMCalls int                `json:"llm_calls"`
	Weights  map[string]float64 `json:"weights"`
	Context  struct {
		Events int `json:"events"`
	} `json:"context"`
}

func TestRankExport(t *testing.T) {
	e := New()
	if _, err := e.Call("rank", []byte(`{"candidates":["a"]}`)); err == nil || err.Error() != "rank: no catalog loaded (call load_catalog first)" {
		t.Fatalf("rank before load_catalog: %v", err)
	}
	rankCall(t, e, "load_catalog", string(tinyCatalog(t)))
	rankCall(t, e, "record", `{"signals":[{"user":"u","item":"a","action":"purchase","time":100}],"maintain":"none"}`)
	var out rankOutput
	if err := json.Unmarshal(rankCall(t, e, "rank", `{"candidates":["e","d","b",{"id":"new","meta":{"title":"Kart Racing"}}],"k":3}`), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Ranking) != 3 || out.Ranking[0].ID != "b" || out.Ranker != "linear" || out.LLMCalls != 0 || out.Context.Events != 1 {
		t.Fatalf("output %+v", out)
	}
	if out.Weights["transition"] != 2 {
		t.Errorf("weights %v", out.Weights)
	}
	// b follows a with P = 0.75: its transition contribution is 0.75 × 2.
	found := false
	for _, c := range out.Ranking[0].Explanation.Children {
		if strings.HasPrefix(c.Message, "transition = ") {
			found = c.Value == 1.5
		}
	}
	if !found {
		t.Errorf("explanation of b: %+v", out.Ranking[0].Explanation)
	}
	// The catalog is an asset: reset and import_state keep it.
	st := rankCall(t, e, "export_state", "")
	rankCall(t, e, "reset", "")
	rankCall(t, e, "import_state", string(st))
	again := rankCall(t, e, "rank", `{"candidates":["e","d","b",{"id":"new","meta":{"title":"Kart Racing"}}],"k":3}`)
	if b, _ := json.Marshal(out); len(again) == 0 || !strings.Contains(string(again), `"id":"b"`) {
		t.Errorf("after reset/import: %s (before %s)", again, b)
	}
}

func TestRankExportErrors(t *testing.T) {
	e := New()
	rankCall(t, e, "load_catalog", string(tinyCatalog(t)))
	before := rankCall(t, e, "export_state", "")
	tests := []struct{ input, want string }{
		{`{"candidates":[]}`, "rank: input.candidates: at least one candidate is required"},
		{`{"candidates":["a","zz"]}`, `rank: input.candidates[1]: unknown item "zz"`},
		{`{"candidates":["a","a"]}`, `rank: input.candidates[1]: duplicate item "a"`},
		{`{"candidates":[""]}`, "rank: input.candidates[0]: empty item id"},
		{`{"candidates":["a"],"k":-1}`, "rank: input.k: must be at least 0, got -1"},
		{`{"candidates":["a"],"bogus":1}`, `rank: input: unknown field "bogus"`},
	}
	for _, tt := range tests {
		_, err := e.Call("rank", []byte(tt.input))
		if err == nil || err.Error() != tt.want {
			t.Errorf("rank %s: %v, want %q", tt.input, err, tt.want)
		}
	}
	if _, err := e.Call("load_catalog", []byte(`{"format":"nope"}`)); err == nil || !strings.HasPrefix(err.Error(), "load_catalog: input: catalog: bad format") {
		t.Errorf("bad catalog: %v", err)
	}
	if after := rankCall(t, e, "export_state", ""); string(after) != string(before) {
		t.Error("a failed call changed the state")
	}
	// A failed load keeps the previous catalog.
	rankCall(t, e, "rank", `{"candidates":["a"]}`)
}

func TestLoadBinaryCatalog(t *testing.T) {
	c, err := catalog.Parse(tinyCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	out := rankCall(t, e, "load_catalog", string(c.Encode()))
	if !strings.Contains(string(out), `"items":5`) {
		t.Errorf("load_catalog: %s", out)
	}
	rankCall(t, e, "rank", `{"candidates":["a","b"]}`)
}
