package memory

import (
	"reflect"
	"strings"
	"testing"
)

func view(item string, tm int64) Signal {
	return Signal{User: "u", Item: item, Action: "view", Time: tm}
}

// TestFIFOEviction fills a 3-event memory without maintenance: the fourth
// signal would push out a pending event, so the pending events are extracted
// first (trigger "fifo"), then the oldest leaves.
func TestFIFOEviction(t *testing.T) {
	s := New(Config{EventCap: 3, Batch: 3})
	rpg := func(item string, tm int64) Signal {
		return Signal{User: "u", Item: item, Action: "purchase", Time: tm, Meta: map[string][]string{"genre": {"RPG"}}}
	}
	res, err := s.Record([]Signal{rpg("i1", 10), view("i2", 20), view("i3", 30)}, nil, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Maintenance.Scheduler != "none" || len(res.Evicted) != 0 || len(s.pending()) != 3 {
		t.Fatalf("first record %+v", res)
	}
	res, err = s.Record([]Signal{view("i4", 40), view("i5", 50)}, nil, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Evicted, []string{"e1", "e2"}) {
		t.Errorf("evicted %v", res.Evicted)
	}
	// One extraction for e1..e3 (creating the RPG chunk), none for e2: by
	// then nothing older is pending.
	var ops []string
	for _, e := range res.Fifo {
		ops = append(ops, e.Op+"/"+e.Trigger)
	}
	if got := strings.Join(ops, " "); got != "extract/fifo extract/fifo" {
		t.Errorf("fifo entries %s", got)
	}
	if got := res.Fifo[1].Reason; got != "event e1 is about to leave the event memory (capacity 3) while pending; processed 3 pending events: 1 created, 0 boosted, 0 demoted, 2 neutral" {
		t.Errorf("reason %q", got)
	}
	if len(s.Chunks) != 1 || s.Chunks[0].Key != "rpg" || !reflect.DeepEqual(s.Chunks[0].Events, []string{"e1"}) {
		t.Errorf("chunks %+v", s.Chunks)
	}
	var ids []string
	for _, e := range s.Events {
		ids = append(ids, e.ID)
		if e.Pending != (e.ID != "e3") {
			t.Errorf("%s pending %v", e.ID, e.Pending)
		}
	}
	if !reflect.DeepEqual(ids, []string{"e3", "e4", "e5"}) || s.Clock != 50 {
		t.Errorf("events %v, clock %d", ids, s.Clock)
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
}

func TestRecordValidatesAllFirst(t *testing.T) {
	s := New(Config{})
	before := encode(t, s)
	cases := []struct {
		sig  Signal
		want string
	}{
		{Signal{User: "u", Item: "i", Action: "zap"}, `signals[1].action: unknown action "zap"`},
		{Signal{User: "u", Item: "i", Action: "rate", Rating: 6}, "signals[1].rating: must be between 1 and 5, got 6"},
		{Signal{User: "u", Item: "i", Action: "rate"}, "signals[1].rating: required by the \"rate\" action (1 to 5)"},
		{Signal{User: "u", Item: "i", Action: "like", Rating: 4}, `signals[1].rating: only the "rate" action takes a rating`},
		{Signal{User: "", Item: "i", Action: "like"}, "signals[1].user: required"},
		{Signal{User: "u", Item: "", Action: "like"}, "signals[1].item: required"},
		{Signal{User: "u", Item: "i", Action: "like", Time: -1}, "signals[1].time: must not be negative, got -1"},
		{Signal{User: "u", Item: "i", Action: "like", Meta: map[string][]string{"genre": {"RPG", " "}}}, "signals[1].meta.genre[1]: empty value"},
	}
	for _, c := range cases {
		_, err := s.Record([]Signal{view("ok", 1), c.sig}, Fixed{}, Policy{})
		if got := errString(err); got != c.want {
			t.Errorf("error %q, want %q", got, c.want)
		}
		if encode(t, s) != before {
			t.Fatal("a refused record changed the state")
		}
	}
}

func TestPolarity(t *testing.T) {
	cases := []struct {
		action string
		rating int
		want   int
	}{
		{"purchase", 0, 1}, {"like", 0, 1}, {"rate", 5, 1}, {"rate", 4, 1},
		{"rate", 3, 0}, {"view", 0, 0}, {"click", 0, 0},
		{"rate", 2, -1}, {"rate", 1, -1}, {"dislike", 0, -1}, {"skip", 0, -1},
	}
	for _, c := range cases {
		if got := Polarity(c.action, c.rating); got != c.want {
			t.Errorf("Polarity(%s, %d) = %d, want %d", c.action, c.rating, got, c.want)
		}
	}
}
