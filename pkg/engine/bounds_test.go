package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/memory"
)

// callWant runs one call and checks its error message contains want ("" for
// success); on error the state must be byte-identical to before.
func callWant(t *testing.T, e *Engine, export, input, want string) {
	t.Helper()
	before, _ := e.Call("export_state", nil)
	out, err := e.Call(export, []byte(input))
	switch {
	case want == "" && err != nil:
		t.Fatalf("%s %s: %v", export, input, err)
	case want != "" && err == nil:
		t.Fatalf("%s %s: want an error containing %q, got %s", export, input, want, out)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("%s %s:\n got %v\nwant %q", export, input, err, want)
	}
	if err != nil {
		if after, _ := e.Call("export_state", nil); !bytes.Equal(before, after) {
			t.Fatalf("%s: a refused call changed the state", export)
		}
	}
}

// TestTimeBounds (issue 17, item 3): a time in milliseconds froze a memory
// (its clock jumped to year 55,843 and every later real time was "earlier
// than the clock"). Times are unix seconds in [0, memory.MaxTime]; a value
// that reads as milliseconds says so.
func TestTimeBounds(t *testing.T) {
	e := New()
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"a","action":"like","time":1700000000000}]}`,
		`record: input.signals[0].time: 1700000000000 looks like milliseconds (1700000000 seconds is 2023-11-14); times are unix seconds from 0 to 4102444799 (2099-12-31)`)
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"a","action":"like","time":4611686018427387904}]}`,
		`record: input.signals[0].time: 4611686018427387904 is out of range; times are unix seconds from 0 to 4102444799 (2099-12-31)`)
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"a","action":"like","time":1700000000123456}]}`, `looks like microseconds`)
	callWant(t, e, "maintain", `{"now":1700000000000,"force":true}`, `maintain: input.now: 1700000000000 looks like milliseconds`)
	callWant(t, e, "apply_ops", `{"now":1700000000000,"ops":[{"op":"synthesize"}]}`, `apply_ops: input.now: 1700000000000 looks like milliseconds`)
	callWant(t, e, "plan", `{"now":9223372036854775807}`, `plan: input.now: 9223372036854775807 is out of range`)
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"a","action":"like","time":4102444799}]}`, "")
	// A document whose clock is out of range is refused.
	e2 := New()
	e2.doc.Memory.Clock = 1700000000000
	doc, _ := e2.Call("export_state", nil)
	callWant(t, New(), "import_state", string(doc), `state.memory.clock: 1700000000000 looks like milliseconds`)
	e3 := New()
	e3.doc.Memory.Config.StaleChunk = 1 << 62
	doc, _ = e3.Call("export_state", nil)
	callWant(t, New(), "import_state", string(doc), `state.memory.config.stale_chunk: must be a positive number of seconds up to 4102444799, got 4611686018427387904`)
}

// TestCounterBounds (issue 17, item 4): counters near 2^63 in a valid
// document were accepted, one call wrapped them negative, and the module then
// refused its own export. Counters and id numbers are at most 2^53 (exact in
// every JSON reader); a call that would pass it is refused and changes
// nothing, so the module never writes a state it would refuse.
func TestCounterBounds(t *testing.T) {
	sealed := func(f func(m *memory.State)) string {
		e := New()
		if _, err := e.Call("record", []byte(`{"signals":[{"user":"u","item":"a","action":"like","meta":{"genre":"Puzzle"},"time":10}],"maintain":"none"}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Call("apply_ops", []byte(`{"ops":[{"op":"extract","category":"genre","text":"Enjoys racing"}]}`)); err != nil {
			t.Fatal(err)
		}
		f(e.doc.Memory)
		doc, err := e.Call("export_state", nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(doc)
	}
	tests := []struct {
		name string
		edit func(m *memory.State)
		want string
	}{
		{"next_seq near 2^63", func(m *memory.State) { m.Counters.NextSeq = 1<<63 - 1 },
			"state.memory.counters.next_seq: 9223372036854775807 is more than 9007199254740992 (2^53)"},
		{"next_event past 2^53", func(m *memory.State) { m.Counters.NextEvent = 1<<53 + 1 },
			"state.memory.counters.next_event: 9007199254740993 is more than 9007199254740992 (2^53)"},
		{"evidence past 2^53", func(m *memory.State) { m.Chunks[0].Evidence = 1<<53 + 1 },
			"state.memory.chunks[0].evidence: 9007199254740993 is more than 9007199254740992 (2^53)"},
		{"profile version past 2^53", func(m *memory.State) {
			m.Profile = memory.Profile{Version: 1<<53 + 1, Time: 10, Text: "x", BuiltFrom: []memory.ChunkRef{}, Rising: []string{}, Fading: []string{}}
		}, "state.memory.profile.version: 9007199254740993 is more than 9007199254740992 (2^53)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			callWant(t, New(), "import_state", sealed(tt.edit), tt.want)
		})
	}
	// At the bound, a document imports, and the call that would pass it is
	// refused with the state unchanged.
	e := New()
	callWant(t, e, "import_state", sealed(func(m *memory.State) { m.Counters.NextSeq = 1 << 53 }), "")
	callWant(t, e, "apply_ops", `{"ops":[{"op":"boost","chunk":"c1"}]}`,
		"apply_ops: state.memory.counters.next_seq: would pass 9007199254740992 (2^53), the largest id number a state holds; nothing was applied")
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"b","action":"like","time":20}]}`, "")
	e = New()
	callWant(t, e, "import_state", sealed(func(m *memory.State) { m.Chunks[0].Evidence = 1 << 53 }), "")
	callWant(t, e, "apply_ops", `{"ops":[{"op":"boost","chunk":"c1"}]}`,
		"apply_ops: state.memory.chunks[0].evidence: would pass 9007199254740992 (2^53)")
}

// TestIDsRefuseWhatDecodingRewrites (issue 17, item 5): ids with invalid
// UTF-8, lone surrogates or NUL were rewritten to U+FFFD, which made two
// different users one. They are refused, on every export that takes ids.
func TestIDsRefuseWhatDecodingRewrites(t *testing.T) {
	bad := []struct{ raw, what string }{
		{"u\xff", "invalid UTF-8"},
		{`u\ud800`, "U+FFFD"},
		{`u\u0000`, "U+0000"},
		{"u\ufffd", "U+FFFD"},
	}
	for _, b := range bad {
		t.Run(b.what, func(t *testing.T) {
			e := New()
			if _, err := e.Call("load_catalog", tinyCatalog(t)); err != nil {
				t.Fatal(err)
			}
			callWant(t, e, "record", `{"signals":[{"user":"`+b.raw+`","item":"a","action":"like","time":1}]}`, "record: input.signals[0].user: ")
			callWant(t, e, "record", `{"signals":[{"user":"u","item":"`+b.raw+`","action":"like","time":1}]}`, "record: input.signals[0].item: ")
			callWant(t, e, "add_units", `{"units":[{"id":"`+b.raw+`","session":"s","text":"hi"}]}`, "add_units: input.units[0].id: ")
			callWant(t, e, "add_units", `{"units":[{"id":"x","session":"`+b.raw+`","text":"hi"}]}`, "add_units: input.units[0].session: ")
			callWant(t, e, "add_units", `{"units":[{"id":"x","session":"s","user":"`+b.raw+`","text":"hi"}]}`, "add_units: input.units[0].user: ")
			callWant(t, e, "purge", `{"user":"`+b.raw+`"}`, "purge: input.user: ")
			callWant(t, e, "delete_units", `{"ids":["`+b.raw+`"]}`, "delete_units: input.ids[0]: ")
			callWant(t, e, "rank", `{"candidates":[{"id":"`+b.raw+`","meta":{"title":"x"}}]}`, "rank: input.candidates[0]: item id: ")
		})
	}
	// Two users that differ only by invalid bytes stay apart: both refused.
	e := New()
	callWant(t, e, "record", `{"signals":[{"user":"ann","item":"a","action":"like","time":1}]}`, "")
}
