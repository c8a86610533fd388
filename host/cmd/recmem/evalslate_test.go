package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const smallLongMemEval = "../../../testdata/longmemeval/small.json"

func TestEvalSlateJSONContract(t *testing.T) {
	var out, errb bytes.Buffer
	if code := doMain([]string{"eval", "slate", "--data", smallLongMemEval, "--budget", "200", "--native", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	keys := []string{"baselines", "categories", "mean_tokens", "p50_select_ms", "questions", "questions_k2", "r_pool", "r_slate", "r_slate_k2", "r_slate_k3", "recall"}
	var got []string
	for k := range rep {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(keys, ",") {
		t.Fatalf("keys %v, want %v", got, keys)
	}
	var base map[string]map[string]float64
	if err := json.Unmarshal(rep["baselines"], &base); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"recency", "bm25", "dense", "rrf", "adaptive_k"} {
		m, ok := base[b]
		if !ok || m["questions"] != 2 || len(m) != len(keys)-2 {
			t.Errorf("baseline %s: %v", b, m)
		}
	}
	// One row per category, ranker and budget of the default --budgets
	// (1000, 2000): the file's two questions are one multi-session and one
	// single-session-user question.
	var cats []struct {
		Category  string  `json:"category"`
		Ranker    string  `json:"ranker"`
		Budget    int     `json:"budget"`
		Questions int     `json:"questions"`
		RSlate    float64 `json:"r_slate"`
	}
	if err := json.Unmarshal(rep["categories"], &cats); err != nil {
		t.Fatal(err)
	}
	if len(cats) != 2*6*2 {
		t.Fatalf("%d category rows, want 24: %s", len(cats), rep["categories"])
	}
	first := cats[0]
	if first.Category != "multi-session" || first.Ranker != "learned" || first.Budget != 1000 || first.Questions != 1 || first.RSlate != 1 {
		t.Errorf("first category row %+v", first)
	}
	var m struct {
		Questions int     `json:"questions"`
		RSlate    float64 `json:"r_slate"`
		Tokens    float64 `json:"mean_tokens"`
	}
	json.Unmarshal(out.Bytes(), &m)
	// Two tiny haystacks: each haystack fits in 200 tokens.
	if m.Questions != 2 || m.RSlate != 1 || m.Tokens > 200 {
		t.Fatalf("metrics %s", out.String())
	}
}

func TestEvalSlateTableAndModelFlag(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	var out, errb bytes.Buffer
	if code := doMain([]string{"train", "slate", "--data", smallLongMemEval, "--folds", "2", "--out", model}, &out, &errb); code != 0 {
		t.Fatalf("train exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "all features") {
		t.Fatalf("train output: %s", out.String())
	}
	if _, err := os.Stat(model); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := doMain([]string{"eval", "slate", "--data", smallLongMemEval, "--budget", "60", "--native", "--model", model}, &out, &errb); code != 0 {
		t.Fatalf("eval exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"learned", "adaptive_k", "r_slate_k2", model, "by category at B=1000", "by category at B=2000", "multi-session"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if code := doMain([]string{"eval", "slate", "--budget", "60"}, &out, &errb); code != 2 {
		t.Errorf("missing --data: exit %d", code)
	}
}
