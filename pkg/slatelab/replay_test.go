package slatelab

import (
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slate"
)

// replayConvs is two tiny conversations: the first has one eligible
// question (its evidence is turn 2), one adversarial (category 5) and one
// without evidence; the second has one eligible question.
func replayConvs() []dataset.Conversation {
	turns := func(p string) []dataset.Turn {
		return []dataset.Turn{
			{ID: p + "1", Session: "S1", Time: "2023-05-01T10:00:00Z", Speaker: "Ann", Text: "I adopted a puppy called Biscuit."},
			{ID: p + "2", Session: "S1", Time: "2023-05-01T10:01:00Z", Speaker: "Bob", Text: "I am training for the Berlin marathon."},
			{ID: p + "3", Session: "S2", Time: "2023-06-01T10:00:00Z", Speaker: "Ann", Text: "Biscuit chewed my shoes again."},
		}
	}
	return []dataset.Conversation{
		{ID: "c1", Turns: turns("a"), Questions: []dataset.Question{
			{Text: "Which marathon is Bob training for?", Category: "1", Evidence: []string{"a2"}},
			{Text: "What is Bob's cat called?", Category: "5", Evidence: []string{"a1"}},
			{Text: "Anything else?", Category: "2"},
		}},
		{ID: "c2", Turns: turns("b"), Questions: []dataset.Question{
			{Text: "What is the puppy called?", Category: "1", Evidence: []string{"b1", "b3"}},
		}},
	}
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name      string
		r         Replay
		questions int     // eligible questions replayed
		rSlate    float64 // the learned ranker's
		progress  []int
	}{
		// Every unit fits: each learned slate is the whole conversation.
		{"all fits", Replay{Budget: 100000}, 2, 1, []int{1, 2}},
		// No unit fits a budget of one token: every slate is empty.
		{"nothing fits", Replay{Budget: 1}, 2, 0, []int{1, 2}},
		// Only the first conversation.
		{"limit", Replay{Budget: 100000, Limit: 1}, 1, 1, []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var seen []int
			tc.r.Progress = func(_ string, done, total int) { seen = append(seen, done) }
			tallies, err := tc.r.Run(engine.New(), replayConvs())
			if err != nil {
				t.Fatal(err)
			}
			if len(tallies) != len(slate.Rankers) {
				t.Fatalf("%d tallies, want one per ranker (%d)", len(tallies), len(slate.Rankers))
			}
			for name, tl := range tallies {
				if q := tl.Metrics().Questions; q != tc.questions {
					t.Errorf("%s: %d questions, want %d", name, q, tc.questions)
				}
			}
			m := tallies["learned"].Metrics()
			if m.RSlate != tc.rSlate || m.Recall != tc.rSlate {
				t.Errorf("learned: r_slate %v recall %v, want %v", m.RSlate, m.Recall, tc.rSlate)
			}
			if tc.rSlate == 0 && m.MeanTokens != 0 {
				t.Errorf("learned: mean tokens %v of empty slates", m.MeanTokens)
			}
			if len(seen) != len(tc.progress) || (len(seen) > 0 && seen[len(seen)-1] != tc.progress[len(tc.progress)-1]) {
				t.Errorf("progress %v, want %v", seen, tc.progress)
			}
		})
	}
}

// TestReplayCategories: with Adversarial, the category-5 question is asked
// and tallied under "adversarial" only; the totals keep the eligible ones.
func TestReplayCategories(t *testing.T) {
	out, err := Replay{Budget: 100000, Adversarial: true}.RunAll(engine.New(), replayConvs())
	if err != nil {
		t.Fatal(err)
	}
	if q := out.Rankers["learned"].Metrics().Questions; q != 2 {
		t.Errorf("learned total: %d questions, want 2", q)
	}
	cats := out.Categories["learned"]
	if got := cats.Names(); strings.Join(got, ",") != "multi-hop,adversarial" {
		t.Errorf("categories %v, want multi-hop, adversarial", got)
	}
	if m := cats["multi-hop"].Metrics(); m.Questions != 2 || m.RSlate != 1 {
		t.Errorf("multi-hop %+v", m)
	}
	if m := cats["adversarial"].Metrics(); m.Questions != 1 || m.RSlate != 1 {
		t.Errorf("adversarial %+v", m)
	}
	without, err := Replay{Budget: 100000}.RunAll(engine.New(), replayConvs())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := without.Categories["bm25"]["adversarial"]; ok {
		t.Error("adversarial questions asked without Adversarial")
	}
}

func TestCategoryName(t *testing.T) {
	for in, want := range map[string]string{"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial", "multi-session": "multi-session", "": ""} {
		if got := CategoryName(in); got != want {
			t.Errorf("CategoryName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReplayNamesTheConversation: a turn the store refuses stops the run
// with an error naming the conversation and the export.
func TestReplayNamesTheConversation(t *testing.T) {
	convs := replayConvs()
	convs[1].Turns[0].Text = ""
	_, err := Replay{}.Run(engine.New(), convs)
	if err == nil || !strings.HasPrefix(err.Error(), "c2: add_units: ") {
		t.Fatalf("err = %v, want c2: add_units: ...", err)
	}
}
