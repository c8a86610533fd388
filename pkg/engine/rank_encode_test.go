package engine

import (
	"encoding/json"
	"testing"

	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/rank"
)

// TestRankOutputMatchesMarshal: the hand-written rank output is byte for
// byte what json.Marshal makes of the same values, LLM outcomes, odd strings
// and tiny or huge floats included.
func TestRankOutputMatchesMarshal(t *testing.T) {
	ranked := []rank.Ranked{
		{ID: "a<&>\"", Rank: 1, Score: 1.5e-7, Explanation: rank.Explanation{Value: 1.5e-7, Message: "sum \u2028",
			Children: []rank.Explanation{{Value: -0.25, Message: "x = 1e+21"}, {Value: 3e21, Message: "caf\xe9"}}}},
		{ID: "b", Rank: 2, Score: 0, Explanation: rank.Explanation{Message: "empty"}},
	}
	weights := map[string]float64{"popularity": 0.5, "collaborative": 1.25, "instruction": 1}
	withMeets := []rank.Ranked{{ID: "c", Rank: 1, Score: 2, Meets: []string{"PlayStation 4", "not \"Halo\""}}}
	for _, tt := range []struct {
		name     string
		ranked   []rank.Ranked
		u        rank.User
		outcomes []llm.Outcome
	}{
		{"no llm", ranked, rank.User{Events: []rank.Event{{Item: "a"}}, Profile: "p"}, nil},
		{"with llm", ranked, rank.User{Chunks: []rank.Chunk{{Text: "c"}}}, []llm.Outcome{{}}},
		{"empty ranking", []rank.Ranked{}, rank.User{}, nil},
		{"instruction", withMeets, rank.User{}, nil},
	} {
		o := RankOutput{Context: RankContext{len(tt.u.Chunks), len(tt.u.Events), tt.u.Profile != ""}, LLM: tt.outcomes,
			LLMCalls: len(tt.outcomes), Ranker: "linear", Ranking: tt.ranked, Weights: weights}
		if tt.name == "instruction" {
			kept, relaxed := 0, []intent.Relaxed{{Constraint: "only", Facet: "platform", Value: "Wii", Reason: "no candidate"}}
			o.Kept, o.Relaxed, o.Understood = &kept, &relaxed, &intent.Intent{Unknown: []string{"zzz"}}
		}
		got, err := o.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(o)
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, want)
		}
	}
}

// TestPlainString: literals that need no unescaping decode directly, every
// other literal is left to encoding/json, and the two agree where both apply.
func TestPlainString(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`"a1"`, "a1", true},
		{`""`, "", true},
		{`"café 🎮"`, "café 🎮", true},
		{`"a\"b"`, "", false},
		{`"a\nb"`, "", false},
		{"\"a\x01\"", "", false},
		{"\"caf\xe9\"", "", false},
		{`"abc`, "", false},
		{`x`, "", false},
	}
	for _, tt := range tests {
		got, ok := plainString([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("plainString(%s) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok {
			var viaJSON string
			if err := json.Unmarshal([]byte(tt.in), &viaJSON); err != nil || viaJSON != got {
				t.Errorf("encoding/json reads %s as %q (%v), plainString as %q", tt.in, viaJSON, err, got)
			}
		}
	}
}
