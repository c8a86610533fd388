package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const toyDir = "../../../testdata/catalog/toy"

func TestTrainCatalogAndEvalRec(t *testing.T) {
	dir := toyDir
	cat := filepath.Join(t.TempDir(), "toy.cat")
	var out, errb bytes.Buffer
	if code := doMain([]string{"train", "catalog", "--data", dir, "--dataset", "Toy", "--out", cat, "--epochs", "20", "--seq-epochs", "10"}, &out, &errb); code != 0 {
		t.Fatalf("train catalog: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "wrote "+cat) || !strings.Contains(out.String(), "weight sequential") {
		t.Errorf("train catalog output: %s", out.String())
	}
	for _, mode := range []string{"retrospective", "evolving"} {
		out.Reset()
		errb.Reset()
		args := []string{"eval", "rec", "--data", dir, "--dataset", "Toy", "--catalog", cat, "--native", "--json", "--mode", mode, "--epochs", "20"}
		if code := doMain(args, &out, &errb); code != 0 {
			t.Fatalf("eval rec: exit %d: %s", code, errb.String())
		}
		var rep map[string]any
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("eval rec --json: %v: %s", err, out.String())
		}
		for _, k := range []string{"users", "hr@1", "hr@5", "ndcg@5", "ndcg@10", "mode", "llm_calls_per_user", "llm_tokens_per_user", "ops", "baselines"} {
			if _, ok := rep[k]; !ok {
				t.Errorf("missing key %q in %s", k, out.String())
			}
		}
		b := rep["baselines"].(map[string]any)
		for _, k := range []string{"random", "pop", "itemknn", "bpr"} {
			if _, ok := b[k].(map[string]any)["ndcg@10"]; !ok {
				t.Errorf("baseline %s missing", k)
			}
		}
		// The toy users walk through their group in order: the ranker should
		// find the next item far more often than chance.
		if rep["users"].(float64) != 40 || rep["mode"] != mode || rep["hr@1"].(float64) < 0.5 {
			t.Errorf("%s report: %s", mode, out.String())
		}
		if rep["llm_calls_per_user"].(float64) != 0 {
			t.Errorf("LLM calls in the LLM-free ranker")
		}
	}
	// The readable table.
	out.Reset()
	if code := doMain([]string{"eval", "rec", "--data", dir, "--dataset", "Toy", "--catalog", cat, "--native", "--users", "5", "--epochs", "5"}, &out, &errb); code != 0 {
		t.Fatalf("eval rec table: %s", errb.String())
	}
	if !strings.Contains(out.String(), "recmem") || !strings.Contains(out.String(), "ties broken against the target") {
		t.Errorf("table: %s", out.String())
	}
	if code := doMain([]string{"eval", "rec", "--data", dir, "--dataset", "Toy", "--mode", "sideways"}, &out, &errb); code != 2 {
		t.Errorf("bad --mode: exit %d", code)
	}
}
