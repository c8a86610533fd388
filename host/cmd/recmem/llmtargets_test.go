package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/llm"
)

// The targets of docs/llm.md ("A model can only help"), checked on the
// committed results of every recording (TestRecordedModel pins each
// <run>.want.json to what its replay computes, on the .wasm module and
// natively):
const (
	// hrSlack is how far below the LLM-free HR@1 on the same users a run
	// with a model may end.
	hrSlack = 0.01
	// marsCalls and marsTokens bound the MARS configuration per user
	// (the paper: 3 calls, 3,870 tokens).
	marsCalls  = 3
	marsTokens = 3000
)

// TestRecordedTargets holds every recording to the targets:
//   - the MARS configuration (extract, synthesize, rank) has HR@1 ≥ the
//     LLM-free HR@1 − 0.01 on the same users, with at most 3 calls and 3,000
//     tokens per user;
//   - no memory holds a placeholder copy or a chunk a model made that its
//     events do not support, over every run;
//   - every step the model's settings turn on by default (llm.ForModel) keeps
//     HR@1 within 0.01 of the LLM-free figure, and a memory step on by
//     default keeps the memory's grounded share and profile faithfulness at
//     least as high as the LLM-free policies'.
func TestRecordedTargets(t *testing.T) {
	manifests, _ := filepath.Glob(filepath.Join(recordingDir, "*", "runs.json"))
	if len(manifests) == 0 {
		t.Fatal("no recordings of a model under testdata/llm")
	}
	for _, m := range manifests {
		dir := filepath.Dir(m)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var runs []recordedRun
			b, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &runs); err != nil {
				t.Fatal(err)
			}
			want := map[string]replayResult{}
			for _, r := range runs {
				b, err := os.ReadFile(filepath.Join(dir, r.Name+".want.json"))
				if err != nil {
					t.Fatal(err)
				}
				var res replayResult
				if err := json.Unmarshal(b, &res); err != nil {
					t.Fatalf("%s: %v", r.Name, err)
				}
				want[r.Name] = res
			}
			settings := modelSettings(t, dir, runs)
			mars := false
			for _, r := range runs {
				got := want[r.Name]
				q := got.Quality
				if q.Placeholders > 0 || q.ModelPlaceholders > 0 || q.ModelUngrounded > 0 {
					t.Errorf("%s: %d placeholder copies, %d made by the model, %d unsupported chunks made by the model: want none",
						r.Name, q.Placeholders, q.ModelPlaceholders, q.ModelUngrounded)
				}
				if r.File == "" {
					continue
				}
				base, ok := want[r.Compare]
				if !ok {
					t.Fatalf("%s: compare %q is not a run of runs.json", r.Name, r.Compare)
				}
				if slices.Equal(r.Steps, []string{"extract", "synthesize", "rank"}) && r.Mode == "retrospective" && r.Scheduler == "fixed" {
					mars = true
					if got.HR1 < base.HR1-hrSlack {
						t.Errorf("%s: HR@1 %.4f, below the LLM-free %.4f − %.2f on the same %d users", r.Name, got.HR1, base.HR1, hrSlack, r.Users)
					}
					calls, tokens := 0.0, 0.0
					for _, raw := range got.LLM {
						var u hostllm.PerUser
						if err := json.Unmarshal(raw, &u); err != nil {
							t.Fatal(err)
						}
						calls += u.Calls
						tokens += u.InputTokens + u.OutputTokens
					}
					if calls > marsCalls || tokens > marsTokens {
						t.Errorf("%s: %.2f calls and %.0f tokens per user, want at most %d and %d", r.Name, calls, tokens, marsCalls, marsTokens)
					}
				}
				if len(r.Steps) != 1 || !slices.Contains(settings.Steps, r.Steps[0]) {
					continue
				}
				// A step on by default for this model.
				if got.HR1 < base.HR1-hrSlack {
					t.Errorf("%s is on by default, yet HR@1 %.4f is below the LLM-free %.4f − %.2f", r.Name, got.HR1, base.HR1, hrSlack)
				}
				if s := r.Steps[0]; (s == llm.PurposeExtract || s == llm.PurposeSynthesize) &&
					(q.GroundedShare < base.Quality.GroundedShare || q.Faithfulness < base.Quality.Faithfulness) {
					t.Errorf("%s is on by default, yet its memory is worse than the LLM-free one: grounded %.4f against %.4f, faithfulness %.4f against %.4f",
						r.Name, q.GroundedShare, base.Quality.GroundedShare, q.Faithfulness, base.Quality.Faithfulness)
				}
			}
			if !mars {
				t.Error("no run of the MARS configuration (extract, synthesize, rank; retrospective, fixed scheduler)")
			}
		})
	}
}

// modelSettings are the settings llm.ForModel gives the model of a
// recordings directory, named by its recordings' source (every file must
// name the same model).
func modelSettings(t *testing.T, dir string, runs []recordedRun) llm.Settings {
	t.Helper()
	var settings llm.Settings
	for _, r := range runs {
		if r.File == "" {
			continue
		}
		rp, err := hostllm.LoadReplayer(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		s := llm.ForModel(rp.Source())
		if s.Model == "" {
			t.Fatalf("%s: the source %q names no measured model (llm.ForModel)", r.File, rp.Source())
		}
		if settings.Model != "" && s.Model != settings.Model {
			t.Fatalf("%s names %s, another file %s", r.File, s.Model, settings.Model)
		}
		settings = s
	}
	if !strings.Contains(settings.Measured, filepath.Base(dir)) {
		t.Errorf("the settings of %s say they were measured in %q, not in %s", settings.Model, settings.Measured, filepath.Base(dir))
	}
	return settings
}
