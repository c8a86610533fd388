package engine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
)

// fuzzSetup gives the fuzzed engine some state to lose: three purchases, one
// extraction, one chunk edit.
var fuzzSetup = []struct{ export, input string }{
	{"record", `{"signals":[{"user":"u","item":"a","action":"purchase","meta":{"title":"Halo 5 - Xbox One","genre":["shooter"]},"time":10},{"user":"u","item":"b","action":"like","meta":{"title":"Forza 7 - Xbox One","genre":"racing"},"time":20},{"user":"u","item":"c","action":"rate","rating":1,"meta":{"title":"Ghost Recon - PC"},"time":30}],"maintain":"none"}`},
	{"maintain", `{"force":true}`},
}

// addSeeds adds every conformance input (and the extra seeds of
// testdata/fuzz/engine) to the corpus, as export index + input.
func addSeeds(f *testing.F, names []string) {
	index := map[string]byte{}
	for i, n := range names {
		index[n] = byte(i)
	}
	cases, err := conformance.Load(conformanceDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		if i, ok := index[c.Export]; ok {
			f.Add(i, []byte(c.Input))
		}
	}
	extra, _ := filepath.Glob("../../testdata/fuzz/engine/*.json")
	for _, p := range extra {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var seed struct {
			Export string          `json:"export"`
			Input  json.RawMessage `json:"input"`
			Raw    *string         `json:"raw"`
		}
		if err := json.Unmarshal(b, &seed); err != nil {
			f.Fatalf("%s: %v", p, err)
		}
		in := []byte(seed.Input)
		if seed.Raw != nil {
			in = []byte(*seed.Raw)
		}
		f.Add(index[seed.Export], in)
	}
}

// FuzzExports feeds arbitrary input to every export. An export must never
// panic; when it fails, the exported state must be byte-identical to before;
// when it succeeds, its output must be valid JSON.
func FuzzExports(f *testing.F) {
	names := engine.Names()
	addSeeds(f, names)
	f.Fuzz(func(t *testing.T, which byte, input []byte) {
		name := names[int(which)%len(names)]
		e := engine.New()
		for _, s := range fuzzSetup {
			if _, err := e.Call(s.export, []byte(s.input)); err != nil {
				t.Fatalf("setup %s: %v", s.export, err)
			}
		}
		before, err := e.Call("export_state", nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.Call(name, input)
		if err != nil {
			after, err2 := e.Call("export_state", nil)
			if err2 != nil {
				t.Fatal(err2)
			}
			if !bytes.Equal(before, after) {
				t.Fatalf("%s failed (%v) but changed the state", name, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%s returned invalid JSON: %q", name, out)
		}
		// Whatever succeeded must leave a state that exports and imports
		// back exactly.
		st, err := e.Call("export_state", nil)
		if err != nil {
			t.Fatal(err)
		}
		e2 := engine.New()
		if _, err := e2.Call("import_state", st); err != nil {
			t.Fatalf("after %s the state does not import: %v", name, err)
		}
		st2, _ := e2.Call("export_state", nil)
		if !bytes.Equal(st, st2) {
			t.Fatalf("after %s the state does not round-trip", name)
		}
	})
}
