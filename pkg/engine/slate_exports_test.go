package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const slateUnits = `{"units":[
 {"id":"D1:1","session":"S1","date":"8 May 2023","time":"2023-05-08","speaker":"Ann","text":"I signed up for a pottery class on Tuesdays."},
 {"id":"D1:2","session":"S1","date":"8 May 2023","time":"2023-05-08","speaker":"Bob","text":"That sounds like a lovely way to unwind!"},
 {"id":"D2:1","session":"S2","date":"20 May 2023","time":"2023-05-20","speaker":"Bob","text":"Any pasta recipe for four people?","user":"bob"},
 {"id":"D3:1","session":"S3","date":"1 June 2023","time":"2023-06-01","speaker":"Ann","text":"My pottery class moved to Thursdays."}]}`

func mustCall(t *testing.T, e *Engine, name, in string) []byte {
	t.Helper()
	out, err := e.Call(name, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func TestSlateExports(t *testing.T) {
	e := New()
	if got := string(mustCall(t, e, "add_units", slateUnits)); got != `{"added":4,"units":4,"sessions":3}` {
		t.Fatalf("add_units = %s", got)
	}
	before := mustCall(t, e, "export_state", "")
	// Errors leave the state untouched.
	for _, c := range []struct{ name, in, msg string }{
		{"add_units", `{"units":[{"id":"X","session":"S9","text":"ok"},{"id":"D1:1","session":"S1","text":"dup"}]}`, `add_units: input.units[1].id: duplicate "D1:1"`},
		{"add_units", `{"units":[{"id":"Y","session":"S9","text":"ok","time":"May 8"}]}`, `add_units: input.units[0].time: want RFC 3339 or YYYY-MM-DD, got "May 8"`},
		{"delete_units", `{"ids":["D1:1","nope"]}`, `delete_units: input.ids[1]: unknown unit "nope"`},
		{"purge", `{}`, `purge: input: give session, user or both`},
		{"select_slate", `{"query":" "}`, `select_slate: input.query: missing`},
		{"select_slate", `{"query":"pottery","ranker":"magic"}`, `select_slate: input.ranker: want one of learned, recency, bm25, dense, rrf, adaptive_k, got "magic"`},
	} {
		_, err := e.Call(c.name, []byte(c.in))
		if err == nil || err.Error() != c.msg {
			t.Errorf("%s %s: error %v, want %s", c.name, c.in, err, c.msg)
		}
	}
	if after := mustCall(t, e, "export_state", ""); !bytes.Equal(before, after) {
		t.Fatalf("failed calls changed the state")
	}
	// Round trip is byte-identical.
	e2 := New()
	mustCall(t, e2, "import_state", string(before))
	if again := mustCall(t, e2, "export_state", ""); !bytes.Equal(before, again) {
		t.Fatalf("round trip differs:\n%s\n%s", before, again)
	}
	// Select: both pottery turns, chronological, within budget, explained.
	var res struct {
		Tokens int `json:"tokens"`
		Units  []struct {
			ID       string             `json:"id"`
			Line     string             `json:"line"`
			Reason   string             `json:"reason"`
			Features map[string]float64 `json:"features"`
		} `json:"units"`
	}
	out := mustCall(t, e2, "select_slate", `{"query":"Which day is Ann's pottery class now?","date":"2023-06-20","budget":30}`)
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Tokens > 30 || len(res.Units) < 2 || res.Units[0].ID != "D1:1" || res.Units[len(res.Units)-1].ID != "D3:1" {
		t.Fatalf("slate %s", out)
	}
	if res.Units[0].Line != "[8 May 2023] Ann: I signed up for a pottery class on Tuesdays." || len(res.Units[0].Features) < 10 {
		t.Fatalf("unit %+v", res.Units[0])
	}
	// The native engine and a state restored from JSON select the same slate.
	if out1 := mustCall(t, e, "select_slate", `{"query":"Which day is Ann's pottery class now?","date":"2023-06-20","budget":30}`); !bytes.Equal(out, out1) {
		t.Fatalf("restored state selects differently:\n%s\n%s", out, out1)
	}
	// Purge a user and a session, delete a unit: no trace left.
	if got := string(mustCall(t, e2, "purge", `{"user":"bob"}`)); got != `{"purged":1,"units":3,"sessions":2}` {
		t.Fatalf("purge user = %s", got)
	}
	if got := string(mustCall(t, e2, "purge", `{"session":"S3"}`)); got != `{"purged":1,"units":2,"sessions":1}` {
		t.Fatalf("purge session = %s", got)
	}
	if got := string(mustCall(t, e2, "delete_units", `{"ids":["D1:2"]}`)); got != `{"deleted":1,"units":1,"sessions":1}` {
		t.Fatalf("delete = %s", got)
	}
	st := string(mustCall(t, e2, "export_state", ""))
	if strings.Contains(st, "Thursdays") || strings.Contains(st, "pasta") || !strings.Contains(st, "Tuesdays") {
		t.Fatalf("state after purge: %s", st)
	}
	// A fresh engine fed only the remaining unit selects identically.
	e3 := New()
	mustCall(t, e3, "add_units", `{"units":[{"id":"D1:1","session":"S1","date":"8 May 2023","time":"2023-05-08","speaker":"Ann","text":"I signed up for a pottery class on Tuesdays."}]}`)
	q := `{"query":"pottery class Thursdays pasta","budget":100}`
	if a, b := mustCall(t, e2, "select_slate", q), mustCall(t, e3, "select_slate", q); !bytes.Equal(a, b) {
		t.Fatalf("purged index leaves a trace:\n%s\n%s", a, b)
	}
}
