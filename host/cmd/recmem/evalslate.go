package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

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

// slateReport is the JSON printed by `eval slate --json` (a contract: keys
// are only ever added).
type slateReport struct {
	slatelab.Metrics
	Baselines map[string]slatelab.Metrics `json:"baselines"`
	// Categories are every ranker's metrics by question category at each
	// of the --budgets (LoCoMo's adversarial questions included, which
	// the figures above leave out).
	Categories []categoryRow `json:"categories"`
}

// categoryRow is one ranker's metrics on one category at one budget.
type categoryRow struct {
	Category string `json:"category"`
	Ranker   string `json:"ranker"`
	Budget   int    `json:"budget"`
	slatelab.Metrics
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
	budgetList := fs.String("budgets", "1000,2000", "comma-separated budgets of the by-category table")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	catBudgets, err := parseBudgets(*budgetList)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval slate: --budgets:", err)
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
	if *budget <= 0 {
		fmt.Fprintf(stderr, "recmem eval slate: --budget: must be positive, got %d\n", *budget)
		return 2
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
	progress := isTerminal(stderr)
	// One replay per budget: the headline figures at --budget, the table by
	// category at each of --budgets.
	runs := map[int]*slatelab.Replayed{}
	for _, b := range append([]int{*budget}, catBudgets...) {
		if runs[b] != nil {
			continue
		}
		replay := slatelab.Replay{Budget: b, Pool: *pool, Limit: *limit, Models: models, Adversarial: true}
		if progress {
			replay.Progress = func(conv string, done, total int) {
				if done%20 == 0 {
					fmt.Fprintf(stderr, "\rB=%d %s: %d/%d questions", b, conv, done, total)
				}
			}
		}
		out, err := replay.RunAll(c, convs)
		if progress {
			fmt.Fprintln(stderr)
		}
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval slate:", err)
			return 1
		}
		runs[b] = out
	}
	head := runs[*budget]
	rep := slateReport{Metrics: head.Rankers["learned"].Metrics(), Baselines: map[string]slatelab.Metrics{}, Categories: []categoryRow{}}
	for _, r := range slate.Rankers[1:] {
		rep.Baselines[r] = head.Rankers[r].Metrics()
	}
	for _, b := range catBudgets {
		cats := runs[b].Categories
		for _, name := range cats["learned"].Names() {
			for _, r := range slate.Rankers {
				rep.Categories = append(rep.Categories, categoryRow{Category: name, Ranker: r, Budget: b, Metrics: cats[r][name].Metrics()})
			}
		}
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
	printCategoryTable(stdout, catBudgets, rep.Categories)
	return 0
}

// parseBudgets reads a comma-separated list of positive budgets.
func parseBudgets(list string) ([]int, error) {
	var bs []int
	for _, s := range strings.Split(list, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || b <= 0 {
			return nil, fmt.Errorf("want positive token budgets, got %q", s)
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// printCategoryTable writes, per budget, one row per question category:
// its questions (all, κ ≥ 2), the learned ranker's r_pool, and r_slate (all
// / κ ≥ 2, "-" without such questions) of the learned ranker and of each
// baseline.
func printCategoryTable(w io.Writer, budgets []int, rows []categoryRow) {
	at := map[[3]string]slatelab.Metrics{}
	var cats []string
	width := len("category")
	for _, r := range rows {
		at[[3]string{r.Category, r.Ranker, strconv.Itoa(r.Budget)}] = r.Metrics
		if !slices.Contains(cats, r.Category) {
			cats = append(cats, r.Category)
			width = max(width, len(r.Category))
		}
	}
	for _, b := range budgets {
		fmt.Fprintf(w, "\nby category at B=%d (r_slate all / k>=2; adversarial questions are left out of the table above):\n", b)
		fmt.Fprintf(w, "%-*s %9s %5s %7s", width, "category", "questions", "k>=2", "r_pool")
		for _, r := range slate.Rankers {
			fmt.Fprintf(w, " %13s", r)
		}
		fmt.Fprintln(w)
		for _, c := range cats {
			l := at[[3]string{c, "learned", strconv.Itoa(b)}]
			fmt.Fprintf(w, "%-*s %9d %5d %7.3f", width, c, l.Questions, l.QuestionsK2, l.RPool)
			for _, r := range slate.Rankers {
				m := at[[3]string{c, r, strconv.Itoa(b)}]
				k2 := "    -"
				if m.QuestionsK2 > 0 {
					k2 = fmt.Sprintf("%5.3f", m.RSlateK2)
				}
				fmt.Fprintf(w, "  %5.3f/%s", m.RSlate, k2)
			}
			fmt.Fprintln(w)
		}
	}
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
