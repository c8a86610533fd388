package memory

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const day = 86400

// book is a signal on a book with topic and author metadata (MARS Books
// domain, categories topic and author as in Appendix F).
func book(item, action string, d int64, topic, author string) Signal {
	meta := map[string][]string{}
	if topic != "" {
		meta["topic"] = []string{topic}
	}
	if author != "" {
		meta["author"] = []string{author}
	}
	return Signal{User: "u1", Item: item, Action: action, Meta: meta, Time: d * day}
}

// TestCaseStudyAppendixF replays the shape of the paper's case study from
// events: a reader of history and theology whose interest in Churchill and
// Lincoln fades (two demotes each, 0.7 to 0.5 to 0.3, then forget) while
// reformed theology and John Calvin are reinforced (0.8 to 0.9 to 1.0), with
// a profile resynthesis after every 5 mutations.
func TestCaseStudyAppendixF(t *testing.T) {
	s := New(Config{Categories: []string{"topic", "author"}, KCat: 8})
	rounds := [][]Signal{
		// Phase 1, discovery.
		{
			book("b1", "purchase", 1, "Reformed Theology", "John Calvin"),
			book("b2", "purchase", 2, "Reformed Theology", "John Calvin"),
			book("b3", "purchase", 3, "Churchill", ""),
			book("b4", "like", 4, "Lincoln", ""),
			book("b5", "purchase", 5, "Spiritual Formation", "Dietrich Bonhoeffer"),
		},
		// Phase 2, round 1: the shift away from Churchill and Lincoln.
		{
			book("b6", "dislike", 6, "Churchill", ""),
			book("b7", "skip", 7, "Lincoln", ""),
			book("b8", "purchase", 8, "Postmodern Christianity", "Henri Nouwen"),
			book("b9", "purchase", 9, "Reformed Theology", "John Calvin"),
			book("b10", "view", 10, "Apologetics", ""),
		},
		// Round 2, then pruning and reinforcement.
		{
			book("b11", "dislike", 11, "Churchill", ""),
			Signal{User: "u1", Item: "b12", Action: "rate", Rating: 1, Time: 12 * day, Meta: map[string][]string{"topic": {"Lincoln"}}},
			book("b13", "purchase", 13, "Immigration", "Douglas Murray"),
			book("b14", "like", 14, "Reformed Theology", "John Calvin"),
			Signal{User: "u1", Item: "b15", Action: "rate", Rating: 3, Time: 15 * day, Meta: map[string][]string{"topic": {"Apologetics"}}},
		},
	}
	for i, r := range rounds {
		res, err := s.Record(r, Fixed{}, Policy{})
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
		if res.Maintenance.Decision != "maintain" {
			t.Fatalf("round %d: fixed scheduler waited: %s", i+1, res.Maintenance.Reason)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("round %d: invalid state: %v", i+1, err)
		}
	}

	// The strength history of each chunk, from the journal.
	trace := func(key string) string {
		id := ""
		var steps []string
		for _, e := range s.Journal {
			if e.Op == "extract" && len(e.Chunks) == 1 && strings.Contains(e.Reason, key) {
				id = e.Chunks[0]
				steps = append(steps, fmt.Sprintf("extract %v", *e.After))
				continue
			}
			if id == "" || !slices.Contains(e.Chunks, id) || e.Op == "synthesize" {
				continue
			}
			step := e.Op
			if e.After != nil {
				step += fmt.Sprintf(" %v", *e.After)
			}
			steps = append(steps, step)
		}
		return strings.Join(steps, ", ")
	}
	want := map[string]string{
		"Churchill":         "extract 0.7, demote 0.5, demote 0.3, forget",
		"Lincoln":           "extract 0.7, demote 0.5, demote 0.3, forget",
		"Reformed Theology": "extract 0.8, boost 0.9, boost 1",
		"John Calvin":       "extract 0.8, boost 0.9, boost 1",
		"Immigration":       "extract 0.7",
		"Douglas Murray":    "extract 0.7",
	}
	for key, w := range want {
		if got := trace(key); got != w {
			t.Errorf("%s: %s, want %s", key, got, w)
		}
	}

	// A synthesis follows every 5th mutation, and only then.
	n, syntheses := 0, 0
	for _, e := range s.Journal {
		switch {
		case e.Op == "synthesize":
			if n != 5 || e.Trigger != "auto" || e.Reason != "5 mutations since last synthesis" {
				t.Errorf("seq %d: synthesis after %d mutations (%s, %q)", e.Seq, n, e.Trigger, e.Reason)
			}
			n = 0
			syntheses++
		case mutates(e):
			n++
		}
	}
	// 6 creations; 2 boosts, 2 demotes, 2 creations; 2 boosts, 2 demotes, 2
	// creations, 2 forgets: 20 mutations, 4 syntheses, none pending.
	if syntheses != 4 || n != 0 || s.Counters.Mutations != 0 {
		t.Errorf("%d syntheses, %d mutations after the last (counter %d); want 4, 0, 0", syntheses, n, s.Counters.Mutations)
	}
	if s.Profile.Version != 4 {
		t.Errorf("profile version %d, want 4", s.Profile.Version)
	}
	for _, gone := range []string{"Churchill", "Lincoln"} {
		if strings.Contains(s.Profile.Text, gone) {
			t.Errorf("final profile still mentions %s: %s", gone, s.Profile.Text)
		}
	}
	for _, kept := range []string{"Strongly interested in Reformed Theology", "Strongly enjoys work by John Calvin"} {
		if !strings.Contains(s.Profile.Text, kept) {
			t.Errorf("final profile lacks %q: %s", kept, s.Profile.Text)
		}
	}
	if t.Failed() {
		for _, e := range s.Journal {
			t.Logf("%d %s %s %v %s", e.Seq, e.Op, e.Trigger, e.Chunks, e.Reason)
		}
	}
}
