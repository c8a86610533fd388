package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

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

// TestRecordedInstructions replays the held-out instruction cases through
// π_rank from SmolLM2's recorded answers and holds the report to the committed
// instructions.want.json, with every request found in the recording.
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
	cases, err := intentlab.ReadCaseDir(findUp("testdata/instructions"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := intentlab.Evaluate(x, cat, cases, intentlab.Options{Split: "heldout", History: intentlab.DefaultHistory, Progress: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	if n := miss.misses.Load(); n > 0 {
		t.Fatalf("%d requests missing from the recording (the prompts or the ranking changed since it was made)", n)
	}
	rep.Seconds = 0
	got, _ := json.MarshalIndent(rep, "", "  ")
	checkWant(t, filepath.Join(dir, "instructions.want.json"), got)
	checkRecordingUse(t, filepath.Join(dir, "instructions.jsonl"), asked)
}
