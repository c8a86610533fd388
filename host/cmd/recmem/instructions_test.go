package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
		{[]string{"--candidates", "0", "--data", "none"}, 1, "--candidates: want at least 1, got 0"},
		{[]string{"--seed", "0", "--data", "none"}, 1, "--seed: want a seed above 0"},
		{[]string{"--catalog", findUp("testdata/catalog/tiny.json"), "--ranker", "x.json", "--data", "none"}, 1, "--ranker is only for the page's demo catalog"},
	} {
		var out, errb bytes.Buffer
		code := doMain(append([]string{"eval", "instructions"}, tt.args...), &out, &errb)
		if code != tt.code || !strings.Contains(errb.String(), tt.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", tt.args, code, errb.String(), out.String(), tt.code, tt.want)
		}
	}
}

// TestEvalInstructionsAsset runs the command on a JSON catalog asset (the
// tiny fixture: titles and a category) with a case file of each split: the
// candidates are drawn from the catalog, every kind carries its dev and
// held-out figures, and no target-aware check runs.
func TestEvalInstructionsAsset(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"dev.jsonl":     `{"id":"a","kind":"negation","instruction":"no shooters","gold":{"not":{"category":"Action Shooter"}}}` + "\n",
		"heldout.jsonl": `{"id":"b","kind":"negation","instruction":"nothing with puzzles","gold":{"not":{"title":"puzzle"}}}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	args := []string{"eval", "instructions", "--catalog", findUp("testdata/catalog/tiny.json"), "--cases", dir, "--candidates", "4", "--json"}
	if code := doMain(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep intentlab.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	neg := rep.ByKind["negation"]
	if rep.Cases != 2 || rep.Candidates != 4 || neg.Dev == nil || neg.HeldOut == nil || rep.TargetAware != nil || !strings.Contains(rep.Pool, "drawn per case") {
		t.Errorf("report: %s", out.String())
	}
	if !strings.Contains(errb.String(), "no target-aware check") {
		t.Errorf("stderr: %q", errb.String())
	}
	// --split dev never reads heldout.jsonl: a broken one does not matter.
	if err := os.WriteFile(filepath.Join(dir, "heldout.jsonl"), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := doMain(append(args, "--split", "dev"), &out, &errb); code != 0 {
		t.Fatalf("dev split: exit %d: %s", code, errb.String())
	}
}
