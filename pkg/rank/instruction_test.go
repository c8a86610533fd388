package rank

import (
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

// TestNegatedWordsNeverAddScore: with a negated instruction every kept
// item scores at most what it scores without one, and an excluded item is
// gone.
func TestNegatedWordsNeverAddScore(t *testing.T) {
	r := New(tiny(t))
	u := User{Events: []Event{{Item: "a"}}}
	cands := []Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	plain, err := r.Rank(u, Request{Candidates: cands})
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]float64{}
	for _, x := range plain {
		base[x.ID] = x.Score
	}
	for _, tt := range []struct {
		instruction string
		gone        []string
	}{
		{"no shooters", []string{"a", "b"}},        // "shooters" normalizes to the title word "shooter"
		{"nothing with space", []string{"a", "b"}}, // a title word: both Space Shooters go
		{"not racing, no puzzles", []string{"d"}},
		{"I hate zombies", nil}, // not in the catalog: only the word-vector penalty
	} {
		req := Request{Candidates: cands, Instruction: tt.instruction}
		und := r.Understand(req)
		ranked, err := r.Rank(u, und.Constrained(req))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, x := range ranked {
			got[x.ID] = true
			if x.Score > base[x.ID] {
				t.Errorf("%q: %s scores %v, more than %v without the instruction", tt.instruction, x.ID, x.Score, base[x.ID])
			}
		}
		for _, id := range tt.gone {
			if got[id] {
				t.Errorf("%q: %s is still ranked (%s)", tt.instruction, id, und.Intent.Summary())
			}
		}
	}
}

// TestEnforceAfterPermutation: whatever order a reranker returns, Enforce
// removes the items the hard constraints exclude and renumbers the rest.
func TestEnforceAfterPermutation(t *testing.T) {
	r := New(tiny(t))
	req := Request{Candidates: []Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Instruction: "no Space Shooter"}
	und := r.Understand(req)
	c := und.Constrained(req)
	permuted := []Ranked{{ID: "a", Rank: 1}, {ID: "c", Rank: 2}, {ID: "b", Rank: 3}}
	out := r.Enforce(permuted, c)
	if len(out) != 1 || out[0].ID != "c" || out[0].Rank != 1 {
		t.Fatalf("enforced %+v (%s)", out, und.Intent.Summary())
	}
}

// TestEnforceAfterRelaxingEverything: when every constraint is relaxed the
// list is every candidate, though the dropped clause's label holds " or "
// ("suitable from age 2 or younger"): matching the relaxed value split on
// " or " once kept that clause enforced and emptied the list.
func TestEnforceAfterRelaxingEverything(t *testing.T) {
	cat, err := catalog.Parse([]byte(`{"format":"recmem.catalog","version":1,"dataset":"shelf","meta_names":["title","price","min_age","year"],"dim":0,
 "items":[{"id":"a","meta":["Moss Kingdom",8.99,8,1937],"pop":3},{"id":"b","meta":["Night Ledger",7.5,16,1978],"pop":2},{"id":"c","meta":["Quiet Harbour",12,12,2016],"pop":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := New(cat)
	// No item is for a child of 2 (the youngest is 8): the age is relaxed.
	req := Request{Candidates: []Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Instruction: "for my 2 year old", K: 3}
	u := r.Understand(req)
	if len(u.Relaxed) != 1 || u.Relaxed[0].Value != "min_age suitable from age 2 or younger" {
		t.Fatalf("relaxed %+v, want the age", u.Relaxed)
	}
	cr := u.Constrained(req)
	ranked, err := r.Rank(User{}, cr)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Enforce(ranked, cr); len(got) != 3 {
		t.Errorf("enforced %d of 3 (still enforced: %+v)", len(got), u.Enforced.Only)
	}
}
