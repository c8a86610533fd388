package engine

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// ticker is a clock that advances one nanosecond at each read, so that a
// phase marked once reads 1 and one marked k times reads k.
func ticker() func() int64 {
	var t int64
	return func() int64 { t++; return t }
}

func TestPhases(t *testing.T) {
	units := []byte(`{"units":[{"id":"u1","session":"s1","speaker":"Ann","text":"The pottery class moved to Thursday."},` +
		`{"id":"u2","session":"s1","speaker":"Bob","text":"Which day was it before?"}]}`)
	query := []byte(`{"query":"When is Ann's pottery class?"}`)
	plain, timed := New(), New()
	timed.SetClock(ticker())
	for _, c := range []struct {
		export string
		input  []byte
		want   []string // the phases, in order
	}{
		{"add_units", units, []string{"decode", "validate", "unit", "tokenize", "words", "index", "refresh", "run", "encode"}},
		{"select_slate", query, []string{"decode", "analyse", "bm25", "dense", "lists", "sessions", "maxsim", "speaker",
			"expansion", "hop2", "hops", "pool", "features", "model", "fill", "explain", "run", "encode"}},
		{"record", []byte(`{"signals":[{"user":"u1","item":"a","action":"like","time":1700000000}]}`),
			[]string{"decode", "record", "summary", "run", "encode"}},
	} {
		a, err := plain.Call(c.export, c.input)
		if err != nil {
			t.Fatal(err)
		}
		b, err := timed.Call(c.export, c.input)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s answers differently when timed:\n%s\n%s", c.export, a, b)
		}
		raw, err := timed.Call("phases", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got PhasesOutput
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range got.Phases {
			names = append(names, p.Name)
			if p.Ns < 1 {
				t.Errorf("%s: phase %s took %d ticks", c.export, p.Name, p.Ns)
			}
		}
		if got.Export != c.export || !reflect.DeepEqual(names, c.want) {
			t.Errorf("phases of %s: got %s %v, want %v", c.export, got.Export, names, c.want)
		}
		// Without a clock the answer is empty, whatever ran before.
		if raw, _ := plain.Call("phases", nil); string(raw) != `{"export":"","phases":[]}` {
			t.Errorf("phases without a clock: %s", raw)
		}
	}
	// Two units: the per-unit phases add up over both (unit is marked
	// twice a unit, the others once).
	timed.Call("add_units", []byte(`{"units":[{"id":"u3","session":"s2","text":"One more."},{"id":"u4","session":"s2","text":"And another."}]}`))
	raw, _ := timed.Call("phases", nil)
	var got PhasesOutput
	json.Unmarshal(raw, &got)
	for _, p := range got.Phases {
		want := map[string]int64{"unit": 4, "tokenize": 2, "words": 2, "index": 2}[p.Name]
		if want == 0 {
			want = 1
		}
		if p.Ns != want {
			t.Errorf("two units: phase %s reads %d ticks, want %d", p.Name, p.Ns, want)
		}
	}
}
