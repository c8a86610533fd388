package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/slatelab"
)

func init() {
	commands["eval slate"] = command{
		summary: "slate completeness on LoCoMo or LongMemEval: recmem eval slate --data FILE --budget B [--pool N] [--native] [--json] [--model FILE] [--cv]",
		run:     runEvalSlate,
	}
}

// slateReport is the JSON printed by `eval slate --json` (a contract).
type slateReport struct {
	slatelab.Metrics
	Baselines map[string]slatelab.Metrics `json:"baselines"`
}

// runEvalSlate is `recmem eval slate`: the learned ranker and every
// baseline select a slate for each eligible question, through the plugin (or
// natively), and their slate completeness is reported.
func runEvalSlate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval slate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "LoCoMo or LongMemEval JSON `FILE` (required)")
	budget := fs.Int("budget", slate.DefaultBudget, "token budget `B` of a slate (tokens = ceil(chars/4) of \"[date] speaker: text\")")
	pool := fs.Int("pool", slate.DefaultPool, "candidate pool size `N`")
	native := fs.Bool("native", false, "call pkg/ natively instead of the .wasm plugin")
	asJSON := fs.Bool("json", false, "print one JSON object")
	modelFile := fs.String("model", "", "use the ranker model in `FILE` instead of the embedded one")
	cv := fs.Bool("cv", false, "cross-validate: each conversation is ranked by a model trained natively on the other folds")
	folds := fs.Int("folds", 8, "number of conversation folds for --cv (conversation i is in fold i mod folds)")
	kind := fs.String("kind", "ensemble", "model `KIND` trained for --cv: ensemble, linear or gbdt")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	limit := fs.Int("convs", 0, "evaluate only the first `N` conversations (0: all; --cv still trains on all)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem eval slate --data FILE --budget B [--pool N] [--native] [--json] [--model FILE] [--cv]")
		return 2
	}
	convs, err := dataset.LoadConversations(*data)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval slate:", err)
		return 1
	}
	var models []*slate.Model
	if *modelFile != "" {
		m, err := readSlateModel(*modelFile)
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 1
		}
		models = []*slate.Model{m}
	}
	if *cv {
		k := min(*folds, len(convs))
		if k < 2 {
			fmt.Fprintln(stderr, "recmem eval slate: --cv needs at least 2 conversations")
			return 2
		}
		train, err := trainer(*kind, slatelab.TrainOptions{Pairwise: true})
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 2
		}
		if models, err = foldModels(convs, *pool, k, train); err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 1
		}
	}
	c, done, err := openCaller(context.Background(), *native, *wasm)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval slate:", err)
		return 1
	}
	defer done()
	replay := slatelab.Replay{Budget: *budget, Pool: *pool, Limit: *limit, Models: models}
	progress := isTerminal(stderr)
	if progress {
		replay.Progress = func(conv string, done, total int) {
			if done%20 == 0 {
				fmt.Fprintf(stderr, "\r%s: %d/%d questions", conv, done, total)
			}
		}
	}
	tallies, err := replay.Run(c, convs)
	if progress {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval slate:", err)
		return 1
	}
	rep := slateReport{Metrics: tallies["learned"].Metrics(), Baselines: map[string]slatelab.Metrics{}}
	for _, r := range slate.Rankers[1:] {
		rep.Baselines[r] = tallies[r].Metrics()
	}
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	mode := "wasm"
	if *native {
		mode = "native"
	}
	model := "embedded model (trained on all LoCoMo)"
	switch {
	case *cv:
		model = fmt.Sprintf("cross-validated, %d conversation folds", min(*folds, len(convs)))
	case *modelFile != "":
		model = *modelFile
	}
	fmt.Fprintf(stdout, "slate eval: %s, B=%d, pool=%d, %s, %s\n\n", *data, *budget, *pool, mode, model)
	printMetricsTable(stdout, rep)
	return 0
}

// printMetricsTable writes one row of slate metrics per ranker, the learned
// one first.
func printMetricsTable(w io.Writer, rep slateReport) {
	fmt.Fprintf(w, "%-11s %9s %7s %10s %10s %7s %7s %8s %7s\n", "ranker", "questions", "r_slate", "r_slate_k2", "r_slate_k3", "recall", "r_pool", "tokens", "p50 ms")
	row := func(name string, m slatelab.Metrics) {
		fmt.Fprintf(w, "%-11s %9d %7.3f %10.3f %10.3f %7.3f %7.3f %8.1f %7.3f\n", name, m.Questions, m.RSlate, m.RSlateK2, m.RSlateK3, m.Recall, m.RPool, m.MeanTokens, m.P50Ms)
	}
	row("learned", rep.Metrics)
	for _, r := range slate.Rankers[1:] {
		row(r, rep.Baselines[r])
	}
}

// readSlateModel reads and checks a ranker model file (as train slate
// writes it).
func readSlateModel(path string) (*slate.Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m slate.Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	return &m, nil
}
