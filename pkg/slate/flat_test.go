package slate

import (
	"fmt"
	"slices"
	"testing"
)

// TestIncrementalCachesMatchRecomputed adds units one call at a time, into
// old sessions and new ones out of time order, deletes some (the first unit
// of the first session among them), adds a new session, and after each step
// holds the caches a selection reads (the flat arrays, the sessions' order
// in time) to the same caches computed afresh from the store's units.
func TestIncrementalCachesMatchRecomputed(t *testing.T) {
	s := NewStore()
	check := func(when string) {
		t.Helper()
		var f flat
		saved := s.flat
		s.flat = f
		s.extendFlat()
		fresh := s.flat
		s.flat = saved
		a := s.flat
		if a.n != fresh.n || !slices.Equal(a.uw, fresh.uw) || !slices.Equal(a.uwEnd, fresh.uwEnd) || !slices.Equal(a.vecs, fresh.vecs) ||
			!slices.Equal(a.sess, fresh.sess) || !slices.Equal(a.spk, fresh.spk) {
			t.Errorf("%s: flat arrays differ from their recomputation", when)
		}
		if got, want := s.sessOrder, s.sessionPositions(); !slices.Equal(got, want) {
			t.Errorf("%s: sessions' order %v, recomputed %v", when, got, want)
		}
	}
	for i := 0; i < 40; i++ {
		sess := i % 5 // sessions interleaved, later ones earlier in time
		u := Unit{ID: fmt.Sprintf("u%d", i), Session: fmt.Sprintf("s%d", sess),
			Time: fmt.Sprintf("2023-0%d-1%d", 9-sess, i%10), Speaker: []string{"Ann", "Bob", ""}[i%3],
			Text: fmt.Sprintf("Unit %d talks about pottery %d and the lake on day %d.", i, i%7, i)}
		if err := s.Add([]Unit{u}); err != nil {
			t.Fatal(err)
		}
		check(u.ID)
	}
	if err := s.Delete([]string{"u0", "u5", "u13"}); err != nil {
		t.Fatal(err)
	}
	check("after a delete")
	if err := s.Add([]Unit{{ID: "u99", Session: "s9", Time: "2023-01-01", Text: "A new session, earlier than all."}}); err != nil {
		t.Fatal(err)
	}
	check("after a new session")
	s.Purge("s1", "")
	check("after a purge")
}
