package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/intentlab"
	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["eval instructions"] = command{
		summary: "how well ranked lists obey typed instructions: recmem eval instructions [--catalog FILE] [--cases FILE|DIR] [--json]",
		run:     runEvalInstructions,
	}
}

// runEvalInstructions reads the catalog (the page's demo catalog with its
// ranker spec and intent table, or a catalog asset) and the cases, runs
// intentlab.Evaluate (and, on the page's catalog, intentlab.TargetAware on
// Games-6k unless --data none) natively, and prints the report.
func runEvalInstructions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval instructions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	catFile := fs.String("catalog", "", "what the cases run on: the page's demo catalog (default web/catalog/games-demo.json), or a catalog asset, binary (recmem train catalog) or JSON")
	specFile := fs.String("ranker", "", "how the page builds the ranker's catalog (default games-ranker.json beside the catalog)")
	tableFile := fs.String("intent", "", "the interpreter's table for the domain (default games-intent.json beside the catalog)")
	casesDir := fs.String("cases", "", "a *.jsonl file of cases, or a directory of them (default testdata/instructions); dev.jsonl and heldout.jsonl name their split")
	nCands := fs.Int("candidates", intentlab.PageCandidates, "on a catalog asset: the candidates drawn for each case")
	seed := fs.Uint64("seed", 1, "on a catalog asset: the seed of the candidates drawn")
	split := fs.String("split", "all", "which cases and users: dev, heldout (set aside before tuning) or all")
	histN := fs.Int("history", intentlab.DefaultHistory, "items in the history of the user who pulls against the instruction")
	data := fs.String("data", "", "Games-6k directory for the target-aware check (default: found like demo-catalog; \"none\" skips it)")
	users := fs.Int("users", 0, "target-aware check: the first N users of the split (0 = all)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	failures := fs.Bool("failures", false, "list the development lists that broke their instruction")
	lf := addLLMFlags(fs) // π_rank on: --llm URL --llm-steps rank
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (*split != "all" && *split != "dev" && *split != "heldout") {
		fmt.Fprintln(stderr, "usage: recmem eval instructions [--catalog FILE] [--cases FILE|DIR] [--split all|dev|heldout] [--data DIR|none] [--json]")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "recmem eval instructions:", err)
		return 1
	}
	switch {
	case *histN < 1:
		return fail(fmt.Errorf("--history: want at least 1 item, got %d", *histN))
	case *nCands < 1:
		return fail(fmt.Errorf("--candidates: want at least 1, got %d", *nCands))
	case *seed == 0:
		return fail(errors.New("--seed: want a seed above 0"))
	}
	start := time.Now()
	opts := intentlab.Options{Split: *split, History: *histN, Failures: *failures, Users: *users,
		Candidates: *nCands, Seed: *seed, Progress: progressTo(stderr, start)}
	if *catFile == "" {
		*catFile = findUp("web/catalog/games-demo.json")
	}
	if *casesDir == "" {
		*casesDir = findUp("testdata/instructions")
	}
	cat, err := intentlab.ReadCatalogFile(*catFile, *specFile, *tableFile)
	if err != nil {
		return fail(err)
	}
	cases, err := intentlab.ReadCasePath(*casesDir, *split)
	if err != nil {
		return fail(err)
	}
	opts.Progress(fmt.Sprintf("%d items in %s, %d cases from %s", len(cat.Items), *catFile, len(cases), *casesDir))
	llmSet, err := lf.open()
	if err != nil {
		return fail(err)
	}
	defer llmSet.close()
	x, err := llmSet.nativeEngine()
	if err != nil {
		return fail(err)
	}
	rep, err := intentlab.Evaluate(x, cat, cases, opts)
	if err != nil {
		return fail(err)
	}
	if llmSet.meter != nil {
		per, _ := llmSet.meter.Totals()
		for _, step := range llmSet.meter.Steps() {
			u := per[step]
			opts.Progress(fmt.Sprintf("LLM %s: %d calls, %d input and %d output tokens", step, u.Calls, u.InputTokens, u.OutputTokens))
		}
	}
	rep.Catalog = *catFile
	if cat.Asset() && *data != "none" {
		opts.Progress("no target-aware check: it runs on the page's catalog (Games-6k)")
	}
	if !cat.Asset() && *data != "none" {
		if *data == "" {
			if *data, err = findGames6k(); err != nil {
				return fail(fmt.Errorf("%w (or --data none to skip the target-aware check)", err))
			}
		}
		opts.Progress("target-aware check on Games-6k (1 + 9 candidates)")
		ta, err := targetAware(*data, cat, opts)
		if err != nil {
			return fail(err)
		}
		rep.AddTargetAware(ta)
	}
	rep.Seconds = float64(int64(time.Since(start).Seconds()*10)) / 10
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fail(err)
		}
		return 0
	}
	printInstrReport(stdout, rep)
	return 0
}

// labItem is a demo item as intentlab judges it.
func (it DemoItem) labItem() intentlab.Item {
	return intentlab.Item{ID: it.ID, Pop: it.Popularity, Fields: map[string]string{
		"title": it.Title, "platform": it.Platform, "kind": it.Kind, "format": it.Format, "series": it.Series}}
}

// targetAware runs intentlab.TargetAware with the page's ranker over every
// Games-6k item in dir, titled or not, each titled item's platform and
// series derived from its title as demo-catalog derives them.
func targetAware(dir string, page intentlab.Catalog, opts intentlab.Options) (*intentlab.TargetReport, error) {
	ds, err := dataset.LoadRecBole(dir, "Games-6k")
	if err != nil {
		return nil, err
	}
	derived := map[string]DemoItem{}
	for _, it := range buildDemoCatalog(ds, 0).Items {
		derived[it.ID] = it
	}
	cat := intentlab.Catalog{Items: make([]intentlab.Item, len(ds.Items)), Spec: page.Spec, Intent: page.Intent, Dataset: "Games-6k"}
	for i, it := range ds.Items {
		d, ok := derived[it.ID]
		if !ok {
			d = DemoItem{ID: it.ID, Kind: "game", Format: "physical"}
		}
		cat.Items[i] = d.labItem()
	}
	cases, _ := rec.Cases(ds.Test, ds.Random, 0)
	return intentlab.TargetAware(engine.New(), cat, cases, opts)
}

func printInstrReport(w io.Writer, r *intentlab.Report) {
	fmt.Fprintf(w, "instructions (%s split): %d cases, %d lists (a new user and one whose history pulls against each), %d candidates\n", r.Split, r.Cases, r.Lists, r.Candidates)
	fmt.Fprintf(w, "  candidates: %s\n", r.Pool)
	fmt.Fprintf(w, "  p10 %.4f (without the instruction %.4f)  strict %.4f  perfect %.4f  relaxed %d lists  unknown words in %.1f%% of cases\n", r.P10, r.BaselineP10, r.P10Strict, r.Perfect, r.RelaxedLists, 100*r.UnknownRate)
	fmt.Fprintf(w, "  %-13s %5s  %-29s  %-29s\n", "kind", "cases", "dev: p10 strict base perfect", "held-out: p10 strict base perf")
	split := func(s *intentlab.Scores) string {
		if s == nil {
			return fmt.Sprintf("%-29s", "  -")
		}
		return fmt.Sprintf("%3d %.3f %.3f %.3f %.3f", s.Cases, s.P10, s.P10Strict, s.BaselineP10, s.Perfect)
	}
	for _, k := range intentlab.Kinds {
		if s, ok := r.ByKind[k]; ok {
			fmt.Fprintf(w, "  %-13s %5d  %s  %s\n", k, s.Cases, split(s.Dev), split(s.HeldOut))
		}
	}
	for _, k := range intentlab.Users {
		if s, ok := r.ByUser[k]; ok {
			fmt.Fprintf(w, "  user %-8s p10 %.4f  strict %.4f  baseline %.4f  perfect %.4f\n", k, s.P10, s.P10Strict, s.BaselineP10, s.Perfect)
		}
	}
	if r.Dev != nil {
		fmt.Fprintf(w, "  dev      %3d cases  p10 %.4f  strict %.4f  baseline %.4f  perfect %.4f\n", r.Dev.Cases, r.Dev.P10, r.Dev.P10Strict, r.Dev.BaselineP10, r.Dev.Perfect)
	}
	if r.HeldOut != nil {
		fmt.Fprintf(w, "  held-out %3d cases  p10 %.4f  strict %.4f  baseline %.4f  perfect %.4f\n", r.HeldOut.Cases, r.HeldOut.P10, r.HeldOut.P10Strict, r.HeldOut.BaselineP10, r.HeldOut.Perfect)
	}
	if s := r.WithUnknown; s != nil {
		fmt.Fprintf(w, "  cases with words the LLM-free interpreter left unknown: %d cases, %d lists  p10 %.4f  strict %.4f  perfect %.4f\n", s.Cases, s.Lists, s.P10, s.P10Strict, s.Perfect)
	}
	printOutcomes(w, r.LLMOutcomes)
	if t := r.TargetAware; t != nil {
		fmt.Fprintf(w, "target-aware (Games-6k 1+9, %s): %d users  hr@1 instructed %.4f  plain %.4f  (dev %.4f / %.4f, held-out %.4f / %.4f)\n",
			t.Ranker, t.Users, t.HR1Instructed, t.HR1Plain, t.Dev[0], t.Dev[1], t.HeldOut[0], t.HeldOut[1])
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "  FAIL %s (%s user) %q p10 %.1f strict %.2f [%s]: %s\n", f.ID, f.User, f.Instruction, f.P10, f.P10Strict, f.Understood, strings.Join(f.Violating, " | "))
	}
	fmt.Fprintf(w, "%.1fs\n", r.Seconds)
}
