package engine_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
)

var update = flag.Bool("update", false, "rewrite want and want_state of testdata/conformance from native outputs")

const (
	testdataDir    = "../../testdata"
	conformanceDir = testdataDir + "/conformance"
	hostileDir     = testdataDir + "/hostile"
)

// TestConformance runs every conformance and hostile-input case natively.
// The Go host and Node run the same files against the .wasm and must produce
// the same bytes.
func TestConformance(t *testing.T) {
	cases, err := conformance.LoadAll(conformanceDir, hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]conformance.Result{}
	for _, c := range cases {
		t.Run(c.ID(), func(t *testing.T) {
			e := engine.New()
			if c.LLM != nil {
				if err := e.SetLLM(c.LLM, c.LLM.Steps); err != nil {
					t.Fatal(err)
				}
			}
			r, err := conformance.Run(c, e)
			if err != nil {
				t.Fatal(err)
			}
			results[c.ID()] = r
			if *update {
				return
			}
			if err := conformance.Check(c, r); err != nil {
				t.Fatal(err)
			}
		})
	}
	if *update {
		rewrite(t, cases, results)
	}
	t.Logf("%d conformance and hostile cases", len(cases))
}

// rewrite stores native outputs as the expectations. Use it only after reading
// the diff: the expectations are the contract every host is held to.
func rewrite(t *testing.T, cases []conformance.Case, results map[string]conformance.Result) {
	byFile := map[string][]conformance.Case{}
	var order []string
	for _, c := range cases {
		if _, ok := byFile[c.File]; !ok {
			order = append(order, c.File)
		}
		r := results[c.ID()]
		if r.Err != "" {
			w, _ := json.Marshal(map[string]string{"error": r.Err})
			c.Want = w
		} else {
			c.Want = r.Output
		}
		if len(c.WantState) > 0 {
			c.WantState = r.State
		}
		byFile[c.File] = append(byFile[c.File], c)
	}
	for _, f := range order {
		cs := byFile[f]
		var v any = cs
		if len(cs) == 1 {
			orig, _ := os.ReadFile(filepath.Join(testdataDir, f))
			if t := bytes.TrimSpace(orig); len(t) > 0 && t[0] != '[' {
				v = cs[0]
			}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(testdataDir, f), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
