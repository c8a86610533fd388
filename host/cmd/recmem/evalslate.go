package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

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
	var fixed json.RawMessage
	if *modelFile != "" {
		b, err := os.ReadFile(*modelFile)
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 1
		}
		var m slate.Model
		if err := json.Unmarshal(b, &m); err != nil {
			fmt.Fprintln(stderr, "recmem eval slate: model:", err)
			return 1
		}
		if err := m.Validate(); err != nil {
			fmt.Fprintln(stderr, "recmem eval slate: model:", err)
			return 1
		}
		fixed = b
	}
	var foldJSON []json.RawMessage
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
		ms, err := foldModels(convs, *pool, k, train)
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 1
		}
		for _, m := range ms {
			b, _ := json.Marshal(m)
			foldJSON = append(foldJSON, b)
		}
	}
	ctx := context.Background()
	c, done, err := openCaller(ctx, *native, *wasm)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval slate:", err)
		return 1
	}
	defer done()
	progress := isTerminal(stderr)
	tallies := map[string]*slatelab.Tally{}
	for _, r := range slate.Rankers {
		tallies[r] = &slatelab.Tally{}
	}
	total := 0
	for ci, cv := range convs {
		if *limit > 0 && ci >= *limit {
			break
		}
		for _, q := range cv.Questions {
			if slatelab.Eligible(q) {
				total++
			}
		}
	}
	doneQ := 0
	for ci, conv := range convs {
		if *limit > 0 && ci >= *limit {
			break
		}
		if _, err := c.Call("reset", nil); err != nil {
			fmt.Fprintln(stderr, "recmem eval slate: reset:", err)
			return 1
		}
		in, _ := json.Marshal(map[string]any{"units": slatelab.UnitsOf(conv)})
		if _, err := c.Call("add_units", in); err != nil {
			fmt.Fprintf(stderr, "recmem eval slate: %s: add_units: %v\n", conv.ID, err)
			return 1
		}
		model := fixed
		if *cv {
			model = foldJSON[ci%len(foldJSON)]
		}
		for _, q := range conv.Questions {
			if !slatelab.Eligible(q) {
				continue
			}
			kappa := conv.Sessions(q)
			for _, r := range slate.Rankers {
				req := map[string]any{"query": q.Text, "budget": *budget, "pool": *pool, "ranker": r}
				if q.Date != "" {
					req["date"] = q.Date
				}
				if r == "learned" {
					req["with_pool"] = true
					if model != nil {
						req["model"] = model
					}
				}
				in, _ := json.Marshal(req)
				t0 := time.Now()
				out, err := c.Call("select_slate", in)
				ms := float64(time.Since(t0).Microseconds()) / 1000
				if err != nil {
					fmt.Fprintf(stderr, "recmem eval slate: %s: %q: %v\n", conv.ID, q.Text, err)
					return 1
				}
				var res slate.Result
				if err := json.Unmarshal(out, &res); err != nil {
					fmt.Fprintln(stderr, "recmem eval slate: decoding select_slate:", err)
					return 1
				}
				o := slatelab.Outcome{Kappa: kappa, Evidence: q.Evidence, Tokens: res.Tokens, Ms: max(ms, 1e-3)}
				for _, u := range res.Units {
					o.Slate = append(o.Slate, u.ID)
				}
				o.Pool = map[string]bool{}
				if r == "learned" {
					for _, id := range res.PoolIDs {
						o.Pool[id] = true
					}
				} else {
					for _, id := range o.Slate {
						o.Pool[id] = true // a baseline's pool is its slate
					}
				}
				tallies[r].Add(o)
			}
			doneQ++
			if progress && doneQ%20 == 0 {
				fmt.Fprintf(stderr, "\r%s: %d/%d questions", conv.ID, doneQ, total)
			}
		}
	}
	if progress {
		fmt.Fprintln(stderr)
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
