package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/recmem/recmem/pkg/engine"
	contract "github.com/recmem/recmem/pkg/llm"

	"github.com/recmem/recmem/pkg/intentlab"
)

// missCounter counts the requests a replay does not hold.
type missCounter struct {
	next   contract.Completer
	misses atomic.Int32
}

func (m *missCounter) Complete(ctx context.Context, r contract.Request) (contract.Response, error) {
	resp, err := m.next.Complete(ctx, r)
	if strings.Contains(resp.Error, "not in the recording") {
		m.misses.Add(1)
	}
	return resp, err
}

// TestRecordedInstructions replays the held-out "knowledge" instruction cases
// (testdata/instructions/knowledge.jsonl: "no shooters", "racing games",
// where a model's knowledge could help) through π_rank from SmolLM2's
// recorded answers, with the model's rank weight, and holds the report to the
// committed instructions.want.json, with every request found in the
// recording; p@10 must be at least the LLM-free figure on the same cases,
// less 0.01.
func TestRecordedInstructions(t *testing.T) {
	dir := filepath.Join(recordingDir, "smollm2-135m-instruct-q4_1")
	lf := llmFlags{spec: "replay:" + filepath.Join(dir, "instructions.jsonl"), steps: "rank", stepsSet: true}
	set, err := lf.open()
	if err != nil {
		t.Fatal(err)
	}
	asked := &askedHashes{}
	miss := &missCounter{next: askedCompleter{next: set.completer, asked: asked}}
	set.completer = miss
	x, err := set.nativeEngine()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := intentlab.ReadPageCatalog(findUp("web/catalog/games-demo.json"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	all, err := intentlab.ReadCaseDir(findUp("testdata/instructions"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []intentlab.Case
	for _, c := range all {
		if c.Kind == "knowledge" {
			cases = append(cases, c)
		}
	}
	opts := intentlab.Options{Split: "heldout", History: intentlab.DefaultHistory, Progress: func(string) {}}
	rep, err := intentlab.Evaluate(x, cat, cases, opts)
	if err != nil {
		t.Fatal(err)
	}
	free, err := intentlab.Evaluate(engine.New(), cat, cases, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out knowledge cases: %d lists, p@10 %.4f with the model's ranking (weight %g), %.4f LLM-free", rep.Lists, rep.P10, set.settings.RankWeight, free.P10)
	if rep.P10 < free.P10-hrSlack {
		t.Errorf("p@10 %.4f with the model's ranking, below the LLM-free %.4f − %.2f", rep.P10, free.P10, hrSlack)
	}
	if n := miss.misses.Load(); n > 0 {
		t.Fatalf("%d requests missing from the recording (the prompts or the ranking changed since it was made)", n)
	}
	rep.Seconds = 0
	got, _ := json.MarshalIndent(rep, "", "  ")
	checkWant(t, filepath.Join(dir, "instructions.want.json"), got)
	checkRecordingUse(t, filepath.Join(dir, "instructions.jsonl"), asked)
}
