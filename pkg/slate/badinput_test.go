package slate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// snapshot is the store as its state: its units, in order.
func snapshot(t *testing.T, s *Store) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSelectOnBadQuestions: a question too long is refused naming the
// field; a question that is only a name is answered with that person's
// turns, saying so; neither changes the memory.
func TestSelectOnBadQuestions(t *testing.T) {
	s := NewStore()
	if err := s.Add(units()); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, s)
	long := strings.Repeat("pottery class ", 10000/14+1)[:10000]
	if _, err := s.Select(Request{Query: long}); err == nil || err.Error() != "query: 10000 bytes, more than the limit of 4000" {
		t.Errorf("10,000-byte question: err = %v", err)
	}
	if _, err := s.Select(Request{Query: long[:MaxQueryBytes]}); err != nil {
		t.Errorf("a question of exactly MaxQueryBytes: %v", err)
	}
	res, err := s.Select(Request{Query: "Ann", Budget: 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Units) == 0 {
		t.Fatal("a name alone selects nothing")
	}
	for _, u := range res.Units {
		if !strings.Contains(u.Line, "Ann: ") || !strings.Contains(u.Why, "Said by Ann, whom the question names.") {
			t.Errorf("name-only question: %s (%s)", u.Line, u.Why)
		}
	}
	if after := snapshot(t, s); !bytes.Equal(before, after) {
		t.Errorf("selection changed the memory:\n%s\n%s", before, after)
	}
}

// TestThousandIdenticalUnits: a thousand units saying the same thing on the
// same date enter a slate once (whichever the ranker puts first: their
// neighbours differ), and the store keeps all of them; a batch with one bad
// unit among them adds nothing.
func TestThousandIdenticalUnits(t *testing.T) {
	s := NewStore()
	var us []Unit
	for i := range 1000 {
		us = append(us, Unit{ID: fmt.Sprintf("u%d", i), Session: "S1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Ann", Text: "I signed up for a pottery class on Tuesdays."})
	}
	bad := append(append([]Unit(nil), us...), Unit{ID: "late", Session: "S2", Time: "8 May", Text: "x"})
	if err := s.Add(bad); err == nil || err.Error() != `units[1000].time: want RFC 3339 or YYYY-MM-DD, got "8 May"` {
		t.Fatalf("a batch with a bad time: err = %v", err)
	}
	if s.Len() != 0 {
		t.Fatalf("a refused batch left %d units", s.Len())
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	for _, ranker := range Rankers {
		res, err := s.Select(Request{Query: "When is the pottery class?", Budget: 2000, Ranker: ranker})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Units) != 1 || res.Tokens != res.Units[0].Tokens || res.Units[0].Rank != 1 {
			t.Errorf("%s: %d units, %d tokens, want one unit", ranker, len(res.Units), res.Tokens)
		}
	}
	if s.Len() != 1000 {
		t.Errorf("the store holds %d units", s.Len())
	}
}

// TestUndatedAndOutOfOrderSessions: a session without a date is selected
// and said to be undated; sessions added out of date order come out in date
// order; a unit's date that is not a date is refused naming the field.
func TestUndatedAndOutOfOrderSessions(t *testing.T) {
	s := NewStore()
	us := []Unit{
		{ID: "late", Session: "S9", Date: "1 June 2023", Time: "2023-06-01", Speaker: "Ann", Text: "My pottery class moved to Thursdays."},
		{ID: "early", Session: "S1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Ann", Text: "I signed up for a pottery class on Tuesdays."},
		{ID: "nodate", Session: "S5", Speaker: "Ann", Text: "The pottery teacher is called Rosa."},
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	res, err := s.Select(Request{Query: "What do we know about Ann's pottery class?", Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range res.Units {
		ids = append(ids, u.ID)
		if u.ID == "nodate" && (!strings.HasSuffix(u.Why, "Undated.") || strings.HasPrefix(u.Line, "[")) {
			t.Errorf("undated unit: %q, %q", u.Line, u.Why)
		}
	}
	// Chronological order: a unit without a time counts as the oldest.
	if got := strings.Join(ids, ","); got != "nodate,early,late" {
		t.Errorf("slate order %s, want nodate,early,late", got)
	}
	before := snapshot(t, s)
	for _, c := range []struct {
		u    Unit
		want string
	}{
		{Unit{ID: "x", Session: "S2", Time: "2023-13-45", Text: "x"}, `units[0].time: want RFC 3339 or YYYY-MM-DD, got "2023-13-45"`},
		{Unit{ID: "x", Session: "", Time: "2023-05-01", Text: "x"}, "units[0].session: missing"},
		{Unit{ID: "late", Session: "S2", Text: "x"}, `units[0].id: duplicate "late"`},
	} {
		if err := s.Add([]Unit{c.u}); err == nil || err.Error() != c.want {
			t.Errorf("Add(%+v) = %v, want %s", c.u, err, c.want)
		}
	}
	if _, err := s.Select(Request{Query: "pottery", Date: "yesterday"}); err == nil || err.Error() != `date: want RFC 3339 or YYYY-MM-DD, got "yesterday"` {
		t.Errorf("bad request date: %v", err)
	}
	if after := snapshot(t, s); !bytes.Equal(before, after) {
		t.Error("refused calls changed the memory")
	}
}
