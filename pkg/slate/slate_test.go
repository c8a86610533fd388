package slate

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/text"
)

func units() []Unit {
	return []Unit{
		{ID: "D1:1", Session: "S1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Ann", Text: "I signed up for a pottery class on Tuesdays."},
		{ID: "D1:2", Session: "S1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Bob", Text: "That sounds like a lovely way to unwind!"},
		{ID: "D2:1", Session: "S2", Date: "20 May 2023", Time: "2023-05-20", Speaker: "Bob", Text: "Can you suggest a pasta recipe?", User: "bob"},
		{ID: "D2:2", Session: "S2", Date: "20 May 2023", Time: "2023-05-20", Speaker: "Ann", Text: "Spaghetti with tomato and basil."},
		{ID: "D3:1", Session: "S3", Date: "1 June 2023", Time: "2023-06-01", Speaker: "Ann", Text: "My pottery class moved to Thursdays."},
	}
}

func TestRenderAndTokens(t *testing.T) {
	u := Unit{ID: "x", Session: "S", Date: "8 May 2023", Speaker: "Ann", Text: "Hé!"}
	if got := u.Render(); got != "[8 May 2023] Ann: Hé!" {
		t.Fatalf("Render = %q", got)
	}
	// 21 code points -> ceil(21/4) = 6.
	if got := u.Tokens(); got != 6 {
		t.Fatalf("Tokens = %d", got)
	}
	if got := (Unit{Text: "abcd"}).Tokens(); got != 1 {
		t.Fatalf("Tokens(abcd) = %d", got)
	}
}

func TestStoreIndexesFollowDeletes(t *testing.T) {
	s := NewStore()
	if err := s.Add(units()); err != nil {
		t.Fatal(err)
	}
	if err := s.Add([]Unit{{ID: "D1:1", Session: "S9", Text: "x"}}); err == nil {
		t.Fatal("duplicate accepted")
	}
	if err := s.Delete([]string{"D2:1", "nope"}); err == nil || s.Len() != 5 {
		t.Fatal("partial delete")
	}
	if n := s.Purge("", "bob"); n != 1 {
		t.Fatalf("purged %d", n)
	}
	if n := s.Purge("S3", ""); n != 1 {
		t.Fatalf("purged %d", n)
	}
	if err := s.Delete([]string{"D2:2"}); err != nil {
		t.Fatal(err)
	}
	// Only session S1 is left: the indexes must equal those of a store built
	// from its two units alone.
	fresh := NewStore()
	if err := fresh.Add(units()[:2]); err != nil {
		t.Fatal(err)
	}
	if s.Sessions() != 1 || s.units.Len() != fresh.units.Len() || s.sessIx.Len() != fresh.sessIx.Len() {
		t.Fatalf("sessions %d, docs %d/%d", s.Sessions(), s.units.Len(), s.sessIx.Len())
	}
	for _, term := range []string{"pottery", "pasta", "thursday", "spaghetti"} {
		if s.units.DF(term) != fresh.units.DF(term) || s.sessIx.DF(term) != fresh.sessIx.DF(term) {
			t.Errorf("df(%s) differs after deletes", term)
		}
	}
	req := Request{Query: "pottery class pasta", Budget: 100}
	a, _ := s.Select(req)
	b, _ := fresh.Select(req)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("deleted units leave a trace:\n%s\n%s", ja, jb)
	}
}

func TestSelectBudgetOrderAndRoundTrip(t *testing.T) {
	s := NewStore()
	if err := s.Add(units()); err != nil {
		t.Fatal(err)
	}
	for _, r := range Rankers {
		res, err := s.Select(Request{Query: "Which day is Ann's pottery class now?", Budget: 30, Ranker: r})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for i, u := range res.Units {
			sum += u.Tokens
			if i > 0 && u.ID < res.Units[i-1].ID { // IDs sort chronologically here
				t.Errorf("%s: not chronological: %v", r, res.Units)
			}
			if (r == "learned") != (len(u.Features) == len(FeatureNames)) {
				t.Errorf("%s: %d features", r, len(u.Features))
			}
			// A baseline explains its score by its one signal.
			if r != "learned" && (len(u.Contributions) != 1 || u.Contributions[0].Name != r || u.Contributions[0].Value != u.Score) {
				t.Errorf("%s: contributions %v, want {%s: %v}", r, u.Contributions, r, u.Score)
			}
		}
		if sum != res.Tokens || res.Tokens > 30 {
			t.Errorf("%s: tokens %d (sum %d) over budget 30", r, res.Tokens, sum)
		}
	}
	b, _ := json.Marshal(s)
	var back Store
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) || !reflect.DeepEqual(back.Units(), units()) {
		t.Fatalf("round trip:\n%s\n%s", b, b2)
	}
	if err := json.Unmarshal([]byte(`[{"id":"a","session":"s","text":"x","extra":1}]`), &back); err == nil {
		t.Fatal("unknown field accepted")
	}
}

func TestFill(t *testing.T) {
	cs := []Candidate{{ID: "a", Key: 0, Tokens: 5}, {ID: "b", Key: 1, Tokens: 8}, {ID: "c", Key: 2, Tokens: 3}, {ID: "d", Key: 3, Tokens: 3}}
	// Order by score: b (9), then a and c tie at 5 (a first by key), then d.
	ids, used := Fill(cs, []float64{5, 9, 5, 1}, 12)
	if !reflect.DeepEqual(ids, []string{"b", "c"}) || used != 11 {
		t.Fatalf("Fill = %v, %d", ids, used) // a (5) does not fit after b (8); c (3) does; d no longer fits
	}
}

func TestAdaptiveK(t *testing.T) {
	cs := []*candidate{{score: 0.9}, {score: 0.85}, {score: 0.5}, {score: 0.45}}
	if got := adaptiveK(cs, 10); len(got) != 2 {
		t.Fatalf("adaptive k kept %d, want 2 (largest gap 0.35 after the second)", len(got))
	}
}

func TestListQuestion(t *testing.T) {
	for q, want := range map[string]bool{
		"What activities does Melanie partake in?":    true,
		"Which cities has Jon visited?":               true,
		"What movies have both Joanna and Nate seen?": true,
		"When did Caroline go to the support group?":  false,
		"What is Caroline's identity?":                false,
	} {
		if got := isListQuestion(text.Words(q)); got != want {
			t.Errorf("%q: %v", q, got)
		}
	}
}

func TestModelValidate(t *testing.T) {
	for _, m := range []Model{
		{Kind: "cubic"},
		{Kind: "linear", Features: []string{"bm25"}},
		{Kind: "linear", Features: []string{"nope"}, Mean: []float64{0}, Scale: []float64{1}, Weights: []float64{1}},
		{Kind: "linear", Features: []string{"bm25"}, Mean: []float64{0}, Scale: []float64{0}, Weights: []float64{1}},
		{Kind: "gbdt", Features: []string{"bm25"}},
		{Kind: "gbdt", Features: []string{"bm25"}, Trees: []Tree{{Feature: []int{0}, Threshold: []float64{1}, Left: []int{0}, Right: []int{0}, Value: []float64{0}}}},
	} {
		if err := m.Validate(); err == nil {
			t.Errorf("%+v accepted", m)
		}
	}
	if _, err := DefaultModel(); err != nil {
		t.Fatal(err)
	}
}

func TestFlattenedTreesMatch(t *testing.T) {
	// One tree: x[bm25] < 0.5 ? (x[dense] < 0.2 ? 1 : 2) : 3, nodes stored
	// depth first (0, 1, 2, 3, 4), so flattening must reorder them.
	tr := Tree{Feature: []int{0, 1, -1, -1, -1}, Threshold: []float64{0.5, 0.2, 0, 0, 0},
		Left: []int{1, 2, 0, 0, 0}, Right: []int{4, 3, 0, 0, 0}, Value: []float64{0, 0, 1, 2, 3}}
	m := Model{Kind: "gbdt", Features: []string{"bm25", "dense"}, Bias: 0.25, Trees: []Tree{tr, tr}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.nodes == nil {
		t.Fatal("not flattened")
	}
	x := make([]float64, len(FeatureNames))
	for _, c := range []struct{ bm25, dense, want float64 }{
		{0.1, 0.1, 0.25 + 2*1}, {0.1, 0.2, 0.25 + 2*2}, {0.5, 0, 0.25 + 2*3}, {0.9, 0.9, 0.25 + 2*3},
	} {
		x[0], x[2] = c.bm25, c.dense
		flat := m.Score(x)
		nodes := m.nodes
		m.nodes = nil
		tree := m.Score(x)
		m.nodes = nodes
		if flat != c.want || tree != c.want {
			t.Errorf("bm25 %v dense %v: flattened %v, trees %v, want %v", c.bm25, c.dense, flat, tree, c.want)
		}
	}
}
