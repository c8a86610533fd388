package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["eval rec"] = command{
		summary: "evaluate recommendation (1+9 candidates) against baselines: recmem eval rec --data DIR --dataset NAME",
		run:     runEvalRec,
	}
}

// evalRecFlags are eval rec's flags.
type evalRecFlags struct {
	data, name, mode, sched string
	users, skip             int
	native                  bool
	wasm                    string
	asJSON                  bool
	catFile, saveCat, peers string
	eventCap, workers       int
	factorial, noBaselines  bool
	control, diversity      bool
	llm                     *llmFlags
	train                   trainFlags
	fs                      *flag.FlagSet
}

func newEvalRecFlags(stderr io.Writer) *evalRecFlags {
	f := &evalRecFlags{fs: flag.NewFlagSet("eval rec", flag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	fs.StringVar(&f.data, "data", "", "directory of the RecBole atomic files (required)")
	fs.StringVar(&f.name, "dataset", "", "data set name, the files' common prefix (required)")
	fs.StringVar(&f.mode, "mode", rec.ModeRetrospective, "retrospective (record all, maintain, rank) or evolving (one signal at a time)")
	fs.StringVar(&f.sched, "scheduler", "fixed", "maintenance scheduler: fixed (every B signals) or planner")
	fs.IntVar(&f.users, "users", 0, "evaluate the first N users with a candidate list (0 = all)")
	fs.IntVar(&f.skip, "skip", 0, "leave out the first `N` users with a candidate list (a second split: tune on --skip 3000 --users 50, report on the first users)")
	fs.BoolVar(&f.native, "native", false, "run pkg/ natively instead of the .wasm module")
	fs.StringVar(&f.wasm, "wasm", "", "path of plugin.wasm (default: found automatically)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object")
	fs.StringVar(&f.catFile, "catalog", "", "use this catalog (from train catalog) instead of training one")
	fs.StringVar(&f.saveCat, "save-catalog", "", "write the catalog this run trained to `FILE` (for a later run with --catalog)")
	fs.IntVar(&f.eventCap, "event-cap", rec.DefaultEventCap, "event memory capacity L_max given to reset (50 holds every Games-6k history)")
	fs.IntVar(&f.workers, "workers", 1, "plugin instances run in parallel")
	fs.StringVar(&f.peers, "peers", "", "directory of NAME.MODEL.scores files from scripts/peers/recbole, read into the baselines")
	fs.BoolVar(&f.factorial, "factorial", false, "also run the tier study: the 8 combinations of ±event, ±preference, ±profile memory, weights learned for each (natively, retrospective memories; needs training, not --catalog)")
	fs.BoolVar(&f.noBaselines, "no-baselines", false, "with --catalog, skip training and scoring the baselines (minutes of CPU): for recording or replaying a model, where only recmem's own figures are wanted")
	fs.BoolVar(&f.control, "control", true, "also measure the person's edits (delete, strength, \"avoids X\", \"likes Y\") on each user's pool: the report's \"control\"")
	fs.BoolVar(&f.diversity, "diversity", true, "also measure the cap on one series natively (HR@1 and NDCG@10 with and without it, and the pools' top 10): the report's \"diversity\"")
	f.llm = addLLMFlags(fs)
	f.train.register(fs)
	return f
}

// errUsage is a bad command line: exit code 2, the message already written.
var errUsage = errors.New("usage")

// parse reads args and checks what can be checked before any work, writing
// what is wrong to stderr.
func (f *evalRecFlags) parse(args []string, stderr io.Writer) error {
	if err := f.fs.Parse(args); err != nil {
		return errUsage
	}
	switch {
	case f.data == "" || f.name == "" || f.fs.NArg() > 0:
		fmt.Fprintln(stderr, "usage: recmem eval rec --data DIR --dataset NAME [--mode retrospective|evolving] [--scheduler fixed|planner] [--users N] [--native] [--json]")
	case f.mode != rec.ModeRetrospective && f.mode != rec.ModeEvolving:
		fmt.Fprintf(stderr, "recmem eval rec: --mode: want retrospective or evolving, got %q\n", f.mode)
	case f.sched != "fixed" && f.sched != "planner":
		fmt.Fprintf(stderr, "recmem eval rec: --scheduler: want fixed or planner, got %q\n", f.sched)
	case f.skip < 0:
		fmt.Fprintf(stderr, "recmem eval rec: --skip: want 0 or more, got %d\n", f.skip)
	case f.noBaselines && f.catFile == "":
		fmt.Fprintln(stderr, "recmem eval rec: --no-baselines needs --catalog (training a catalog trains the baselines anyway)")
	case f.factorial && f.catFile != "":
		fmt.Fprintln(stderr, "recmem eval rec: --factorial learns weights on the validation split: drop --catalog")
	default:
		return nil
	}
	return errUsage
}

func runEvalRec(args []string, stdout, stderr io.Writer) int {
	f := newEvalRecFlags(stderr)
	if err := f.parse(args, stderr); err != nil {
		return 2
	}
	llmSet, err := f.llm.open()
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval rec:", err)
		return 2
	}
	defer llmSet.close()
	rep, err := f.run(llmSet, progressTo(stderr, time.Now()))
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval rec:", err)
		return 1
	}
	if f.asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	printReport(stdout, rep)
	return 0
}

// run is the evaluation: the data, the catalog (trained, or read), the
// baselines, the replay of every user through the engine and, with
// --factorial, the tier study.
func (f *evalRecFlags) run(llmSet *llmSetup, say func(string)) (evalReport, error) {
	start := time.Now()
	d, err := loadData(f.data, f.name, f.train.convertDir, say)
	if err != nil {
		return evalReport{}, err
	}
	cfg := f.train.config(say)
	cfg.EventCap = f.eventCap
	catBytes, base, trained, err := f.catalog(d, cfg, say)
	if err != nil {
		return evalReport{}, err
	}
	all, skipped := rec.Cases(d.Test, d.Random, 0)
	cases := all[min(f.skip, len(all)):]
	if f.users > 0 && f.users < len(cases) {
		cases = cases[:f.users]
	}
	rep := newEvalReport(f, d.Name, cases, skipped, len(catBytes))
	if err := f.scoreBaselines(&rep, d, cases, base); err != nil {
		return evalReport{}, err
	}
	if trained != nil {
		rep.ValidFit, rep.Weights = &trained.Valid, trained.Weights
	}
	probes := map[int]rec.Probe{}
	for i, c := range cases {
		if p, ok := rec.NewProbe(d, c, d.Random[c.User]); ok {
			probes[i] = p
		}
	}
	say(fmt.Sprintf("ranking %d users through the %s engine (%s, %s scheduler)", len(cases), rep.Runtime, f.mode, f.sched))
	replay := rec.Replay{Data: d, Mode: f.mode, Scheduler: f.sched, EventCap: f.eventCap}
	open := func() (engine.Caller, func(), error) {
		return openCallerLLM(context.Background(), f.native, f.wasm, llmSet)
	}
	res, err := replay.Run(cases, probes, catBytes, open, max(1, f.workers), say)
	if err != nil {
		return evalReport{}, err
	}
	rep.setRun(cases, res)
	if f.control {
		say(fmt.Sprintf("control: the person's edits on %d users' pools", len(cases)))
		ctl := rec.Control{Data: d, Build: replay.Builder()}
		c, err := rec.RunControl(ctl, cases, catBytes, open, max(1, f.workers), say)
		if err != nil {
			return evalReport{}, err
		}
		rep.Control = &c
	}
	if f.diversity {
		say(fmt.Sprintf("diversity: the cap on one series, natively on %d users", len(cases)))
		cat, err := catalog.Decode(catBytes)
		if err != nil {
			return evalReport{}, err
		}
		dv, err := rec.Diversity(d, cat, cases, f.eventCap)
		if err != nil {
			return evalReport{}, fmt.Errorf("diversity: %w", err)
		}
		rep.Diversity = &dv
	}
	if f.factorial {
		say(fmt.Sprintf("tier study: building %d test memories natively", len(cases)))
		if rep.Factorial, err = factorial(d, catBytes, trained, cases, cfg, f.eventCap); err != nil {
			return evalReport{}, fmt.Errorf("factorial: %w", err)
		}
	}
	rep.setLLM(llmSet, f.llm.spec, res.LLM, len(cases))
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// catalog returns the catalog to rank with and the baselines: read from
// --catalog (the baselines then trained on the test histories), or trained
// (and written to --save-catalog).
func (f *evalRecFlags) catalog(d *dataset.RecBole, cfg rec.TrainConfig, say func(string)) ([]byte, *rec.Baselines, *rec.Trained, error) {
	if f.catFile != "" {
		b, err := os.ReadFile(f.catFile)
		if err != nil {
			return nil, nil, nil, err
		}
		if f.noBaselines {
			return b, nil, nil, nil
		}
		say("training the baselines on the test histories")
		return b, rec.TrainBaselines(d.Test, len(d.Items), cfg.BPR, rec.TestRNG(cfg.Seed)), nil, nil
	}
	tr, err := rec.TrainCatalog(d, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	if f.saveCat != "" {
		if err := writeFileAtomic(f.saveCat, tr.Catalog); err != nil {
			return nil, nil, nil, err
		}
	}
	return tr.Catalog, tr.Baselines, tr, nil
}

// scoreBaselines scores the baselines and the peers of --peers on cases,
// overall and on the held-out split.
func (f *evalRecFlags) scoreBaselines(rep *evalReport, d *dataset.RecBole, cases []rec.Case, base *rec.Baselines) error {
	if base == nil { // --no-baselines
		return nil
	}
	scorers := base.Scorers()
	if f.peers != "" {
		ps, err := rec.ReadPeers(f.peers, d.Name)
		if err != nil {
			return err
		}
		for key, p := range ps {
			if scorers[key] != nil {
				return fmt.Errorf("peers: %s would replace recmem's own baseline of that name", key)
			}
			if scorers[key], err = p.Scorer(d, cases); err != nil {
				return err
			}
			rep.Peers = append(rep.Peers, filepath.Join(f.peers, d.Name+"."+key+".scores"))
		}
		slices.Sort(rep.Peers)
	}
	for n, s := range scorers {
		ranks := rec.Ranks(cases, s)
		rep.Baselines[n] = rec.RankScores(ranks)
		rep.BaselineSplits[n] = rec.SplitOf(cases, ranks)
	}
	return nil
}

// factorial runs the tier study on memories built natively from cases.
func factorial(d *dataset.RecBole, catBytes []byte, trained *rec.Trained, cases []rec.Case, cfg rec.TrainConfig, eventCap int) ([]rec.TierResult, error) {
	cat, err := catalog.Decode(catBytes)
	if err != nil {
		return nil, err
	}
	test, err := rec.Vectors(d, cat, cases, eventCap)
	if err != nil {
		return nil, err
	}
	return rec.Factorial(trained.ValidVectors, test, cases, eventCap, cfg.Learn), nil
}
