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

// TestLLMRanker checks the model's ranking as evidence. The fixed scorer
// gives a, b, c, d the LLM-free scores 4, 3, 2, 1 (mean 2.5, σ = √1.25 ≈
// 1.118034). A model answering c, a, d, b adds w × σ × (4 − p)/4: 1, ¾, ½
// and ¼ of w × σ to c, a, d and b. With w = 1: a 4.838525, b 3.279508, c
// 3.118034, d 1.559017, the LLM-free order. With w = 4: a 7.354102, c
// 6.472136, b 4.118034, d 3.236068. With w = 100 the model's order.
func TestLLMRanker(t *testing.T) {
	req := rank.Request{Candidates: []rank.Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}, Instruction: "something calm"}
	u := rank.User{Profile: "Likes puzzles.", Events: []rank.Event{{Item: "x", Text: "Tetris - Game Boy"}}}
	tests := []struct {
		name, answer string
		w            float64
		top, k       int
		want         string
		status       string
		check        string
	}{
		{"weight 0 keeps the LLM-free order", `{"ranking":["c","a","d","b"]}`, 0, 0, 0, "a,b,c,d", "accepted", ""},
		{"weight 1", `{"ranking":["c","a","d","b"]}`, 1, 0, 0, "a,b,c,d", "accepted", ""},
		{"weight 4", `{"ranking":["c","a","d","b"]}`, 4, 0, 0, "a,c,b,d", "accepted", ""},
		{"weight 100 follows the model", `{"ranking":["c","a","d","b"]}`, 100, 0, 0, "c,a,d,b", "accepted", ""},
		{"a negative weight counts as 0", `{"ranking":["c","a","d","b"]}`, -5, 0, 0, "a,b,c,d", "accepted", ""},
		{"partial: the others get nothing", `{"ranking":["d"]}`, 100, 0, 0, "d,a,b,c", "accepted", ""},
		{"only the top are reordered", `{"ranking":["b","a"]}`, 100, 2, 0, "b,a,c,d", "accepted", ""},
		{"k keeps the best", `{"ranking":["c","a","d","b"]}`, 100, 0, 2, "c,a", "accepted", ""},
		{"not a candidate", `{"ranking":["c","zz"]}`, 100, 0, 0, "a,b,c,d", "fallback", CheckUnknownID},
		{"outside the top", `{"ranking":["c"]}`, 100, 2, 0, "a,b,c,d", "fallback", CheckUnknownID},
		{"an id named twice is dropped", `{"ranking":["c","a","c"]}`, 100, 0, 0, "c,a,b,d", "accepted", ""},
		{"an id named three times is a loop", `{"ranking":["c","a","c","c"]}`, 100, 0, 0, "a,b,c,d", "fallback", CheckRepetition},
		{"more repeats than ids is a loop", `{"ranking":["c","a","c","a"]}`, 100, 0, 0, "a,b,c,d", "fallback", CheckRepetition},
		{"empty", `{"ranking":[]}`, 100, 0, 0, "a,b,c,d", "fallback", CheckRule},
		{"prose", `I think c is best.`, 100, 0, 0, "a,b,c,d", "fallback", CheckFormat},
		{"a refusal", `I'm sorry, but I can't rank these items.`, 100, 0, 0, "a,b,c,d", "fallback", CheckRefusal},
		{"HTML", `<html><body>502 Bad Gateway</body></html>`, 100, 0, 0, "a,b,c,d", "fallback", CheckFormat},
		{"an empty body", ``, 100, 0, 0, "a,b,c,d", "fallback", CheckFormat},
		{"1 MB", `{"ranking":["c"` + strings.Repeat(` `, 1<<20) + `]}`, 100, 0, 0, "a,b,c,d", "fallback", CheckFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log Log
			sc := &scripted{text: tt.answer}
			r := Ranker{C: sc, Fallback: fixedScorer{}, Describe: func(id string) string { return "Item " + strings.ToUpper(id) }, Top: tt.top, Log: &log, Weight: tt.w}
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
			if o := log.Outcomes[0]; o.Status != tt.status || o.Check != tt.check {
				t.Fatalf("outcome %+v, want %s %q", o, tt.status, tt.check)
			}
			if tt.name == "an id named twice is dropped" && log.Outcomes[0].Reason != "1 repeated id(s) dropped" {
				t.Fatalf("outcome %+v", log.Outcomes)
			}
			prompt := sc.last.Messages[1].Content
			if !strings.Contains(prompt, `a: "Item A"`) || !strings.Contains(prompt, `Request: "something calm"`) || !strings.Contains(prompt, `"Tetris - Game Boy"`) {
				t.Fatalf("prompt:\n%s", prompt)
			}
		})
	}
}

// TestEvidenceScores pins the scores and the explanation of weight 4 (see
// TestLLMRanker).
func TestEvidenceScores(t *testing.T) {
	var log Log
	r := Ranker{C: &scripted{text: `{"ranking":["c","a","d","b"]}`}, Fallback: fixedScorer{}, Describe: strings.ToUpper, Log: &log, Weight: 4}
	got, err := r.Rank(rank.User{}, rank.Request{Candidates: []rank.Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"a": 7.354102, "c": 6.472136, "b": 4.118034, "d": 3.236068}
	for _, x := range got {
		if x.Score != want[x.ID] {
			t.Errorf("%s: score %v, want %v", x.ID, x.Score, want[x.ID])
		}
	}
	c := got[1]
	if c.ID != "c" || len(c.Explanation.Children) != 2 || c.Explanation.Children[0].Message != "fixed" || c.Explanation.Children[1].Value != 4.472136 ||
		c.Explanation.Children[1].Message != "π_rank evidence: position 1 of the 4 the model ordered (weight 4 × σ 1.118 × 1)" {
		t.Fatalf("explanation of c: %+v", c.Explanation)
	}
}
