package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["train catalog"] = command{
		summary: "build the catalog asset from RecBole logs: recmem train catalog --data DIR --dataset NAME --out FILE",
		run:     runTrainCatalog,
	}
	commands["eval rec"] = command{
		summary: "evaluate recommendation (1+9 candidates) against baselines: recmem eval rec --data DIR --dataset NAME",
		run:     runEvalRec,
	}
}

// trainFlags are the training settings shared by both commands.
type trainFlags struct {
	epochs, seqEpochs int
	seed              uint64
	convertDir        string
}

func (t *trainFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&t.epochs, "epochs", 92, "BPR-MF epochs (dim 64, lr 0.2, reg 0.03; DESIGN §6)")
	fs.IntVar(&t.seqEpochs, "seq-epochs", 20, "epochs of the factorised transition model (dim 32, window 3)")
	fs.Uint64Var(&t.seed, "seed", 1, "PCG seed of every training run")
	fs.StringVar(&t.convertDir, "convert-dir", "", "where a MovieLens directory given as --data is converted to RecBole files, once (default: the user cache directory's recmem/data)")
}

func (t *trainFlags) config(progress func(string)) rec.TrainConfig {
	return rec.TrainConfig{BPR: rec.BPRConfig{Epochs: t.epochs}, Seq: rec.SeqConfig{BPR: rec.BPRConfig{Epochs: t.seqEpochs}},
		Seed: t.seed, Progress: progress}
}

func runTrainCatalog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train catalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "directory of the RecBole atomic files (required)")
	name := fs.String("dataset", "", "data set name, the files' common prefix (required)")
	out := fs.String("out", "", "write the binary catalog to `FILE` (required)")
	var tf trainFlags
	tf.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *name == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem train catalog --data DIR --dataset NAME --out FILE [--epochs N] [--seed S]")
		return 2
	}
	start := time.Now()
	d, err := loadData(*data, *name, tf.convertDir, progressTo(stderr, start))
	if err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	tr, err := rec.TrainCatalog(d, tf.config(progressTo(stderr, start)))
	if err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	if err := writeFileAtomic(*out, tr.Catalog); err != nil {
		fmt.Fprintln(stderr, "recmem train catalog:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d items, %d bytes, in %.1fs\n", *out, len(d.Items), len(tr.Catalog), time.Since(start).Seconds())
	fmt.Fprintf(stdout, "validation fit: hr@1 %.4f hr@5 %.4f ndcg@5 %.4f ndcg@10 %.4f\n", tr.Valid.HR1, tr.Valid.HR5, tr.Valid.NDCG5, tr.Valid.NDCG10)
	names := make([]string, 0, len(tr.Weights))
	for n := range tr.Weights {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(stdout, "  weight %-17s %+.4f\n", n, tr.Weights[n])
	}
	return 0
}

func progressTo(w io.Writer, start time.Time) func(string) {
	return func(s string) { fmt.Fprintf(w, "[%6.1fs] %s\n", time.Since(start).Seconds(), s) }
}

// evalReport is the JSON output of eval rec.
type evalReport struct {
	Dataset   string  `json:"dataset"`
	Users     int     `json:"users"`
	HR1       float64 `json:"hr@1"`
	HR5       float64 `json:"hr@5"`
	NDCG5     float64 `json:"ndcg@5"`
	NDCG10    float64 `json:"ndcg@10"`
	Mode      string  `json:"mode"`
	Scheduler string  `json:"scheduler"`
	LLMCalls  float64 `json:"llm_calls_per_user"`
	LLMTokens float64 `json:"llm_tokens_per_user"`
	// LLM is the cost per user of each LLM step (the paper's Figure 4);
	// LLMEndpoint names the endpoint or replay file, never a key.
	LLM         map[string]hostllm.PerUser `json:"llm,omitempty"`
	LLMEndpoint string                     `json:"llm_endpoint,omitempty"`
	// LLMOutcomes says, per step, how many answers were used and why the
	// others fell back.
	LLMOutcomes   map[string]stepOutcomes `json:"llm_outcomes,omitempty"`
	Skip          int                     `json:"skip,omitempty"`
	Ops           map[string]int          `json:"ops"`
	OpsShare      map[string]float64      `json:"ops_share"`
	OpsPerUser    map[string]float64      `json:"ops_per_user"`
	Baselines     map[string]rec.Scores   `json:"baselines"`
	Skipped       int                     `json:"skipped_users"`
	Ties          string                  `json:"ties"`
	Runtime       string                  `json:"runtime"`
	Seconds       float64                 `json:"seconds"`
	CatalogBytes  int                     `json:"catalog_bytes"`
	EventCapacity int                     `json:"event_cap"`
	// Responsiveness is the mean drop of a genre's share in the top 10
	// when the user's low ratings on it are streamed in (rec.Probe);
	// ResponsivenessDetail says over whom and from what.
	Responsiveness       float64        `json:"responsiveness"`
	ResponsivenessDetail Responsiveness `json:"responsiveness_detail"`
	// Split is recmem's figures on the four fifths of users used while
	// building it and on the held-out fifth (rec.HeldOut); BaselineSplits
	// the same for each baseline.
	Split          rec.Split            `json:"split"`
	BaselineSplits map[string]rec.Split `json:"baseline_splits"`
	// Peers names the files the outside models' scores came from.
	Peers     []string           `json:"peers,omitempty"`
	ValidFit  *rec.Scores        `json:"validation_fit,omitempty"`
	Weights   map[string]float64 `json:"weights,omitempty"`
	Factorial []rec.TierResult   `json:"factorial,omitempty"`
	// WithProfile counts the users ranked with a profile.
	WithProfile int `json:"users_with_profile"`
}

func runEvalRec(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval rec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "directory of the RecBole atomic files (required)")
	name := fs.String("dataset", "", "data set name, the files' common prefix (required)")
	mode := fs.String("mode", "retrospective", "retrospective (record all, maintain, rank) or evolving (one signal at a time)")
	sched := fs.String("scheduler", "fixed", "maintenance scheduler: fixed (every B signals) or planner")
	users := fs.Int("users", 0, "evaluate the first N users with a candidate list (0 = all)")
	skip := fs.Int("skip", 0, "leave out the first `N` users with a candidate list (a second split: tune on --skip 3000 --users 50, report on the first users)")
	native := fs.Bool("native", false, "run pkg/ natively instead of the .wasm module")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	catFile := fs.String("catalog", "", "use this catalog (from train catalog) instead of training one")
	saveCat := fs.String("save-catalog", "", "write the catalog this run trained to `FILE` (for a later run with --catalog)")
	eventCap := fs.Int("event-cap", rec.DefaultEventCap, "event memory capacity L_max given to reset (50 holds every Games-6k history)")
	workers := fs.Int("workers", 1, "plugin instances run in parallel")
	peers := fs.String("peers", "", "directory of NAME.MODEL.scores files from scripts/peers/recbole, read into the baselines")
	factorial := fs.Bool("factorial", false, "also run the tier study: the 8 combinations of ±event, ±preference, ±profile memory, weights learned for each (natively, retrospective memories; needs training, not --catalog)")
	lf := addLLMFlags(fs)
	var tf trainFlags
	tf.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *name == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem eval rec --data DIR --dataset NAME [--mode retrospective|evolving] [--scheduler fixed|planner] [--users N] [--native] [--json]")
		return 2
	}
	if *mode != "retrospective" && *mode != "evolving" {
		fmt.Fprintf(stderr, "recmem eval rec: --mode: want retrospective or evolving, got %q\n", *mode)
		return 2
	}
	if *sched != "fixed" && *sched != "planner" {
		fmt.Fprintf(stderr, "recmem eval rec: --scheduler: want fixed or planner, got %q\n", *sched)
		return 2
	}
	llmSet, err := lf.open()
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval rec:", err)
		return 2
	}
	defer llmSet.close()
	start := time.Now()
	say := progressTo(stderr, start)
	d, err := loadData(*data, *name, tf.convertDir, say)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval rec:", err)
		return 1
	}
	if *factorial && *catFile != "" {
		fmt.Fprintln(stderr, "recmem eval rec: --factorial learns weights on the validation split: drop --catalog")
		return 2
	}
	var catBytes []byte
	var base *rec.Baselines
	var trained *rec.Trained
	cfg := tf.config(say)
	cfg.EventCap = *eventCap
	if *catFile != "" {
		if catBytes, err = os.ReadFile(*catFile); err != nil {
			fmt.Fprintln(stderr, "recmem eval rec:", err)
			return 1
		}
		say("training the baselines on the test histories")
		base = rec.TrainBaselines(d.Test, len(d.Items), cfg.BPR, rec.TestRNG(cfg.Seed))
	} else {
		tr, err := rec.TrainCatalog(d, cfg)
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval rec:", err)
			return 1
		}
		catBytes, base, trained = tr.Catalog, tr.Baselines, tr
		if *saveCat != "" {
			if err := writeFileAtomic(*saveCat, catBytes); err != nil {
				fmt.Fprintln(stderr, "recmem eval rec:", err)
				return 1
			}
		}
	}
	if *skip < 0 {
		fmt.Fprintf(stderr, "recmem eval rec: --skip: want 0 or more, got %d\n", *skip)
		return 2
	}
	cases, skipped := rec.Cases(d.Test, d.Random, 0)
	cases = cases[min(*skip, len(cases)):]
	if *users > 0 && *users < len(cases) {
		cases = cases[:*users]
	}
	rep := evalReport{Dataset: d.Name, Users: len(cases), Mode: *mode, Scheduler: *sched, Skipped: skipped,
		Ties: "broken against the target (an equal score ranks above it)", Ops: map[string]int{}, OpsShare: map[string]float64{}, OpsPerUser: map[string]float64{},
		Baselines: map[string]rec.Scores{"random": rec.Expected(cases)}, CatalogBytes: len(catBytes), EventCapacity: *eventCap,
		Runtime: "wasm", Skip: *skip}
	if *native {
		rep.Runtime = "native"
	}
	scorers := base.Scorers()
	if *peers != "" {
		ps, err := rec.ReadPeers(*peers, d.Name)
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval rec:", err)
			return 1
		}
		for key, p := range ps {
			if scorers[key] != nil {
				fmt.Fprintf(stderr, "recmem eval rec: peers: %s would replace recmem's own baseline of that name\n", key)
				return 1
			}
			if scorers[key], err = p.Scorer(d, cases); err != nil {
				fmt.Fprintln(stderr, "recmem eval rec:", err)
				return 1
			}
			rep.Peers = append(rep.Peers, filepath.Join(*peers, d.Name+"."+key+".scores"))
		}
		slices.Sort(rep.Peers)
	}
	rep.BaselineSplits = map[string]rec.Split{}
	for n, s := range scorers {
		ranks := rec.Ranks(cases, s)
		var a rec.Accumulator
		for _, r := range ranks {
			a.Add(r)
		}
		rep.Baselines[n] = a.Scores()
		rep.BaselineSplits[n] = rec.SplitOf(cases, ranks)
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
	say(fmt.Sprintf("ranking %d users through the %s engine (%s, %s scheduler)", len(cases), rep.Runtime, *mode, *sched))
	run := userRun{d: d, mode: *mode, sched: *sched, eventCap: *eventCap, llm: llmSet}
	ranks, ops, resp, tally, err := run.all(context.Background(), cases, probes, catBytes, *native, *wasm, max(1, *workers), say)
	if err != nil {
		fmt.Fprintln(stderr, "recmem eval rec:", err)
		return 1
	}
	var acc rec.Accumulator
	for _, r := range ranks {
		acc.Add(r)
	}
	rep.Split = rec.SplitOf(cases, ranks)
	rep.Responsiveness, rep.ResponsivenessDetail = resp.Drop, resp
	if *factorial {
		say(fmt.Sprintf("tier study: building %d test memories natively", len(cases)))
		cat, err := catalog.Decode(catBytes)
		if err == nil {
			var test [][][]float64
			if test, err = rec.Vectors(d, cat, cases, *eventCap); err == nil {
				rep.Factorial = rec.Factorial(trained.ValidVectors, test, cases, cfg.Learn)
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, "recmem eval rec: factorial:", err)
			return 1
		}
	}
	s := acc.Scores()
	rep.HR1, rep.HR5, rep.NDCG5, rep.NDCG10 = s.HR1, s.HR5, s.NDCG5, s.NDCG10
	rep.WithProfile = ops[withProfile]
	delete(ops, withProfile)
	rep.Ops = ops
	total := 0
	for _, n := range ops {
		total += n
	}
	for op, n := range ops {
		rep.OpsShare[op] = float64(n) / float64(max(1, total))
		rep.OpsPerUser[op] = float64(n) / float64(max(1, len(cases)))
	}
	if llmSet.meter != nil {
		rep.LLM = llmSet.meter.PerUser(len(cases))
		// Sum integers, then divide: a float sum over a map would depend on
		// its iteration order.
		per, _ := llmSet.meter.Totals()
		calls, tokens := 0, 0
		for _, u := range per {
			calls += u.Calls
			tokens += u.InputTokens + u.OutputTokens
		}
		rep.LLMCalls = float64(calls) / float64(max(1, len(cases)))
		rep.LLMTokens = float64(tokens) / float64(max(1, len(cases)))
		rep.LLMEndpoint = lf.spec
		rep.LLMOutcomes = tally.report()
	}
	rep.Seconds = time.Since(start).Seconds()
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	printReport(stdout, rep)
	return 0
}

func printReport(w io.Writer, r evalReport) {
	fmt.Fprintf(w, "%s: %d users (%d skipped: target in their random list), 1 + 9 candidates, %s mode, %s scheduler, %s\n",
		r.Dataset, r.Users, r.Skipped, r.Mode, r.Scheduler, r.Runtime)
	fmt.Fprintf(w, "ties %s\n\n", r.Ties)
	fmt.Fprintf(w, "%-12s %7s %7s %8s %8s\n", "ranker", "HR@1", "HR@5", "NDCG@5", "NDCG@10")
	row := func(n string, s rec.Scores) {
		fmt.Fprintf(w, "%-12s %7.4f %7.4f %8.4f %8.4f\n", n, s.HR1, s.HR5, s.NDCG5, s.NDCG10)
	}
	names := []string{"random", "pop", "itemknn", "bpr"}
	for _, n := range slices.Sorted(maps.Keys(r.Baselines)) {
		if !slices.Contains(names, n) {
			names = append(names, n) // the peers read with --peers
		}
	}
	for _, n := range names {
		row(n, r.Baselines[n])
	}
	row("recmem", rec.Scores{HR1: r.HR1, HR5: r.HR5, NDCG5: r.NDCG5, NDCG10: r.NDCG10})
	fmt.Fprintf(w, "\nHR@1 on the %d users used while building / the %d held out:", r.Split.DevUsers, r.Split.HeldOutUsers)
	for _, n := range append(names[1:], "recmem") {
		sp, ok := r.BaselineSplits[n]
		if n == "recmem" {
			sp, ok = r.Split, true
		}
		if ok {
			fmt.Fprintf(w, " %s %.4f/%.4f", n, sp.Dev.HR1, sp.HeldOut.HR1)
		}
	}
	fmt.Fprintln(w)
	if d := r.ResponsivenessDetail; d.Users > 0 {
		fmt.Fprintf(w, "responsiveness %.4f: over %d users with %d+ low ratings on a genre, its share of the top %d went from %.4f to %.4f (fell for %d, rose for %d)\n",
			r.Responsiveness, d.Users, rec.MinLow, rec.TopK, d.Before, d.After, d.Fell, d.Rose)
	} else {
		fmt.Fprintln(w, "responsiveness: no user has low ratings on a genre (not measured)")
	}
	if len(r.Factorial) > 0 {
		fmt.Fprintf(w, "\ntier study (weights learned per combination; test, then held-out fifth):\n%-28s %7s %8s %10s %10s\n", "tiers", "HR@1", "NDCG@10", "HR@1 h/o", "valid HR@1")
		for _, t := range r.Factorial {
			fmt.Fprintf(w, "%-28s %7.4f %8.4f %10.4f %10.4f\n", t.Name(), t.Test.HR1, t.Test.NDCG10, t.Split.HeldOut.HR1, t.Valid.HR1)
		}
	}
	fmt.Fprintf(w, "\n%d of %d users ranked with a profile\n", r.WithProfile, r.Users)
	fmt.Fprintf(w, "LLM calls per user %.1f, tokens per user %.0f\n", r.LLMCalls, r.LLMTokens)
	for _, step := range slices.Sorted(maps.Keys(r.LLM)) {
		x := r.LLM[step]
		fmt.Fprintf(w, "  %-10s %.2f calls, %.0f input + %.0f output tokens per user\n", step, x.Calls, x.InputTokens, x.OutputTokens)
	}
	ops := make([]string, 0, len(r.Ops))
	for op := range r.Ops {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b string) int { return r.Ops[b] - r.Ops[a] })
	var parts []string
	for _, op := range ops {
		parts = append(parts, fmt.Sprintf("%s %d (%.0f%%)", op, r.Ops[op], 100*r.OpsShare[op]))
	}
	fmt.Fprintf(w, "lifecycle ops: %s\n", strings.Join(parts, ", "))
	printOutcomes(w, r.LLMOutcomes)
	fmt.Fprintf(w, "%.1fs\n", r.Seconds)
}

// userRun replays users' histories through the exports and ranks their
// candidates.
type userRun struct {
	d        *dataset.RecBole
	mode     string
	sched    string
	eventCap int
	llm      *llmSetup
}

// all runs every case on workers instances, each loading the catalog once.
func (u userRun) all(ctx context.Context, cases []rec.Case, probes map[int]rec.Probe, cat []byte, native bool, wasm string, workers int, say func(string)) ([]int, map[string]int, Responsiveness, outcomeTally, error) {
	ranks := make([]int, len(cases))
	opsPer := make([]map[string]int, len(cases))
	tallies := make([]outcomeTally, len(cases))
	before, after := make([]float64, len(cases)), make([]float64, len(cases))
	errs := make([]error, workers)
	var next, done int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, release, err := openCallerLLM(ctx, native, wasm, u.llm)
			if err != nil {
				errs[w] = err
				return
			}
			defer release()
			if _, err := c.Call("load_catalog", cat); err != nil {
				errs[w] = err
				return
			}
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(cases) {
					return
				}
				tallies[i] = outcomeTally{}
				r, ops, err := u.one(c, cases[i], tallies[i])
				if err != nil {
					errs[w] = fmt.Errorf("user %s: %w", cases[i].User, err)
					return
				}
				ranks[i], opsPer[i] = r, ops
				if p, ok := probes[i]; ok {
					if before[i], after[i], err = u.probe(c, p); err != nil {
						errs[w] = fmt.Errorf("user %s: responsiveness: %w", cases[i].User, err)
						return
					}
				}
				mu.Lock()
				done++
				if done%500 == 0 {
					say(fmt.Sprintf("%d/%d users", done, len(cases)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, Responsiveness{}, nil, err
		}
	}
	ops := map[string]int{}
	tally := outcomeTally{}
	var b, a []float64
	for i := range ranks {
		tally.merge(tallies[i])
		for op, n := range opsPer[i] {
			ops[op] += n
		}
		if _, ok := probes[i]; ok {
			b, a = append(b, before[i]), append(a, after[i])
		}
	}
	return ranks, ops, summarizeProbes(b, a), tally, nil
}

type recSignal struct {
	User   string              `json:"user"`
	Item   string              `json:"item"`
	Action string              `json:"action"`
	Rating int                 `json:"rating,omitempty"`
	Meta   map[string][]string `json:"meta,omitempty"`
	Time   int64               `json:"time"`
}

// recSignals is rec.Signals in the record export's JSON form.
func recSignals(d *dataset.RecBole, k rec.Case) []recSignal {
	sig := rec.Signals(d, k)
	out := make([]recSignal, len(sig))
	for i, g := range sig {
		out[i] = recSignal{User: g.User, Item: g.Item, Action: g.Action, Rating: g.Rating, Meta: g.Meta, Time: g.Time}
	}
	return out
}

// journalEntry is the part of a memory journal entry the ops count reads.
type journalEntry struct {
	Op     string   `json:"op"`
	Chunks []string `json:"chunks"`
}

// opsOut collects the journal entries of a record or maintain output.
type opsOut struct {
	LLM         []llm.Outcome  `json:"llm"`
	Ops         []journalEntry `json:"ops"`
	Fifo        []journalEntry `json:"fifo"`
	Maintenance struct {
		Ops []journalEntry `json:"ops"`
	} `json:"maintenance"`
	Summary struct {
		ProfileVersion int `json:"profile_version"`
		Mutations      int `json:"mutations_since_synthesis"`
	} `json:"summary"`
}

// count adds the lifecycle operations to into: one per journal entry, except
// the "extract" entry that closes an extraction batch without naming a chunk
// (the chunks it created have entries of their own).
func (o opsOut) count(into map[string]int) {
	for _, l := range [][]journalEntry{o.Ops, o.Fifo, o.Maintenance.Ops} {
		for _, e := range l {
			if e.Op == "extract" && len(e.Chunks) == 0 {
				continue
			}
			into[e.Op]++
		}
	}
}

// withProfile counts, among a user's ops, whether the user was ranked with a
// profile; runEvalRec takes it out of the ops into users_with_profile.
const withProfile = "\x00profile"

// one replays one user's history and returns the target's rank.
func (u userRun) one(c engine.Caller, k rec.Case, tally outcomeTally) (int, map[string]int, error) {
	ops := map[string]int{}
	if err := u.replay(c, k.User, recSignals(u.d, k), ops, tally); err != nil {
		return 0, nil, err
	}
	cands := make([]string, len(k.Candidates))
	for j, it := range k.Candidates {
		cands[j] = u.d.Items[it].ID
	}
	score, profile, err := rankWith(c, cands, tally)
	if err != nil {
		return 0, nil, err
	}
	if profile {
		ops[withProfile]++
	}
	scores := make([]float64, len(cands))
	for j, id := range cands {
		scores[j] = score[id]
	}
	return rec.TargetRank(scores, 0), ops, nil
}

// replay resets the instance's memory and records sigs in the run's mode,
// counting the lifecycle operations into ops and the LLM outcomes into tally.
func (u userRun) replay(c engine.Caller, user string, sigs []recSignal, ops map[string]int, tally outcomeTally) error {
	reset, _ := json.Marshal(map[string]any{"config": map[string]any{"event_cap": u.eventCap}})
	if _, err := c.Call("reset", reset); err != nil {
		return err
	}
	return u.stream(c, sigs, ops, tally)
}

// stream records sigs into the current memory in the run's mode:
// retrospective (all at once, one forced maintenance, and a synthesis if the
// profile lags) or evolving (one at a time with the scheduler).
func (u userRun) stream(c engine.Caller, sigs []recSignal, ops map[string]int, tally outcomeTally) error {
	var last opsOut
	call := func(export string, in any) error {
		b, _ := json.Marshal(in)
		out, err := c.Call(export, b)
		if err != nil {
			return err
		}
		last = opsOut{}
		if err := json.Unmarshal(out, &last); err != nil {
			return fmt.Errorf("%s output: %w", export, err)
		}
		last.count(ops)
		tally.add(last.LLM)
		return nil
	}
	if u.mode == "retrospective" {
		if err := call("record", map[string]any{"signals": sigs, "maintain": "none"}); err != nil {
			return err
		}
		if err := call("maintain", map[string]any{"scheduler": u.sched, "force": true}); err != nil {
			return err
		}
		// The paper always synthesizes a profile in retrospective mode.
		if s := last.Summary; s.ProfileVersion == 0 || s.Mutations > 0 {
			in := map[string]any{"trigger": "planner", "ops": []map[string]string{{"op": "synthesize", "reason": rec.SynthesizeReason}}}
			if err := call("apply_ops", in); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range sigs {
		if err := call("record", map[string]any{"signals": []recSignal{s}, "maintain": u.sched}); err != nil {
			return err
		}
	}
	return nil
}

// rankScores ranks ids with the current memory and returns their scores.
func rankScores(c engine.Caller, ids []string, tally outcomeTally) (map[string]float64, error) {
	score, _, err := rankWith(c, ids, tally)
	return score, err
}

// rankWith is rankScores, also saying whether the ranker read a profile.
func rankWith(c engine.Caller, ids []string, tally outcomeTally) (map[string]float64, bool, error) {
	in, _ := json.Marshal(map[string]any{"candidates": ids})
	out, err := c.Call("rank", in)
	if err != nil {
		return nil, false, err
	}
	var res struct {
		LLM     []llm.Outcome `json:"llm"`
		Context struct {
			Profile bool `json:"profile"`
		} `json:"context"`
		Ranking []struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, false, fmt.Errorf("rank output: %w", err)
	}
	tally.add(res.LLM)
	score := make(map[string]float64, len(res.Ranking))
	for _, r := range res.Ranking {
		score[r.ID] = r.Score
	}
	return score, res.Context.Profile, nil
}
