package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/rec"
)

var updateRecorded = flag.Bool("update-recorded", false, "rewrite testdata/llm/*/*.want.json from the replays of the recordings")

const (
	gamesDir     = "../../../../shared/data/games-6k"
	recordingDir = "../../../testdata/llm"
)

// recordedRun is one line of a recordings directory's runs.json: the eval rec
// configuration a recording was made with (no file: the same configuration
// LLM-free, the baseline of the comparison).
type recordedRun struct {
	Name      string   `json:"name"`
	File      string   `json:"file"`
	Mode      string   `json:"mode"`
	Scheduler string   `json:"scheduler"`
	Steps     []string `json:"steps"`
	Skip      int      `json:"skip,omitempty"` // the users start after the first Skip (a tuning split)
	Users     int      `json:"users"`
	// Compare names the LLM-free run on the same users that the targets
	// hold this run to (TestRecordedTargets).
	Compare string `json:"compare,omitempty"`
	Command string `json:"command,omitempty"`
}

// users returns the run's cases.
func (r recordedRun) users(all []rec.Case) []rec.Case {
	return all[r.Skip : r.Skip+r.Users]
}

// replayResult is what a replay must reproduce, on every host, byte for byte.
type replayResult struct {
	HR1      float64                     `json:"hr@1"`
	HR5      float64                     `json:"hr@5"`
	NDCG5    float64                     `json:"ndcg@5"`
	NDCG10   float64                     `json:"ndcg@10"`
	Ops      map[string]int              `json:"ops"`
	LLM      map[string]json.RawMessage  `json:"llm_per_user"`
	Outcomes map[string]rec.StepOutcomes `json:"llm_outcomes"`
	Quality  llm.QualityReport           `json:"memory_quality"`
}

// TestRecordedModel replays every recording of a real model under
// testdata/llm/<model>/ (runs.json says how each was made) through the .wasm
// module and natively, and demands the same results from both, equal to the
// committed <name>.want.json, with every request found in the recording: no
// model answer, valid or not, may change what a replay computes.
func TestRecordedModel(t *testing.T) {
	if _, err := os.Stat(gamesDir); err != nil {
		t.Skip("Games-6k not present")
	}
	manifests, _ := filepath.Glob(filepath.Join(recordingDir, "*", "runs.json"))
	if len(manifests) == 0 {
		t.Fatal("no recordings of a model under testdata/llm")
	}
	d, err := dataset.LoadRecBole(gamesDir, "Games-6k")
	if err != nil {
		t.Fatal(err)
	}
	catalog := recordedCatalog(t, d)
	all, _ := rec.Cases(d.Test, d.Random, 0)
	wasm := testModule(t)
	for _, m := range manifests {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var runs []recordedRun
		if err := json.Unmarshal(b, &runs); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		dir := filepath.Dir(m)
		asked := map[string]*askedHashes{} // by recording file
		unrun := map[string]int{}          // replays of a file not run yet (-run)
		for _, r := range runs {
			if r.File != "" && asked[r.File] == nil {
				asked[r.File] = &askedHashes{}
			}
			unrun[r.File]++
		}
		for _, r := range runs {
			t.Run(filepath.Base(dir)+"/"+r.Name, func(t *testing.T) {
				unrun[r.File]--
				replay := rec.Replay{Data: d, Mode: r.Mode, Scheduler: r.Scheduler, EventCap: rec.DefaultEventCap}
				wasmOut := replayRecorded(t, replay, r.users(all), catalog, r, dir, wasm, false, asked[r.File])
				nativeOut := replayRecorded(t, replay, r.users(all), catalog, r, dir, wasm, true, asked[r.File])
				if !bytes.Equal(wasmOut, nativeOut) {
					t.Fatalf("the .wasm module and native Go differ:\nwasm:   %s\nnative: %s", wasmOut, nativeOut)
				}
				checkWant(t, filepath.Join(dir, r.Name+".want.json"), wasmOut)
			})
		}
		if !t.Failed() {
			for file, a := range asked {
				if unrun[file] == 0 { // every replay of the file ran
					checkRecordingUse(t, filepath.Join(dir, file), a)
				}
			}
		}
	}
}

// checkRecordingUse fails when a recording holds a line no replay of it asked
// for (so that recmem llm stats over it describes the runs reported), after
// dropping such lines with -prune-recorded. It needs every replay of the
// file to have run.
func checkRecordingUse(t *testing.T, path string, asked *askedHashes) {
	t.Helper()
	if *pruneRecorded {
		u, err := pruneRecording(path, asked)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d lines, dropped %d no replay asked for and %d a later line overrides", path, u.Lines, u.Unasked, u.Overridden)
	}
	u, err := useOf(path, asked)
	if err != nil {
		t.Fatal(err)
	}
	if u.unused() > 0 {
		t.Errorf("%s holds %d lines no replay asks for and %d a later line of the same hash overrides; drop them with -prune-recorded", path, u.Unasked, u.Overridden)
	}
}

// recordedCatalog is the catalog the recordings were made against, the one
// `recmem train catalog` builds with its defaults: trained here (about 80 s
// of CPU), or read from $RECMEM_TEST_CATALOG when a local run already has it.
func recordedCatalog(t *testing.T, d *dataset.RecBole) []byte {
	if p := os.Getenv("RECMEM_TEST_CATALOG"); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var tf trainFlags
	tf.register(flag.NewFlagSet("x", flag.ContinueOnError))
	tr, err := rec.TrainCatalog(d, tf.config(func(string) {}))
	if err != nil {
		t.Fatal(err)
	}
	return tr.Catalog
}

// replayRecorded replays run r of a recordings directory on cases, through
// the .wasm or natively, and returns its result, failing the test for any
// request missing from the recording; the hashes it asks for go into asked.
func replayRecorded(t *testing.T, replay rec.Replay, cases []rec.Case, catalog []byte, r recordedRun, dir, wasm string, native bool, asked *askedHashes) []byte {
	lf := llmFlags{} // no file: the LLM-free run on the same users
	if r.File != "" {
		lf = llmFlags{spec: "replay:" + filepath.Join(dir, r.File), steps: strings.Join(r.Steps, ","), stepsSet: true}
	}
	set, err := lf.open()
	if err != nil {
		t.Fatal(err)
	}
	if set.completer != nil {
		set.completer = askedCompleter{next: set.completer, asked: asked}
	}
	open := func() (engine.Caller, func(), error) {
		return openCallerLLM(context.Background(), native, wasm, set)
	}
	run, err := replay.Run(cases, nil, catalog, open, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := run.Scores()
	res := replayResult{HR1: s.HR1, HR5: s.HR5, NDCG5: s.NDCG5, NDCG10: s.NDCG10, Ops: run.Ops, LLM: map[string]json.RawMessage{}, Outcomes: run.LLM.Report(), Quality: run.Quality.Report()}
	if set.meter != nil {
		for step, u := range set.meter.PerUser(len(cases)) {
			res.LLM[step], _ = json.Marshal(u)
		}
	}
	for step, o := range res.Outcomes {
		for why := range o.Fallback {
			if strings.Contains(why, "not in the recording") {
				t.Errorf("%s: a request is missing from the recording (the prompts or the state changed since it was made): %s", step, why)
			}
		}
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	return b
}

// checkWant compares got with the file want, after rewriting it with
// -update-recorded.
func checkWant(t *testing.T, want string, got []byte) {
	if *updateRecorded {
		if err := os.WriteFile(want, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(w), got) {
		t.Fatalf("replay differs from %s:\n%s", want, got)
	}
}
