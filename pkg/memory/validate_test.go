package memory

import (
	"reflect"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(s *State)
		want  string
	}{
		{"valid", func(s *State) {}, ""},
		{"config", func(s *State) { s.Config.EventCap = 0 }, "config.event_cap: must be between 1 and 1000, got 0"},
		{"clock", func(s *State) { s.Clock = -1 }, "clock: must not be negative, got -1"},
		{"counter", func(s *State) { s.Counters.NextSeq = 0 }, "counters.next_seq: must be at least 1, got 0"},
		{"mutations", func(s *State) { s.Counters.Mutations = 5 }, "counters.mutations_since_synthesis: 5 is not below gamma 5"},
		{"event id", func(s *State) { s.Events[1].ID = "x2" }, `events[1].id: "x2" is not of the form e<n>`},
		{"event order", func(s *State) { s.Events[1].ID = "e1" }, `events[1].id: "e1" is out of FIFO order (after e1)`},
		{"event counter", func(s *State) { s.Counters.NextEvent = 2 }, `events[1].id: "e2" is not below counters.next_event 2`},
		{"event action", func(s *State) { s.Events[0].Action = "zap" }, `events[0].action: unknown action "zap"`},
		{"event time", func(s *State) { s.Events[0].Time = 2000 }, "events[0].time: 2000 is after the clock 1000"},
		{"too many events", func(s *State) { s.Config.EventCap, s.Config.Batch = 1, 1 }, "events: 2 events exceed event_cap 1"},
		{"strength", func(s *State) { s.Chunks[2].Strength = 1.4 }, "chunks[2].strength: 1.4 is outside [0,1]"},
		{"strength decimals", func(s *State) { s.Chunks[0].Strength = 0.29999999999999993 }, "chunks[0].strength: 0.29999999999999993 has more than 3 decimals"},
		{"chunk id repeated", func(s *State) { s.Chunks[1].ID = "c1" }, `chunks[1].id: "c1" is out of order or repeated (after c1)`},
		{"polarity", func(s *State) { s.Chunks[0].Polarity = "loves" }, `chunks[0].polarity: unknown polarity "loves" (want likes or avoids)`},
		{"key", func(s *State) { s.Chunks[0].Key = "RPG" }, `chunks[0].key: "RPG" is not a normalized key`},
		{"duplicate key", func(s *State) { s.Chunks[3].Key = "mario" }, `chunks[3].key: series "mario" is also held by chunk "c3"`},
		{"k_cat", func(s *State) { s.Config.KCat = 1 }, `chunks[1].category: more than k_cat 1 chunks in "genre"`},
		{"category list", func(s *State) { s.Config.Categories = []string{"genre"} }, `chunks[2].category: "series" is not in config.categories`},
		{"evidence", func(s *State) { s.Chunks[0].Evidence = 0 }, "chunks[0].evidence: must be at least 1, got 0"},
		{"seen order", func(s *State) { s.Chunks[0].FirstSeen = 901 }, "chunks[0].first_seen: 901 is not within [0, last_seen 900]"},
		{"pending support", func(s *State) { s.Chunks[0].Events = []string{"e2"} }, `chunks[0].events[0]: "e2" supports the chunk but is still pending`},
		{"epoch", func(s *State) { s.Chunks[0].Epoch = 1 }, "chunks[0].epoch: 1 is not within [0, profile.version 0]"},
		{"profile", func(s *State) { s.Profile.Text = "x" }, "profile: version 0 (never synthesized) must be empty"},
		{"journal op", func(s *State) {
			s.Journal = []Entry{{Seq: 1, Op: "zap", Trigger: "user", Reason: "r"}}
			s.Counters.NextSeq = 2
		}, `journal[0].op: unknown op "zap"`},
		{"journal seq", func(s *State) {
			s.Journal = []Entry{{Seq: 1, Op: "boost", Trigger: "user", Reason: "r"}}
		}, "journal[0].seq: 1 is not increasing and below counters.next_seq 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture(t)
			c.spoil(s)
			if got := errString(s.Validate()); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestClone(t *testing.T) {
	s := fixture(t)
	if _, err := s.Apply(1000, "user", []Op{{Op: "boost", Chunk: "c1"}, {Op: "synthesize"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if !reflect.DeepEqual(s, c) {
		t.Fatal("clone differs")
	}
	before := encode(t, s)
	// Event metadata and journal entries are immutable and shared; every
	// other part of the copy is its own, and appending to the copy's event
	// memory or journal never shows in the original.
	c.Events[0].Pending = !c.Events[0].Pending
	c.Events = append(c.Events, Event{ID: "x"})
	c.Chunks[0].Events[0] = "x"
	c.Chunks[0].Strength = 0.123
	c.Profile.BuiltFrom[0].Chunk = "x"
	c.Journal = append(c.Journal, Entry{Seq: 999, Reason: "x"})
	c.Journal = c.Journal[1:]
	c.Config.Categories = append(c.Config.Categories, "x")
	if encode(t, s) != before {
		t.Error("changing the clone changed the original")
	}
}
