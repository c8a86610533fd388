package memory

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// fixture is a small valid state: two events (e2 pending) and four chunks.
func fixture(t *testing.T) *State {
	t.Helper()
	s := New(Config{})
	s.Clock = 1000
	s.Events = []Event{
		{ID: "e1", User: "u", Item: "i1", Action: "purchase", Meta: map[string][]string{"genre": {"RPG"}}, Time: 900},
		{ID: "e2", User: "u", Item: "i2", Action: "dislike", Meta: map[string][]string{"genre": {"RPG"}}, Time: 950, Pending: true},
	}
	s.Chunks = []Chunk{
		{ID: "c1", Category: "genre", Key: "rpg", Polarity: "likes", Text: "Enjoys RPG", Strength: 0.7, Evidence: 1,
			FirstSeen: 900, LastSeen: 900, Events: []string{"e1"}, LastDelta: 0.7},
		{ID: "c2", Category: "genre", Key: "horror", Polarity: "avoids", Text: "Avoids horror", Strength: 0.3, Evidence: 2,
			FirstSeen: 100, LastSeen: 200, Events: []string{}, LastDelta: -0.2},
		{ID: "c3", Category: "series", Key: "mario", Polarity: "likes", Text: "Enjoys the Mario series", Strength: 0.8, Evidence: 2,
			FirstSeen: 300, LastSeen: 400, Events: []string{}, LastDelta: 0.8},
		{ID: "c4", Category: "series", Key: "super mario", Polarity: "likes", Text: "Enjoys the Super Mario series", Strength: 0.6, Evidence: 1,
			FirstSeen: 250, LastSeen: 500, Events: []string{}, LastDelta: -0.2},
	}
	s.Counters = Counters{NextEvent: 3, NextChunk: 5, NextSeq: 1}
	if err := s.Validate(); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return s
}

func f(x float64) *float64 { return &x }

func chunk(t *testing.T, s *State, id string) Chunk {
	t.Helper()
	i := s.chunkIndex(id)
	if i < 0 {
		t.Fatalf("no chunk %s", id)
	}
	return s.Chunks[i]
}

func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestApplyOps(t *testing.T) {
	cases := []struct {
		name    string
		trigger string
		ops     []Op
		check   func(t *testing.T, s *State, out []Entry)
	}{
		{"boost", "user", []Op{{Op: "boost", Chunk: "c1", Events: []string{"e2"}}}, func(t *testing.T, s *State, out []Entry) {
			c := chunk(t, s, "c1")
			if c.Strength != 0.8 || c.Evidence != 2 || c.LastSeen != 950 || c.LastDelta != 0.1 || !reflect.DeepEqual(c.Events, []string{"e1", "e2"}) {
				t.Errorf("boosted chunk %+v", c)
			}
			if s.Events[1].Pending {
				t.Error("an event cited by a boost stays pending")
			}
			if got := encode(t, out); got != `[{"seq":1,"time":1000,"op":"boost","trigger":"user","chunks":["c1"],"events":["e2"],"before":0.7,"after":0.8,"reason":"boosted by user"}]` {
				t.Errorf("entries %s", got)
			}
		}},
		{"boost at one stays at one", "user", []Op{{Op: "boost", Chunk: "c3"}, {Op: "boost", Chunk: "c3"}, {Op: "boost", Chunk: "c3"}}, func(t *testing.T, s *State, out []Entry) {
			if c := chunk(t, s, "c3"); c.Strength != 1 || c.Evidence != 5 || c.LastDelta != 0 || c.LastSeen != 1000 {
				t.Errorf("chunk %+v", c)
			}
		}},
		{"demote counts as evidence", "planner", []Op{{Op: "demote", Chunks: []string{"c1", "c3"}, Reason: "contradicted"}}, func(t *testing.T, s *State, out []Entry) {
			if c := chunk(t, s, "c1"); c.Strength != 0.5 || c.Evidence != 2 || c.LastDelta != -0.2 {
				t.Errorf("c1 %+v", c)
			}
			if c := chunk(t, s, "c3"); c.Strength != 0.6 || c.Evidence != 3 {
				t.Errorf("c3 %+v", c)
			}
			if len(out) != 2 || out[1].Reason != "contradicted" || out[1].Trigger != "planner" {
				t.Errorf("entries %+v", out)
			}
		}},
		{"forget under the rule", "planner", []Op{{Op: "forget", Chunk: "c2"}}, func(t *testing.T, s *State, out []Entry) {
			if s.chunkIndex("c2") >= 0 {
				t.Error("c2 still there")
			}
			if got := out[0].Reason; got != "strength 0.3 is at or below the threshold 0.3, with evidence 2 (minimum 2)" {
				t.Errorf("reason %q", got)
			}
		}},
		{"forget at the user's request", "user", []Op{{Op: "forget", Chunk: "c3"}}, func(t *testing.T, s *State, out []Entry) {
			if got := out[0].Reason; got != "at the user's request; strength 0.8 is above the threshold 0.3" {
				t.Errorf("reason %q", got)
			}
		}},
		{"merge", "planner", []Op{{Op: "merge", Chunks: []string{"c4", "c3"}}}, func(t *testing.T, s *State, out []Entry) {
			c := chunk(t, s, "c4")
			want := Chunk{ID: "c4", Category: "series", Key: "super mario", Aliases: []string{"mario"}, Polarity: "likes",
				Text: "Enjoys the Super Mario series", Strength: 0.8, Evidence: 3, FirstSeen: 250, LastSeen: 500,
				Events: []string{}, LastDelta: 0.2, Epoch: 0}
			if !reflect.DeepEqual(c, want) {
				t.Errorf("merged\n got %+v\nwant %+v", c, want)
			}
			if s.chunkIndex("c3") >= 0 || len(s.Chunks) != 3 {
				t.Error("c3 not absorbed")
			}
			if *out[0].Before != 0.6 || *out[0].After != 0.8 {
				t.Errorf("entry %+v", out[0])
			}
		}},
		{"edit", "user", []Op{{Op: "edit", Chunk: "c1", Text: "Loves JRPGs", Strength: f(0.95)}}, func(t *testing.T, s *State, out []Entry) {
			// A strength the user sets is the user's own: signals no
			// longer move it.
			if c := chunk(t, s, "c1"); c.Text != "Loves JRPGs" || c.Strength != 0.95 || c.Evidence != 1 || c.LastDelta != 0.25 || !c.Stated {
				t.Errorf("edited %+v", c)
			}
			if out[0].Reason != `the user edited the text and strength of "Loves JRPGs"; signals no longer move it` {
				t.Errorf("reason %q", out[0].Reason)
			}
			// The profile is rewritten at once.
			if len(out) != 2 || out[1].Op != "synthesize" || s.Profile.Version != 1 {
				t.Errorf("entries %+v, profile %+v", out, s.Profile)
			}
		}},
		{"delete", "user", []Op{{Op: "delete", Chunks: []string{"c1", "c3"}}}, func(t *testing.T, s *State, out []Entry) {
			want := `the user deleted "Enjoys RPG": the events up to e2 will not bring it back, nor pull recommendations its way`
			if len(s.Chunks) != 2 || len(out) != 3 || out[0].Reason != want || out[2].Op != "synthesize" {
				t.Errorf("chunks %d, entries %+v", len(s.Chunks), out)
			}
			// Each deleted chunk leaves a tombstone over the events e1, e2.
			if len(s.Tombstones) != 2 || !reflect.DeepEqual(s.Tombstones[0], Tombstone{Chunk: "c1", Category: "genre", Key: "rpg",
				Polarity: "likes", Text: "Enjoys RPG", Before: 3, Time: 1000}) || s.Tombstones[1].Key != "mario" {
				t.Errorf("tombstones %+v", s.Tombstones)
			}
		}},
		{"explicit extract", "llm", []Op{{Op: "extract", Category: "genre", Text: "Enjoys roguelikes", Events: []string{"e2"}}}, func(t *testing.T, s *State, out []Entry) {
			c := chunk(t, s, "c5")
			if c.Key != "roguelikes" || c.Strength != 0.7 || c.Polarity != "likes" || c.FirstSeen != 950 || s.Events[1].Pending {
				t.Errorf("created %+v", c)
			}
			if s.Counters.NextChunk != 6 {
				t.Errorf("next chunk %d", s.Counters.NextChunk)
			}
		}},
		{"synthesize", "user", []Op{{Op: "synthesize"}}, func(t *testing.T, s *State, out []Entry) {
			if s.Profile.Version != 1 || s.Profile.Time != 1000 || out[0].Reason != "requested by user" || len(out[0].Chunks) != 4 {
				t.Errorf("profile %+v entry %+v", s.Profile, out[0])
			}
			if s.Counters.Mutations != 0 {
				t.Error("synthesis is not a mutation")
			}
		}},
		{"extract sweep", "scheduler", []Op{{Op: "extract"}}, func(t *testing.T, s *State, out []Entry) {
			// e2 (dislike of an RPG) contradicts c1.
			if c := chunk(t, s, "c1"); c.Strength != 0.5 {
				t.Errorf("c1 %+v", c)
			}
			last := out[len(out)-1]
			if last.Reason != "processed 1 pending event: 0 created, 0 boosted, 1 demoted" || !reflect.DeepEqual(last.Events, []string{"e2"}) {
				t.Errorf("closing entry %+v", last)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture(t)
			out, err := s.Apply(1000, c.trigger, c.ops, Policy{})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("state after ops is invalid: %v", err)
			}
			c.check(t, s, out)
		})
	}
}

// TestApplyErrors checks that every refused batch names its op and field and
// leaves the state exactly as it was, even when earlier ops had succeeded.
func TestApplyErrors(t *testing.T) {
	cases := []struct {
		name    string
		now     int64
		trigger string
		ops     []Op
		want    string
	}{
		{"unknown op", 1000, "user", []Op{{Op: "zap"}}, `ops[0].op: unknown op "zap"`},
		{"unknown chunk after a good op", 1000, "user", []Op{{Op: "boost", Chunk: "c1"}, {Op: "demote", Chunk: "c1"}, {Op: "boost", Chunk: "c99"}}, `ops[2].chunk: unknown chunk "c99"`},
		{"chunk forgotten earlier in the batch", 1000, "planner", []Op{{Op: "forget", Chunk: "c2"}, {Op: "boost", Chunks: []string{"c1", "c2"}}}, `ops[1].chunks[1]: unknown chunk "c2"`},
		{"forget rule", 1000, "planner", []Op{{Op: "forget", Chunk: "c1"}}, `ops[0].chunk: chunk "c1" does not meet the forget rule (strength 0.7 is above the threshold 0.3)`},
		{"forget after two demotes", 1000, "llm", []Op{{Op: "demote", Chunk: "c4"}, {Op: "demote", Chunk: "c4"}, {Op: "forget", Chunk: "c4"}}, ""},
		{"strength out of range", 1000, "user", []Op{{Op: "edit", Chunk: "c1", Strength: f(1.4)}}, "ops[0].strength: 1.4 is outside [0,1]"},
		{"field not used", 1000, "user", []Op{{Op: "boost", Chunk: "c1", Text: "x"}}, "ops[0].text: not used by boost"},
		{"missing chunk", 1000, "user", []Op{{Op: "demote"}}, "ops[0].chunk: required"},
		{"chunk and chunks", 1000, "user", []Op{{Op: "demote", Chunk: "c1", Chunks: []string{"c3"}}}, "ops[0].chunks: give chunk or chunks, not both"},
		{"repeated chunk", 1000, "user", []Op{{Op: "boost", Chunks: []string{"c1", "c1"}}}, `ops[0].chunks[1]: chunk "c1" listed twice`},
		{"unknown event", 1000, "user", []Op{{Op: "boost", Chunk: "c1", Events: []string{"e9"}}}, `ops[0].events[0]: unknown event "e9"`},
		{"merge one", 1000, "user", []Op{{Op: "merge", Chunks: []string{"c1"}}}, "ops[0].chunks: merge needs at least 2 chunks, got 1"},
		{"merge categories", 1000, "user", []Op{{Op: "merge", Chunks: []string{"c1", "c3"}}}, `ops[0].chunks[1]: chunk "c3" is in category "series", not "genre"`},
		{"merge polarity", 1000, "user", []Op{{Op: "merge", Chunks: []string{"c1", "c2"}}}, `ops[0].chunks[1]: chunk "c2" avoids, chunk "c1" likes`},
		{"delete by planner", 1000, "planner", []Op{{Op: "delete", Chunk: "c1"}}, `ops[0].op: delete is a user's edit (trigger "user"); use forget`},
		{"edit by llm", 1000, "llm", []Op{{Op: "edit", Chunk: "c1", Text: "x"}}, `ops[0].op: edit is a user's edit (trigger "user")`},
		{"edit nothing", 1000, "user", []Op{{Op: "edit", Chunk: "c1"}}, "ops[0].text: give text, strength or both"},
		{"extract duplicate key", 1000, "user", []Op{{Op: "extract", Category: "series", Text: "Enjoys the Mario series"}}, `ops[0].key: chunk "c3" already holds series "mario"`},
		{"extract no category", 1000, "user", []Op{{Op: "extract", Text: "Enjoys puzzles"}}, "ops[0].category: required"},
		{"extract bad category", 1000, "user", []Op{{Op: "extract", Category: "Genre", Text: "Enjoys puzzles"}}, `ops[0].category: "Genre" is not normalized (want "genre")`},
		{"extract bad polarity", 1000, "user", []Op{{Op: "extract", Category: "genre", Text: "Enjoys puzzles", Polarity: "loves"}}, `ops[0].polarity: unknown polarity "loves" (want likes or avoids)`},
		{"extract processed event", 1000, "user", []Op{{Op: "extract", Events: []string{"e1"}}}, `ops[0].events[0]: event "e1" is not pending`},
		{"time going back", 999, "user", []Op{{Op: "synthesize"}}, "now: 999 is earlier than the memory clock 1000"},
		{"unknown trigger", 1000, "cron", []Op{{Op: "synthesize"}}, `trigger: unknown trigger "cron"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture(t)
			before := encode(t, s)
			_, err := s.Apply(c.now, c.trigger, c.ops, Policy{})
			if got := errString(err); got != c.want {
				t.Fatalf("error %q, want %q", got, c.want)
			}
			if c.want != "" && encode(t, s) != before {
				t.Error("a failed batch changed the state")
			}
		})
	}
}

// TestAutoSynthesis checks that a synthesis runs after every gamma-th
// mutation, in the middle of a batch, and that the count carries over.
func TestAutoSynthesis(t *testing.T) {
	s := fixture(t)
	ops := []Op{}
	for range 7 {
		ops = append(ops, Op{Op: "boost", Chunk: "c1"})
	}
	out, err := s.Apply(1000, "user", ops, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, e := range out {
		seq = append(seq, e.Op)
	}
	want := "boost boost boost boost boost synthesize boost boost"
	if got := strings.Join(seq, " "); got != want {
		t.Fatalf("entries %s, want %s", got, want)
	}
	if e := out[5]; e.Trigger != "auto" || e.Reason != "5 mutations since last synthesis" {
		t.Errorf("synthesis entry %+v", e)
	}
	if s.Counters.Mutations != 2 || s.Profile.Version != 1 {
		t.Errorf("mutations %d, version %d", s.Counters.Mutations, s.Profile.Version)
	}
	// Three more mutations in another batch complete the next five.
	out, err = s.Apply(1000, "user", []Op{{Op: "demote", Chunk: "c3"}, {Op: "demote", Chunk: "c3"}, {Op: "synthesize"}, {Op: "demote", Chunk: "c3"}}, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Profile.Version != 2 || s.Counters.Mutations != 1 || out[2].Op != "synthesize" || out[2].Trigger != "user" {
		t.Errorf("an explicit synthesis must reset the count: version %d, mutations %d", s.Profile.Version, s.Counters.Mutations)
	}
}

// TestCapacity checks K_cat overflow: a stronger newcomer evicts the weakest
// chunk; an equal or weaker one is dropped, keeping the existing chunk.
func TestCapacity(t *testing.T) {
	cases := []struct {
		name     string
		strength float64
		want     string // ops of the journal entries
		keeps    []string
	}{
		{"stronger evicts the weakest", 0.65, "evict extract", []string{"c1", "c2", "c3", "c5"}},
		{"tie keeps the existing", 0.6, "drop", []string{"c1", "c2", "c3", "c4"}},
		{"weaker is dropped", 0.5, "drop", []string{"c1", "c2", "c3", "c4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture(t)
			s.Config.KCat = 2
			// series holds c3 (0.8) and c4 (0.6): full at k_cat 2.
			op := Op{Op: "extract", Category: "series", Text: "Enjoys the Zelda series", Strength: f(c.strength)}
			if _, err := s.Apply(1000, "user", []Op{op}, Policy{}); err != nil {
				t.Fatal(err)
			}
			var ops []string
			for _, e := range s.Journal {
				ops = append(ops, e.Op)
			}
			if got := strings.Join(ops, " "); got != c.want {
				t.Errorf("journal %s, want %s", got, c.want)
			}
			var ids []string
			for _, ch := range s.Chunks {
				ids = append(ids, ch.ID)
			}
			if !reflect.DeepEqual(ids, c.keeps) {
				t.Errorf("chunks %v, want %v", ids, c.keeps)
			}
			e := s.Journal[0]
			if e.Trigger != "capacity" {
				t.Errorf("trigger %q", e.Trigger)
			}
			if c.want == "drop" && s.Counters.Mutations != 0 {
				t.Error("a drop is not a mutation")
			}
			if c.want != "drop" && e.Reason != `category series is full (2/2): the new "Enjoys the Zelda series" (0.65) is stronger than the weakest, c4 "Enjoys the Super Mario series" (0.6)` {
				t.Errorf("reason %q", e.Reason)
			}
			if err := s.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestWeakerOrder(t *testing.T) {
	a := Chunk{ID: "c2", Strength: 0.5, LastSeen: 10}
	cases := []struct {
		b    Chunk
		want bool // a is weaker than b
	}{
		{Chunk{ID: "c1", Strength: 0.6, LastSeen: 5}, true},
		{Chunk{ID: "c1", Strength: 0.5, LastSeen: 20}, true},
		{Chunk{ID: "c1", Strength: 0.5, LastSeen: 10}, false},
		{Chunk{ID: "c3", Strength: 0.5, LastSeen: 10}, true},
	}
	for _, c := range cases {
		if got := weaker(a, c.b); got != c.want {
			t.Errorf("weaker(%+v, %+v) = %v", a, c.b, got)
		}
	}
}
