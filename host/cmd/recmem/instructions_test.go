package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/intentlab"
)

// TestEvalInstructions runs the command on the development cases (no
// target-aware check: it needs Games-6k) and holds every kind above its
// baseline: the instruction must make lists obey it more than without it.
func TestEvalInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("ranks 378 lists")
	}
	var out, errb bytes.Buffer
	if code := doMain([]string{"eval", "instructions", "--split", "dev", "--data", "none", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"cases", "p10", "perfect", "baseline_p10", "relaxed", "unknown_rate", "by_kind", "hr@1_instructed", "hr@1_plain"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("no %q in the output", k)
		}
	}
	var kinds map[string]intentlab.Scores
	if err := json.Unmarshal(rep["by_kind"], &kinds); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"negation", "only", "positive", "combined", "knowledge"} {
		s, ok := kinds[k]
		if !ok || s.Cases == 0 {
			t.Fatalf("by_kind.%s: no cases", k)
		}
		if s.P10 <= s.BaselineP10 {
			t.Errorf("by_kind.%s: p10 %.4f is not above its baseline %.4f", k, s.P10, s.BaselineP10)
		}
	}
	if !strings.Contains(errb.String(), "cases") {
		t.Errorf("no progress on stderr: %q", errb.String())
	}
}

func TestEvalInstructionsFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--split", "test"}, 2, "usage"},
		{[]string{"extra"}, 2, "usage"},
		{[]string{"--history", "0", "--data", "none"}, 1, "--history: want at least 1 item, got 0"},
		{[]string{"--catalog", "/nonexistent/games-demo.json", "--data", "none"}, 1, "/nonexistent/games-demo.json"},
		{[]string{"--cases", t.TempDir(), "--data", "none"}, 1, "no *.jsonl cases in"},
	} {
		var out, errb bytes.Buffer
		code := doMain(append([]string{"eval", "instructions"}, tt.args...), &out, &errb)
		if code != tt.code || !strings.Contains(errb.String(), tt.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", tt.args, code, errb.String(), out.String(), tt.code, tt.want)
		}
	}
}
