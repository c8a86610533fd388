package llm

import (
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/rank"
)

// fixedScorer ranks candidates in input order with scores n, n-1, ...
type fixedScorer struct{}

func (fixedScorer) Rank(u rank.User, req rank.Request) ([]rank.Ranked, error) {
	out := make([]rank.Ranked, len(req.Candidates))
	for i, c := range req.Candidates {
		out[i] = rank.Ranked{ID: c.ID, Rank: i + 1, Score: float64(len(req.Candidates) - i), Explanation: rank.Explanation{Message: "fixed"}}
	}
	return out, nil
}

func ids(xs []rank.Ranked) string {
	var s []string
	for _, x := range xs {
		s = append(s, x.ID)
	}
	return strings.Join(s, ",")
}

func TestLLMRanker(t *testing.T) {
	req := rank.Request{Candidates: []rank.Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}, Instruction: "something calm"}
	u := rank.User{Profile: "Likes puzzles.", Events: []rank.Event{{Item: "x", Text: "Tetris - Game Boy"}}}
	tests := []struct {
		name, answer string
		top, k       int
		want         string
		status       string
	}{
		{"full permutation", `{"ranking":["c","a","d","b"]}`, 0, 0, "c,a,d,b", "accepted"},
		{"partial completed in LLM-free order", `{"ranking":["d"]}`, 0, 0, "d,a,b,c", "accepted"},
		{"only the top are reordered", `{"ranking":["b","a"]}`, 2, 0, "b,a,c,d", "accepted"},
		{"k keeps the best", `{"ranking":["c","a","d","b"]}`, 0, 2, "c,a", "accepted"},
		{"not a candidate", `{"ranking":["c","zz"]}`, 0, 0, "a,b,c,d", "fallback"},
		{"outside the top", `{"ranking":["c"]}`, 2, 0, "a,b,c,d", "fallback"},
		{"a repeated id is dropped", `{"ranking":["c","a","c","c"]}`, 0, 0, "c,a,b,d", "accepted"},
		{"empty", `{"ranking":[]}`, 0, 0, "a,b,c,d", "fallback"},
		{"prose", `I think c is best.`, 0, 0, "a,b,c,d", "fallback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log Log
			sc := &scripted{text: tt.answer}
			r := Ranker{C: sc, Fallback: fixedScorer{}, Describe: func(id string) string { return "Item " + strings.ToUpper(id) }, Top: tt.top, Log: &log}
			req := req
			req.K = tt.k
			got, err := r.Rank(u, req)
			if err != nil {
				t.Fatal(err)
			}
			if ids(got) != tt.want {
				t.Fatalf("order %s, want %s", ids(got), tt.want)
			}
			for i, x := range got {
				if x.Rank != i+1 {
					t.Fatalf("rank %d at position %d", x.Rank, i)
				}
			}
			if log.Outcomes[0].Status != tt.status {
				t.Fatalf("outcome %+v", log.Outcomes)
			}
			if tt.name == "a repeated id is dropped" && log.Outcomes[0].Reason != "2 repeated id(s) dropped" {
				t.Fatalf("outcome %+v", log.Outcomes)
			}
			prompt := sc.last.Messages[1].Content
			if !strings.Contains(prompt, `a: "Item A"`) || !strings.Contains(prompt, `Request: "something calm"`) || !strings.Contains(prompt, `"Tetris - Game Boy"`) {
				t.Fatalf("prompt:\n%s", prompt)
			}
		})
	}
}
