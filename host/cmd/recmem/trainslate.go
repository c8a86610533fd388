package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/slatelab"
	"github.com/recmem/recmem/pkg/vector"
)

func init() {
	commands["train slate"] = command{
		summary: "train the slate ranker with leave-one-conversation-out CV: recmem train slate --data FILE [--out FILE] [--ablation]",
		run:     runTrainSlate,
	}
}

// runTrainSlate is `recmem train slate`: it cross-validates the slate ranker
// by conversation folds (with --ablation, also each feature group alone and
// the model without it) and, with --out, writes the model trained on all
// the data.
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
	splitName := fs.String("split", "", "report only the `SPLIT` conversations: dev (even positions in the file, where settings are chosen), held-out (odd positions) or all; every fold still trains on all the others")
	drop := fs.String("drop", "", "also cross-validate the model without each `LIST` of features: comma-separated names, variants separated by ';'")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem train slate --data FILE [--out FILE] [--ablation] [--pool N] [--budgets 1000,2000]")
		return 2
	}
	split, err := slatelab.ParseSplit(*splitName)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate: --", err)
		return 2
	}
	variants, err := dropVariants(*drop)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate: --drop:", err)
		return 2
	}
	bs, err := parseBudgets(*budgets)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate: --budgets:", err)
		return 2
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
	adv, err := slatelab.PoolAdversarial(convs, *pool, table)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	k := min(*folds, len(convs))
	opts := slatelab.TrainOptions{Pairwise: !*pointwise, L2: *l2}
	train, err := trainer(*kind, opts)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 2
	}
	rows, cats, err := trainSlateRows(ps, adv, k, opts, bs, *kind, *ablation, train, split, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "recmem train slate:", err)
		return 1
	}
	var dropCats []categoryRow // the --drop variants' rows by category
	for _, v := range variants {
		o := opts
		o.Features = v.keep
		tv, err := trainer(*kind, o)
		if err != nil {
			fmt.Fprintln(stderr, "recmem train slate:", err)
			return 2
		}
		cv, err := slatelab.CrossValidateWhere(ps, adv, k, tv, bs, split.Has)
		if err != nil {
			fmt.Fprintln(stderr, "recmem train slate:", err)
			return 1
		}
		rows = append(rows, slatelab.Row{Name: "without " + v.name, Metrics: cv.Metrics})
		for _, name := range cv.Categories[0].Names() {
			for i, b := range bs {
				dropCats = append(dropCats, categoryRow{Category: name, Ranker: "learned without " + v.name, Budget: b, Metrics: cv.Categories[i][name].Metrics()})
			}
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
		b, _ := json.Marshal(map[string]any{"budgets": bs, "folds": k, "split": string(split), "rows": rows, "categories": cats, "drop_categories": dropCats})
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "train slate: %s, %d questions, pool=%d, %d-fold by conversation", *data, len(ps), *pool, k)
	if split != slatelab.SplitAll {
		fmt.Fprintf(stdout, ", reporting the %s conversations", split)
	}
	fmt.Fprint(stdout, "\n\n")
	printTrainTable(stdout, bs, rows)
	fmt.Fprintf(stdout, "\nby category (%s):\n", rows[0].Name)
	printCVCategories(stdout, bs, cats)
	return 0
}

// printCVCategories writes one row per question category: its questions
// (all, κ ≥ 2), r_pool, and r_slate (all, κ ≥ 2) at each budget.
func printCVCategories(w io.Writer, bs []int, rows []categoryRow) {
	fmt.Fprintf(w, "%-12s %9s %5s %7s", "category", "questions", "k>=2", "r_pool")
	for _, b := range bs {
		fmt.Fprintf(w, " %8s %8s", fmt.Sprintf("B=%d", b), "k>=2")
	}
	fmt.Fprintln(w)
	for i := 0; i < len(rows); i += len(bs) {
		m := rows[i].Metrics
		fmt.Fprintf(w, "%-12s %9d %5d %7.3f", rows[i].Category, m.Questions, m.QuestionsK2, m.RPool)
		for j := range bs {
			fmt.Fprintf(w, " %8.3f %8.3f", rows[i+j].RSlate, rows[i+j].RSlateK2)
		}
		fmt.Fprintln(w)
	}
}

// trainSlateRows cross-validates the model of the given kind on all
// features (with its metrics by category, adv counted only there, at each
// budget in turn for each category), and with ablation also a linear one
// and slatelab.Ablation's rows, showing the group under way on a terminal.
func trainSlateRows(ps, adv []slatelab.Pooled, k int, opts slatelab.TrainOptions, bs []int, kind string, ablation bool, train func([]slatelab.Group) (*slate.Model, error), split slatelab.Split, stderr io.Writer) ([]slatelab.Row, []categoryRow, error) {
	cv, err := slatelab.CrossValidateWhere(ps, adv, k, train, bs, split.Has)
	if err != nil {
		return nil, nil, err
	}
	rows := []slatelab.Row{{Name: "all features, " + kind, Metrics: cv.Metrics}}
	var cats []categoryRow
	for _, name := range cv.Categories[0].Names() {
		for i, b := range bs {
			cats = append(cats, categoryRow{Category: name, Ranker: "learned", Budget: b, Metrics: cv.Categories[i][name].Metrics()})
		}
	}
	if !ablation {
		return rows, cats, nil
	}
	if kind != "linear" {
		lin, err := slatelab.CrossValidateFolds(ps, k, func(g []slatelab.Group) (*slate.Model, error) { return slatelab.Train(g, opts) }, bs)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, slatelab.Row{Name: "all features, linear", Metrics: lin})
	}
	var progress func(string)
	if isTerminal(stderr) {
		progress = func(g string) { fmt.Fprintf(stderr, "\rablation: %s   ", g) }
		defer fmt.Fprintln(stderr)
	}
	more, err := slatelab.Ablation(ps, k, opts, bs, progress)
	return append(rows, more...), cats, err
}

// printTrainTable writes train slate's table: per row, r_slate at each
// budget (all questions, κ ≥ 2, κ ≥ 3) and the pool's recall.
func printTrainTable(stdout io.Writer, bs []int, rows []slatelab.Row) {
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
}

// dropVariant is one --drop variant: its name (the features left out) and
// the features it keeps.
type dropVariant struct {
	name string
	keep []string
}

// dropVariants reads --drop: variants separated by ';', each a
// comma-separated list of feature names to leave out.
func dropVariants(spec string) ([]dropVariant, error) {
	var out []dropVariant
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	for _, v := range strings.Split(spec, ";") {
		drop := map[string]bool{}
		var names []string
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if !slices.Contains(slate.FeatureNames, f) {
				return nil, fmt.Errorf("unknown feature %q", f)
			}
			drop[f] = true
			names = append(names, f)
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("empty variant in %q", spec)
		}
		var keep []string
		for _, f := range slate.FeatureNames {
			if !drop[f] {
				keep = append(keep, f)
			}
		}
		out = append(out, dropVariant{name: strings.Join(names, ","), keep: keep})
	}
	return out, nil
}
