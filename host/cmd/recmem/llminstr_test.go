package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// mlSrc is MovieLens 100K as shared beside the repository.
const mlSrc = "../../../../shared/data/ml-100k"

// movieLensCatalog is the catalog `recmem train catalog` builds from
// MovieLens 100K with its defaults, built here (nothing derived from
// MovieLens is committed) or read from $RECMEM_TEST_ML_CATALOG; "" when the
// data is not there.
func movieLensCatalog(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("RECMEM_TEST_ML_CATALOG"); p != "" {
		return p
	}
	if _, err := os.Stat(mlSrc); err != nil {
		return ""
	}
	mlOnce.Do(func() { mlPath = buildMovieLensCatalog(t) })
	if mlPath == "" {
		t.Fatal("the MovieLens catalog could not be built (see the first test that built it)")
	}
	return mlPath
}

// mlOnce builds the MovieLens catalog once per test binary (about 40 s of
// CPU), into mlPath.
var (
	mlOnce sync.Once
	mlPath string
)

func buildMovieLensCatalog(t *testing.T) string {
	dir, err := os.MkdirTemp("", "recmem-test-ml")
	if err != nil {
		t.Fatal(err)
	}
	data, out := filepath.Join(dir, "data"), filepath.Join(dir, "ml.cat")
	var stdout, stderr bytes.Buffer
	if code := doMain([]string{"data", "movielens", "--src", mlSrc, "--out", data}, &stdout, &stderr); code != 0 {
		t.Errorf("data movielens: exit %d: %s", code, stderr.String())
		return ""
	}
	if code := doMain([]string{"train", "catalog", "--data", data, "--dataset", "ml-100k", "--out", out}, &stdout, &stderr); code != 0 {
		t.Errorf("train catalog: exit %d: %s", code, stderr.String())
		return ""
	}
	return out
}

// TestRecordedParse replays each model's recorded answers to the parse step
// (parse-games.jsonl: the page's demo catalog with testdata/instructions/
// games; parse-movielens.jsonl: MovieLens 100K with testdata/instructions/
// movielens; every case of both splits) through the .wasm module and
// natively: the two reports must be byte-identical and equal to the
// committed parse-<catalog>.want.json, every request must be in the
// recording and every line of it asked for, and p@10, over all cases and
// over those with words the LLM-free interpreter left unknown, must be at
// least the LLM-free figure less 0.01.
func TestRecordedParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(recordingDir, "*", "parse-*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no recording of the parse step under testdata/llm")
	}
	wasm := testModule(t)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		t.Run(filepath.Base(filepath.Dir(file))+"/"+name, func(t *testing.T) {
			var cat intentlab.Catalog
			var caseDir string
			var err error
			switch name {
			case "parse-games":
				cat, err = intentlab.ReadPageCatalog(findUp("web/catalog/games-demo.json"), "", "")
				caseDir = findUp("testdata/instructions/games")
			case "parse-movielens":
				p := movieLensCatalog(t)
				if p == "" {
					t.Skip("MovieLens 100K not present")
				}
				cat, err = intentlab.ReadCatalogFile(p, "", "")
				caseDir = findUp("testdata/instructions/movielens")
			default:
				t.Fatalf("%s: no catalog for this recording", file)
			}
			if err != nil {
				t.Fatal(err)
			}
			cases, err := intentlab.ReadCaseDir(caseDir)
			if err != nil {
				t.Fatal(err)
			}
			opts := intentlab.Options{Split: "all", History: intentlab.DefaultHistory}
			asked := &askedHashes{}
			var reports [2][]byte
			var rep *intentlab.Report
			for k, native := range []bool{false, true} {
				lf := llmFlags{spec: "replay:" + file, steps: "parse", stepsSet: true}
				set, err := lf.open()
				if err != nil {
					t.Fatal(err)
				}
				miss := &missCounter{next: askedCompleter{next: set.completer, asked: asked}}
				set.completer = miss
				x, done, err := openCallerLLM(context.Background(), native, wasm, set)
				if err != nil {
					t.Fatal(err)
				}
				rep, err = intentlab.Evaluate(x, cat, cases, opts)
				done()
				if err != nil {
					t.Fatal(err)
				}
				if n := miss.misses.Load(); n > 0 {
					t.Fatalf("%d requests missing from the recording (the prompt, the schema or the LLM-free parse changed since it was made)", n)
				}
				reports[k], _ = json.MarshalIndent(rep, "", "  ")
			}
			if !bytes.Equal(reports[0], reports[1]) {
				t.Fatalf("the .wasm module and native Go differ:\nwasm:   %s\nnative: %s", reports[0], reports[1])
			}
			free, err := intentlab.Evaluate(engine.New(), cat, cases, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []struct {
				what        string
				model, base float64
			}{{"all cases", rep.P10, free.P10}, {"cases with words left unknown", p10(rep.WithUnknown), p10(free.WithUnknown)}} {
				t.Logf("%s: p@10 %.4f with the parse step, %.4f LLM-free", s.what, s.model, s.base)
				if s.model < s.base-hrSlack {
					t.Errorf("%s: p@10 %.4f with the parse step, below the LLM-free %.4f − %.2f", s.what, s.model, s.base, hrSlack)
				}
			}
			checkWant(t, strings.TrimSuffix(file, ".jsonl")+".want.json", reports[0])
			checkRecordingUse(t, file, asked)
		})
	}
}

func p10(s *intentlab.Scores) float64 {
	if s == nil {
		return 0
	}
	return s.P10
}
