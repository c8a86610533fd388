package rank

import (
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/workload"
)

// TestLazyStateGivesFreshResults: what a ranker builds at its first use
// (each item's BM25 document and embedding, each item's match form, the
// titles' phrase index, the typo index) never changes an answer: every
// request answers on a ranker that served the others before it, in either
// order, exactly as on a ranker just made.
func TestLazyStateGivesFreshResults(t *testing.T) {
	cat := scaledCatalog(t, 3000)
	type call struct {
		u   User
		req Request
	}
	var calls []call
	for _, ins := range []string{"", workload.ScaledInstruction, "something like dark city, not Horror", "dark citty please",
		"no night stories", "blue king from before 1950"} {
		calls = append(calls, call{User{}, scaledRequest(cat.Len(), ins)})
	}
	// A user with a history (its items' embeddings and documents) and a
	// candidate outside the request's spread.
	u := User{Events: []Event{{Item: "7"}, {Item: "2999"}}}
	req := scaledRequest(cat.Len(), "dark citty")
	req.Candidates = append(req.Candidates, Candidate{ID: "2998"})
	calls = append(calls, call{u, req})
	answer := func(r *Ranker, c call) ([]Ranked, Understanding) {
		und := r.Understand(c.req)
		got, err := r.Rank(c.u, und.Constrained(c.req))
		if err != nil {
			t.Fatal(err)
		}
		return got, und
	}
	want := make([][]Ranked, len(calls))
	wantU := make([]Understanding, len(calls))
	for i, c := range calls {
		want[i], wantU[i] = answer(New(cat), c)
	}
	for _, reverse := range []bool{false, true} {
		shared := New(cat)
		for k := range calls {
			i := k
			if reverse {
				i = len(calls) - 1 - k
			}
			got, und := answer(shared, calls[i])
			if !reflect.DeepEqual(got, want[i]) || !reflect.DeepEqual(und, wantU[i]) {
				t.Errorf("reverse %v, call %d (%q): a used ranker answered differently from a fresh one", reverse, i, calls[i].req.Instruction)
			}
		}
	}
}
