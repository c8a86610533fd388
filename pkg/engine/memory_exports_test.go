package engine

import (
	"bytes"
	"testing"
)

func call(t *testing.T, e *Engine, name, input string) []byte {
	t.Helper()
	out, err := e.Call(name, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// TestStateRoundTrip evolves a memory through every memory export, then checks
// that export_state → import_state → export_state gives the same bytes.
func TestStateRoundTrip(t *testing.T) {
	e := New()
	call(t, e, "reset", `{"config":{"k_cat":3,"gamma":3}}`)
	call(t, e, "record", `{"signals":[
		{"user":"u","item":"1","action":"purchase","meta":{"title":"Super Mario Odyssey - Nintendo Switch","genre":["Platformer","Action"]},"time":100},
		{"user":"u","item":"2","action":"like","meta":{"title":"Super Mario Galaxy - Nintendo Wii","genre":"Platformer"},"time":200},
		{"user":"u","item":"3","action":"rate","rating":2,"meta":{"title":"Resident Evil 4 - GameCube","genre":"Horror"},"time":300},
		{"user":"u","item":"4","action":"skip","meta":{"title":"Silent Hill 2 - PlayStation 2","genre":"Horror"},"time":400},
		{"user":"u","item":"5","action":"view","meta":{"title":"Tetris"},"time":500}]}`)
	call(t, e, "apply_ops", `{"now":600,"ops":[{"op":"edit","chunk":"c1","text":"Loves platformers"},{"op":"boost","chunk":"c1"}]}`)
	call(t, e, "record", `{"signals":[{"user":"u","item":"6","action":"dislike","meta":{"genre":"Platformer"},"time":700}],"maintain":"planner"}`)
	call(t, e, "maintain", `{"now":90000000,"scheduler":"planner"}`)
	first := call(t, e, "export_state", "")

	f := New()
	call(t, f, "import_state", string(first))
	if second := call(t, f, "export_state", ""); !bytes.Equal(first, second) {
		t.Fatalf("round trip differs\nfirst  %s\nsecond %s", first, second)
	}
	if !bytes.Contains(first, []byte(`"version":`)) || bytes.Contains(first, []byte(`"chunks":[]`)) {
		t.Errorf("the scenario left no chunks: %s", first)
	}
}

func TestMemoryExportErrors(t *testing.T) {
	good := `{"user":"u","item":"i","action":"like","time":1}`
	cases := []struct {
		export, input, want string
	}{
		{"record", `{"signals":[` + good + `,` + good + `,` + good + `,{"user":"u","item":"i","action":"zap","time":1}]}`,
			`record: input.signals[3].action: unknown action "zap"`},
		{"record", `{"signals":[` + good + `,{"user":"u","item":"i","action":"like","time":"noon"}]}`,
			"record: input.signals[1].time: expected an integer in range, got JSON string"},
		{"record", `{"signals":[{"user":"u","item":"i","action":"like","time":1,"mood":"x"}]}`,
			`record: input.signals[0]: unknown field "mood"`},
		{"record", `{"signals":[{"user":"u","item":"i","action":"like"}]}`, "record: input.signals[0].time: required"},
		{"record", `{"signals":[{"user":"u","item":"i","action":"like","time":1,"meta":{"genre":[1]}}]}`,
			"record: input.signals[0].meta.genre: must be a string or an array of strings"},
		{"record", `{"signals":[]}`, "record: input.signals: at least one signal is required"},
		{"record", `{"signals":[` + good + `],"maintain":"always"}`, `record: input.maintain: unknown value "always" (want none, fixed or planner)`},
		{"apply_ops", `{"ops":[{"op":"synthesize"},{"op":"synthesize"},{"op":"boost","chunk":"c99"}]}`, `apply_ops: input.ops[2].chunk: unknown chunk "c99"`},
		{"apply_ops", `{"ops":[{"op":"boost","chunk":"c1","strength":"high"}]}`, "apply_ops: input.ops[0].strength: expected a number, got JSON string"},
		{"apply_ops", `{"ops":[{"op":"synthesize"}],"trigger":"auto"}`, `apply_ops: input.trigger: unknown trigger "auto" (want user, planner or llm)`},
		{"apply_ops", `{"ops":[{"op":"synthesize"}],"now":-5}`, "apply_ops: input.now: must not be negative, got -5"},
		{"maintain", `{"scheduler":"cron"}`, `maintain: input.scheduler: unknown scheduler "cron" (want fixed or planner)`},
		{"plan", `{"now":1,"force":"yes"}`, "plan: input.force: expected true or false, got JSON string"},
		{"get_memory", `{"journal_limit":-1}`, "get_memory: input.journal_limit: must not be negative, got -1"},
		// Malformed JSON cannot be written as a conformance case input.
		{"record", `{"signals":[`, "record: input: truncated JSON (12 bytes)"},
		{"apply_ops", `{"ops":[{"op":"synthesize"}]} {}`, "apply_ops: input: unexpected data after the JSON value"},
		{"maintain", `{"now":}`, "maintain: input: malformed JSON at byte 8: invalid character '}' looking for beginning of value"},
	}
	for _, c := range cases {
		e := New()
		before := call(t, e, "export_state", "")
		_, err := e.Call(c.export, []byte(c.input))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %s\n got %v\nwant %s", c.export, c.input, err, c.want)
		}
		if after := call(t, e, "export_state", ""); !bytes.Equal(before, after) {
			t.Errorf("%s: a failed call changed the state", c.export)
		}
	}
}
