package memory

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// wiiU is a purchase of a Wii U game known by its title alone: the
// platform is guessed from titles, which needs two items.
func wiiU(item string, tm int64) Signal {
	return sig(item, "purchase", 0, tm, "title", item+" - Nintendo Wii U")
}

func TestDeletedPreferenceStaysDeleted(t *testing.T) {
	s := New(Config{})
	extractAll(t, s, wiiU("a", 1), wiiU("b", 2), wiiU("c", 3))
	if len(s.Chunks) != 1 || s.Chunks[0].Text != "Prefers Nintendo Wii U" || s.Chunks[0].Strength != 0.9 {
		t.Fatalf("chunks %+v", s.Chunks)
	}
	// Without a tombstone (a forget), one more Wii U game makes it again
	// from the old evidence and the new: four items, 0.9.
	forgot := s.Clone()
	if _, err := forgot.Apply(10, "user", []Op{{Op: "forget", Chunk: "c1"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	extractAll(t, forgot, wiiU("d", 11))
	if i := forgot.findChunk("platform", "nintendo wii u"); i < 0 || forgot.Chunks[i].Strength != 0.9 {
		t.Fatalf("without a tombstone: %+v", forgot.Chunks)
	}
	if _, err := s.Apply(10, "user", []Op{{Op: "delete", Chunk: "c1"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	// One more Wii U game would make it again with the three before it
	// (4 items, 0.9); they are under the tombstone, and one item is below
	// the two a guessed platform needs.
	extractAll(t, s, wiiU("d", 11))
	if i := s.findChunk("platform", "nintendo wii u"); i >= 0 {
		t.Fatalf("re-extracted from the same evidence: %+v", s.Chunks[i])
	}
	// A second new one is new evidence enough: two items, 0.8.
	extractAll(t, s, wiiU("e", 12))
	i := s.findChunk("platform", "nintendo wii u")
	if i < 0 || s.Chunks[i].Strength != 0.8 || s.Chunks[i].Evidence != 2 {
		t.Fatalf("after new evidence: %+v", s.Chunks)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestStatedPreferences(t *testing.T) {
	s := New(Config{})
	extractAll(t, s, wiiU("a", 1), wiiU("b", 2))
	out, err := s.Apply(10, "user", []Op{
		{Op: "add", Text: "likes racing"},
		{Op: "add", Text: "avoids Nintendo", Category: "platform", Key: "Nintendo", Aliases: []string{"Nintendo Wii U", "Nintendo DS"}},
		{Op: "add", Text: "puzzle games"},
	}, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	// "avoids Nintendo" takes over the Wii U chunk, which its aliases name.
	want := []struct {
		id, cat, key, pol, text string
		aliases                 []string
	}{
		{"c1", "platform", "nintendo wii u", "avoids", "Avoids Nintendo", []string{"nintendo", "nintendo ds"}},
		{"c2", "topic", "racing", "likes", "Likes racing", nil},
		{"c3", "topic", "puzzle games", "likes", "Likes puzzle games", nil},
	}
	if len(s.Chunks) != len(want) {
		t.Fatalf("chunks %+v", s.Chunks)
	}
	for i, w := range want {
		c := s.Chunks[i]
		if c.ID != w.id || c.Category != w.cat || c.Key != w.key || c.Polarity != w.pol || c.Text != w.text ||
			strings.Join(c.Aliases, ",") != strings.Join(w.aliases, ",") || c.Strength != 1 || !c.Stated {
			t.Errorf("chunk %d: %+v, want %+v", i, c, w)
		}
	}
	if got := []string{out[0].Op, out[0].Reason, out[1].Reason}; got[0] != "add" || got[1] != `the user said: "likes racing"` ||
		got[2] != `the user said: "avoids Nintendo" (it was "Prefers Nintendo Wii U")` {
		t.Errorf("journal %q", got)
	}
	// Signals no longer move a stated chunk, nor does the planner.
	extractAll(t, s, wiiU("c", 11), wiiU("d", 12))
	if c := s.Chunks[0]; c.Strength != 1 || c.Polarity != "avoids" {
		t.Errorf("stated chunk moved by signals: %+v", c)
	}
	if _, err := s.Apply(20, "planner", []Op{{Op: "demote", Chunk: "c2"}}, Policy{}); err == nil ||
		err.Error() != `ops[0].chunk: chunk "c2" is the user's own ("Likes racing"): demote is left to the user` {
		t.Errorf("planner demoting a stated chunk: %v", err)
	}
	// Adding back what was deleted lifts its tombstone.
	if _, err := s.Apply(30, "user", []Op{{Op: "delete", Chunk: "c2"}, {Op: "add", Text: "I like racing"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	if len(s.Tombstones) != 0 || s.findChunk("topic", "racing") < 0 {
		t.Errorf("tombstones %+v chunks %+v", s.Tombstones, s.Chunks)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestParseStated(t *testing.T) {
	for _, c := range []struct{ in, pol, label string }{
		{"likes racing", "likes", "racing"},
		{"Avoids Nintendo", "avoids", "Nintendo"},
		{"I don't like horror.", "avoids", "horror"},
		{"never show me Halo", "avoids", "Halo"},
		{"loves The Legend of Zelda", "likes", "The Legend of Zelda"},
		{"puzzle games", "likes", "puzzle games"},
		{"no", "likes", "no"}, // a cue alone is what it says
	} {
		pol, label, _ := ParseStated(c.in)
		if pol != c.pol || label != c.label {
			t.Errorf("ParseStated(%q) = %s %q, want %s %q", c.in, pol, label, c.pol, c.label)
		}
	}
}

// TestBadEditsLeaveMemory sends edits a client may get wrong: each is
// refused naming the field, and the memory is byte for byte as it was.
func TestBadEditsLeaveMemory(t *testing.T) {
	s := fixture(t)
	if _, err := s.Apply(1000, "user", []Op{{Op: "delete", Chunk: "c3"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(s)
	for _, c := range []struct {
		name string
		op   Op
		want string
	}{
		{"a chunk that does not exist", Op{Op: "edit", Chunk: "c99", Strength: f(0.5)}, `ops[0].chunk: unknown chunk "c99"`},
		{"a strength of 7", Op{Op: "edit", Chunk: "c1", Strength: f(7)}, "ops[0].strength: 7 is outside [0,1]"},
		{"a strength of NaN", Op{Op: "edit", Chunk: "c1", Strength: f(math.NaN())}, "ops[0].strength: NaN is outside [0,1]"},
		{"a negative strength", Op{Op: "add", Text: "likes racing", Strength: f(-0.1)}, "ops[0].strength: -0.1 is outside [0,1]"},
		{"5,000 characters", Op{Op: "add", Text: "likes " + strings.Repeat("x", 5000)}, "ops[0].text: longer than 300 bytes"},
		{"an empty preference", Op{Op: "add"}, `ops[0].text: required: what the user likes or avoids ("likes racing", "avoids Nintendo")`},
		{"only a cue and blanks", Op{Op: "add", Text: "   "}, "ops[0].text: blank"},
		{"words with nothing to hold", Op{Op: "add", Text: "likes !!!"}, `ops[0].text: "likes !!!" names nothing to like or avoid`},
		{"a cue alone", Op{Op: "add", Text: "likes"}, `ops[0].text: "likes" names nothing to like or avoid`},
		{"cues only", Op{Op: "add", Text: "avoids avoids avoids"}, `ops[0].text: "avoids avoids avoids" names nothing to like or avoid`},
		{"common words only", Op{Op: "add", Text: "I love the"}, `ops[0].text: "I love the" names nothing to like or avoid`},
		{"a deletion sent twice", Op{Op: "delete", Chunk: "c3"}, `ops[0].chunk: unknown chunk "c3" (the user deleted it: "Enjoys the Mario series")`},
		{"an add by the planner", Op{Op: "add", Text: "likes racing"}, `ops[0].op: add is the user's own statement (trigger "user")`},
	} {
		trigger := "user"
		if strings.Contains(c.name, "planner") {
			trigger = "planner"
		}
		_, err := s.Apply(2000, trigger, []Op{c.op}, Policy{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.name, err, c.want)
		}
		if after, _ := json.Marshal(s); string(after) != string(before) {
			t.Errorf("%s: the memory changed", c.name)
		}
	}
}
