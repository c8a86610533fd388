package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/slatelab"
	"github.com/recmem/recmem/pkg/vector"
)

func init() {
	commands["eval slate"] = command{
		summary: "slate completeness on LoCoMo or LongMemEval: recmem eval slate --data FILE --budget B [--pool N] [--native] [--json] [--model FILE] [--cv]",
		run:     runEvalSlate,
	}
	commands["train slate"] = command{
		summary: "train the slate ranker with leave-one-conversation-out CV: recmem train slate --data FILE [--out FILE] [--ablation]",
		run:     runTrainSlate,
	}
}

// slateReport is the JSON printed by `eval slate --json` (a contract).
type slateReport struct {
	slatelab.Metrics
	Baselines map[string]slatelab.Metrics `json:"baselines"`
}

// trainer returns the training function for a model kind: "ensemble" (the
// default: pairwise linear and 100 depth-3 boosted trees fused by rank),
// "linear" or "gbdt".
func trainer(kind string, o slatelab.TrainOptions) (func([]slatelab.Group) (*slate.Model, error), error) {
	g := slatelab.GBDTOptions{Trees: 100, Features: o.Features}
	switch kind {
	case "ensemble", "":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.TrainEnsemble(gs, o, g) }, nil
	case "linear":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.Train(gs, o) }, nil
	case "gbdt":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.TrainGBDT(gs, g) }, nil
	}
	return nil, fmt.Errorf("unknown model kind %q (want ensemble, linear or gbdt)", kind)
}

// foldModels trains, for each of k folds of conversations (conversation i is in
// fold i mod k), a model on the other folds.
func foldModels(convs []dataset.Conversation, pool, k int, train func([]slatelab.Group) (*slate.Model, error)) ([]*slate.Model, error) {
	ps, err := slatelab.PoolAll(convs, pool, nil)
	if err != nil {
		return nil, err
	}
	ms := make([]*slate.Model, k)
	for f := 0; f < k; f++ {
		var gs []slatelab.Group
		for _, p := range ps {
			if p.Conv%k != f {
				gs = append(gs, p.Group)
			}
		}
		if ms[f], err = train(gs); err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
	}
	return ms, nil
}

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

func runTrainSlate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train slate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "LoCoMo or LongMemEval JSON `FILE` (required)")
	out := fs.String("out", "", "write the model trained on all the data to `FILE` (pkg/slate/model.json is the embedded one)")
	pool := fs.Int("pool", slate.DefaultPool, "candidate pool size `N`")
	budgets := fs.String("budgets", "1000,2000", "comma-separated budgets to report")
	folds := fs.Int("folds", 8, "conversation folds (conversation i is in fold i mod folds)")
	pointwise := fs.Bool("pointwise", false, "pointwise logistic regression instead of pairwise")
	kind := fs.String("kind", "ensemble", "model `KIND`: ensemble (linear + boosted trees, fused by rank), linear or gbdt; the ablation always retrains linear models")
	l2 := fs.Float64("l2", 1, "ridge penalty on standardized weights")
	ablation := fs.Bool("ablation", false, "also report each feature group alone and the full model without it")
	tableFile := fs.String("table", "", "use the word-vector table in `FILE` (generate.js format) instead of the embedded one")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem train slate --data FILE [--out FILE] [--ablation] [--pool N] [--budgets 1000,2000]")
		return 2
	}
	var bs []int
	for _, s := range strings.Split(*budgets, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || b <= 0 {
			fmt.Fprintf(stderr, "recmem train slate: bad budget %q\n", s)
			return 2
		}
		bs = append(bs, b)
	}
	convs, err := dataset.LoadConversations(*data)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	var table *vector.Table
	if *tableFile != "" {
		b, err := os.ReadFile(*tableFile)
		if err == nil {
			table, err = vector.Parse(b)
		}
		if err != nil {
			fmt.Fprintln(stderr, "recmem train slate:", err)
			return 1
		}
	}
	ps, err := slatelab.PoolAll(convs, *pool, table)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	k := min(*folds, len(convs))
	opts := slatelab.TrainOptions{Pairwise: !*pointwise, L2: *l2}
	cvRun := func(feats []string) ([]slatelab.Metrics, error) {
		o := opts
		o.Features = feats
		return slatelab.CrossValidateFolds(ps, k, func(g []slatelab.Group) (*slate.Model, error) { return slatelab.Train(g, o) }, bs)
	}
	type row struct {
		Name    string             `json:"name"`
		Metrics []slatelab.Metrics `json:"metrics"`
	}
	var rows []row
	train, err := trainer(*kind, opts)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 2
	}
	all, err := slatelab.CrossValidateFolds(ps, k, train, bs)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	rows = append(rows, row{"all features, " + *kind, all})
	if *ablation && *kind != "linear" {
		lin, err := cvRun(nil)
		if err != nil {
			fmt.Fprintln(stderr, "recmem train slate:", err)
			return 1
		}
		rows = append(rows, row{"all features, linear", lin})
	}
	if *ablation {
		groups := make([]string, 0, len(slate.FeatureGroups))
		for g := range slate.FeatureGroups {
			groups = append(groups, g)
		}
		sort.Strings(groups)
		for _, g := range groups {
			if isTerminal(stderr) {
				fmt.Fprintf(stderr, "\rablation: %s   ", g)
			}
			only, err := cvRun(slate.FeatureGroups[g])
			if err != nil {
				fmt.Fprintln(stderr, "recmem train slate:", err)
				return 1
			}
			rows = append(rows, row{"only " + g, only})
			drop := map[string]bool{}
			for _, f := range slate.FeatureGroups[g] {
				drop[f] = true
			}
			var rest []string
			for _, f := range slate.FeatureNames {
				if !drop[f] {
					rest = append(rest, f)
				}
			}
			without, err := cvRun(rest)
			if err != nil {
				fmt.Fprintln(stderr, "recmem train slate:", err)
				return 1
			}
			rows = append(rows, row{"without " + g, without})
		}
		if isTerminal(stderr) {
			fmt.Fprintln(stderr)
		}
	}
	var groups []slatelab.Group
	for _, p := range ps {
		groups = append(groups, p.Group)
	}
	m, err := train(groups)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	m.Note = fmt.Sprintf("kind=%s pairwise=%v l2=%g pool=%d, trained by `recmem train slate` on %d conversations, %d questions", *kind, !*pointwise, *l2, *pool, len(convs), len(ps))
	if *out != "" {
		b, _ := json.MarshalIndent(m, "", " ")
		if err := writeFileAtomic(*out, append(b, '\n')); err != nil {
			fmt.Fprintln(stderr, "recmem train slate:", err)
			return 1
		}
	}
	if *asJSON {
		b, _ := json.Marshal(map[string]any{"budgets": bs, "folds": k, "rows": rows})
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "train slate: %s, %d questions, pool=%d, %d-fold by conversation\n\n", *data, len(ps), *pool, k)
	fmt.Fprintf(stdout, "%-22s", "features")
	for _, b := range bs {
		fmt.Fprintf(stdout, " %8s %8s %8s", fmt.Sprintf("B=%d", b), "k>=2", "k>=3")
	}
	fmt.Fprintf(stdout, " %7s\n", "r_pool")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-22s", r.Name)
		for _, m := range r.Metrics {
			fmt.Fprintf(stdout, " %8.3f %8.3f %8.3f", m.RSlate, m.RSlateK2, m.RSlateK3)
		}
		fmt.Fprintf(stdout, " %7.3f\n", r.Metrics[0].RPool)
	}
	return 0
}
