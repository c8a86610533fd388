package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["eval instructions"] = command{
		summary: "how well ranked lists obey typed instructions: recmem eval instructions [--catalog FILE] [--json]",
		run:     runEvalInstructions,
	}
}

// kindScores are one kind's (or one split's) figures.
type kindScores struct {
	Cases       int     `json:"cases"`
	Lists       int     `json:"lists"`
	P10         float64 `json:"p10"`
	Perfect     float64 `json:"perfect"`
	BaselineP10 float64 `json:"baseline_p10"`
	BaselinePer float64 `json:"baseline_perfect"`
	Relaxed     int     `json:"relaxed"`
}

// instrScores accumulate kindScores.
type instrScores struct {
	cases                 map[string]bool
	lists                 int
	p10, perfect, bp, bpf float64
	relaxed               int
}

func (a *instrScores) add(id string, p, b float64, relaxed bool) {
	if a.cases == nil {
		a.cases = map[string]bool{}
	}
	a.cases[id] = true
	a.lists++
	a.p10 += p
	a.bp += b
	if p == 1 {
		a.perfect++
	}
	if b == 1 {
		a.bpf++
	}
	if relaxed {
		a.relaxed++
	}
}

func (a *instrScores) scores() kindScores {
	n := float64(max(a.lists, 1))
	r := func(x float64) float64 { return float64(int64(x/n*10000+0.5)) / 10000 }
	return kindScores{Cases: len(a.cases), Lists: a.lists, P10: r(a.p10), Perfect: r(a.perfect), BaselineP10: r(a.bp), BaselinePer: r(a.bpf), Relaxed: a.relaxed}
}

// instrReport is the JSON output of eval instructions. The top-level figures
// are over the cases of --split; dev and heldout break them down.
type instrReport struct {
	Cases         int                   `json:"cases"`
	Lists         int                   `json:"lists"`
	P10           float64               `json:"p10"`
	Perfect       float64               `json:"perfect"`
	BaselineP10   float64               `json:"baseline_p10"`
	Relaxed       float64               `json:"relaxed"`
	RelaxedLists  int                   `json:"relaxed_lists"`
	UnknownRate   float64               `json:"unknown_rate"`
	ByKind        map[string]kindScores `json:"by_kind"`
	ByUser        map[string]kindScores `json:"by_user"`
	Dev           *kindScores           `json:"dev,omitempty"`
	HeldOut       *kindScores           `json:"heldout,omitempty"`
	HR1Instructed *float64              `json:"hr@1_instructed"`
	HR1Plain      *float64              `json:"hr@1_plain"`
	TargetAware   *targetReport         `json:"target_aware,omitempty"`
	Split         string                `json:"split"`
	Catalog       string                `json:"catalog"`
	Candidates    int                   `json:"candidates"`
	Seconds       float64               `json:"seconds"`
	Failures      []instrFailure        `json:"failures,omitempty"`
}

// instrFailure is one development list that broke its instruction (never
// listed for held-out cases).
type instrFailure struct {
	ID          string   `json:"id"`
	User        string   `json:"user"`
	Instruction string   `json:"instruction"`
	P10         float64  `json:"p10"`
	Understood  string   `json:"understood"`
	Violating   []string `json:"violating"`
}

// targetReport is the target-aware check on Games-6k's 1+9 protocol.
type targetReport struct {
	Users         int        `json:"users"`
	Skipped       int        `json:"skipped_no_facet"`
	HR1Instructed float64    `json:"hr@1_instructed"`
	HR1Plain      float64    `json:"hr@1_plain"`
	Dev           [2]float64 `json:"dev"`
	HeldOut       [2]float64 `json:"heldout"`
	DevUsers      int        `json:"dev_users"`
	HeldOutUsers  int        `json:"heldout_users"`
	Ranker        string     `json:"ranker"`
}

// rankerSpec is web/catalog/games-ranker.json: how the page turns the demo
// catalog into the ranker's catalog.
type rankerSpec struct {
	Comment   string                     `json:"comment"`
	MetaNames []string                   `json:"meta_names"`
	Weights   map[string]json.RawMessage `json:"weights"`
}

// demoRankerCatalog builds the JSON catalog the page loads from demo items,
// the ranker spec and the intent table, as web/app/games.js does.
func demoRankerCatalog(items []DemoItem, spec rankerSpec, table json.RawMessage, dataset string) ([]byte, error) {
	type item struct {
		ID   string   `json:"id"`
		Meta []string `json:"meta"`
		Pop  int      `json:"pop"`
	}
	out := struct {
		Format    string                     `json:"format"`
		Version   int                        `json:"version"`
		Dataset   string                     `json:"dataset"`
		MetaNames []string                   `json:"meta_names"`
		Dim       int                        `json:"dim"`
		Items     []item                     `json:"items"`
		Weights   map[string]json.RawMessage `json:"weights"`
		Intent    json.RawMessage            `json:"intent,omitempty"`
	}{Format: "recmem.catalog", Version: 1, Dataset: dataset, MetaNames: spec.MetaNames, Weights: spec.Weights, Intent: table}
	for _, it := range items {
		f := it.fields()
		m := make([]string, len(spec.MetaNames))
		for k, n := range spec.MetaNames {
			m[k] = f[n]
		}
		out.Items = append(out.Items, item{ID: it.ID, Meta: m, Pop: it.Popularity})
	}
	return json.Marshal(out)
}

// fields is a demo item's metadata by name.
func (it DemoItem) fields() map[string]string {
	return map[string]string{"title": it.Title, "platform": it.Platform, "kind": it.Kind, "format": it.Format, "series": it.Series}
}

func readDemoItems(path string) ([]DemoItem, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c DemoCatalog
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(c.Items) == 0 {
		return nil, fmt.Errorf("%s: no items", path)
	}
	return c.Items, nil
}

// rankOut is what eval instructions reads of rank's output.
type rankOut struct {
	Ranking []struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	} `json:"ranking"`
	Relaxed    []json.RawMessage `json:"relaxed"`
	Understood *struct {
		Unknown []string `json:"unknown"`
	} `json:"understood"`
}

func call(e *engine.Engine, name string, in any) ([]byte, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	out, err := e.Call(name, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func rankCall(e *engine.Engine, cands []any, instruction *string, k int) (*rankOut, []byte, error) {
	in := map[string]any{"candidates": cands, "k": k}
	if instruction != nil {
		in["instruction"] = *instruction
	}
	b, err := call(e, "rank", in)
	if err != nil {
		return nil, nil, err
	}
	var out rankOut
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, nil, err
	}
	return &out, b, nil
}

func runEvalInstructions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval instructions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	catFile := fs.String("catalog", "", "the demo catalog the cases run on (default web/catalog/games-demo.json)")
	specFile := fs.String("ranker", "", "how the page builds the ranker's catalog (default games-ranker.json beside the catalog)")
	tableFile := fs.String("intent", "", "the interpreter's table for the domain (default games-intent.json beside the catalog)")
	casesDir := fs.String("cases", "", "directory of *.jsonl cases (default testdata/instructions)")
	split := fs.String("split", "all", "which cases and users: dev, heldout (set aside before tuning) or all")
	histN := fs.Int("history", 8, "items in the history of the user who pulls against the instruction")
	data := fs.String("data", "", "Games-6k directory for the target-aware check (default: found like demo-catalog; \"none\" skips it)")
	users := fs.Int("users", 0, "target-aware check: the first N users of the split (0 = all)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	failures := fs.Bool("failures", false, "list the development lists that broke their instruction")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (*split != "all" && *split != "dev" && *split != "heldout") {
		fmt.Fprintln(stderr, "usage: recmem eval instructions [--catalog FILE] [--split all|dev|heldout] [--data DIR|none] [--json]")
		return 2
	}
	start := time.Now()
	say := progressTo(stderr, start)
	fail := func(err error) int {
		fmt.Fprintln(stderr, "recmem eval instructions:", err)
		return 1
	}
	if *catFile == "" {
		*catFile = findUp("web/catalog/games-demo.json")
	}
	dir := filepath.Dir(*catFile)
	if *specFile == "" {
		*specFile = filepath.Join(dir, "games-ranker.json")
	}
	if *tableFile == "" {
		*tableFile = filepath.Join(dir, "games-intent.json")
	}
	if *casesDir == "" {
		*casesDir = findUp("testdata/instructions")
	}
	items, err := readDemoItems(*catFile)
	if err != nil {
		return fail(err)
	}
	var spec rankerSpec
	b, err := os.ReadFile(*specFile)
	if err == nil {
		err = json.Unmarshal(b, &spec)
	}
	if err != nil {
		return fail(fmt.Errorf("--ranker: %w", err))
	}
	table, err := os.ReadFile(*tableFile)
	if err != nil {
		return fail(fmt.Errorf("--intent: %w", err))
	}
	cases, err := readCaseDir(*casesDir)
	if err != nil {
		return fail(err)
	}
	catJSON, err := demoRankerCatalog(items, spec, table, "games-demo")
	if err != nil {
		return fail(err)
	}
	e := engine.New()
	if _, err := e.Call("load_catalog", catJSON); err != nil {
		return fail(err)
	}
	byID := map[string]map[string]string{}
	order := make([]DemoItem, len(items))
	copy(order, items)
	sort.SliceStable(order, func(a, b int) bool {
		if order[a].Popularity != order[b].Popularity {
			return order[a].Popularity > order[b].Popularity
		}
		return numLess(order[a].ID, order[b].ID)
	})
	for _, it := range items {
		byID[it.ID] = it.fields()
	}
	rep := instrReport{Split: *split, Catalog: *catFile, ByKind: map[string]kindScores{}, ByUser: map[string]kindScores{}}
	var all, dev, held instrScores
	kinds := map[string]*instrScores{}
	usersAcc := map[string]*instrScores{}
	unknown := 0
	// candidates are the page's: the most popular items not acted on, at
	// most 1000.
	candidates := func(skip map[string]bool) []any {
		var out []any
		for _, it := range order {
			if len(out) == 1000 {
				break
			}
			if !skip[it.ID] {
				out = append(out, it.ID)
			}
		}
		return out
	}
	share := func(ids []string, g *rec.Gold) (float64, []string) {
		if len(ids) == 0 {
			return 0, nil
		}
		n := 0
		var bad []string
		for _, id := range ids {
			if g.Holds(byID[id]) {
				n++
			} else {
				bad = append(bad, byID[id]["title"])
			}
		}
		return float64(n) / float64(len(ids)), bad
	}
	idsOf := func(o *rankOut) []string {
		var ids []string
		for _, r := range o.Ranking {
			ids = append(ids, r.ID)
		}
		return ids
	}
	var newBase []string
	ran := 0
	for _, c := range cases {
		h := rec.HeldOut(c.ID)
		if (*split == "dev" && h) || (*split == "heldout" && !h) {
			continue
		}
		ran++
		if ran%50 == 0 {
			say(fmt.Sprintf("%d cases", ran))
		}
		for _, who := range []string{"new", "against"} {
			if _, err := call(e, "reset", map[string]any{"config": map[string]any{"event_cap": 50}}); err != nil {
				return fail(err)
			}
			skip := map[string]bool{}
			if who == "against" {
				// A history that pulls against the instruction: the most
				// popular items that break it, liked one day apart.
				var sigs []any
				for _, it := range order {
					if len(sigs) == *histN {
						break
					}
					if c.Gold.Holds(it.fields()) {
						continue
					}
					skip[it.ID] = true
					meta := map[string][]string{}
					for k, v := range it.fields() {
						if v != "" && k != "format" {
							meta[k] = []string{v}
						}
					}
					sigs = append(sigs, map[string]any{"user": "u", "item": it.ID, "action": "like", "meta": meta, "time": rec.Epoch + int64(len(sigs))*86400})
				}
				if len(sigs) > 0 {
					if _, err := call(e, "record", map[string]any{"signals": sigs, "maintain": "none"}); err != nil {
						return fail(err)
					}
					if _, err := call(e, "maintain", map[string]any{"scheduler": "fixed", "force": true}); err != nil {
						return fail(err)
					}
				}
			}
			cands := candidates(skip)
			instr := c.Instruction
			with, _, err := rankCall(e, cands, &instr, 10)
			if err != nil {
				return fail(fmt.Errorf("case %s: %w", c.ID, err))
			}
			var base []string
			if who == "new" && newBase != nil {
				base = newBase
			} else {
				plain, _, err := rankCall(e, cands, nil, 10)
				if err != nil {
					return fail(err)
				}
				base = idsOf(plain)
				if who == "new" {
					newBase = base
				}
			}
			p, bad := share(idsOf(with), c.Gold)
			bp, _ := share(base, c.Gold)
			relaxed := len(with.Relaxed) > 0
			all.add(c.ID, p, bp, relaxed)
			if h {
				held.add(c.ID, p, bp, relaxed)
			} else {
				dev.add(c.ID, p, bp, relaxed)
				if *failures && p < 1 {
					rep.Failures = append(rep.Failures, instrFailure{ID: c.ID, User: who, Instruction: c.Instruction, P10: p, Violating: bad})
				}
			}
			if kinds[c.Kind] == nil {
				kinds[c.Kind] = &instrScores{}
			}
			kinds[c.Kind].add(c.ID, p, bp, relaxed)
			if usersAcc[who] == nil {
				usersAcc[who] = &instrScores{}
			}
			usersAcc[who].add(c.ID, p, bp, relaxed)
			if who == "new" && with.Understood != nil && len(with.Understood.Unknown) > 0 {
				unknown++
			}
		}
	}
	s := all.scores()
	rep.Cases, rep.Lists, rep.P10, rep.Perfect, rep.BaselineP10, rep.RelaxedLists = s.Cases, s.Lists, s.P10, s.Perfect, s.BaselineP10, s.Relaxed
	rep.Relaxed = float64(int64(float64(s.Relaxed)/float64(max(s.Lists, 1))*10000+0.5)) / 10000
	rep.UnknownRate = float64(int64(float64(unknown)/float64(max(s.Cases, 1))*10000+0.5)) / 10000
	for k, a := range kinds {
		rep.ByKind[k] = a.scores()
	}
	for k, a := range usersAcc {
		rep.ByUser[k] = a.scores()
	}
	if dev.lists > 0 {
		d := dev.scores()
		rep.Dev = &d
	}
	if held.lists > 0 {
		d := held.scores()
		rep.HeldOut = &d
	}
	rep.Candidates = min(1000, len(order))
	if *data != "none" {
		if *data == "" {
			if *data, err = findGames6k(); err != nil {
				return fail(fmt.Errorf("%w (or --data none to skip the target-aware check)", err))
			}
		}
		say("target-aware check on Games-6k (1 + 9 candidates)")
		ta, err := targetAware(*data, spec, table, *split, *users, say)
		if err != nil {
			return fail(err)
		}
		rep.TargetAware = ta
		rep.HR1Instructed, rep.HR1Plain = &ta.HR1Instructed, &ta.HR1Plain
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
	printInstrReport(stdout, &rep)
	return 0
}

func printInstrReport(w io.Writer, r *instrReport) {
	fmt.Fprintf(w, "instructions (%s split): %d cases, %d lists (a new user and one whose history pulls against each), %d candidates\n", r.Split, r.Cases, r.Lists, r.Candidates)
	fmt.Fprintf(w, "  p10 %.4f (without the instruction %.4f)  perfect %.4f  relaxed %d lists  unknown words in %.1f%% of cases\n", r.P10, r.BaselineP10, r.Perfect, r.RelaxedLists, 100*r.UnknownRate)
	for _, k := range rec.InstructionKinds {
		if s, ok := r.ByKind[k]; ok {
			fmt.Fprintf(w, "  %-10s %3d cases  p10 %.4f  baseline %.4f  perfect %.4f\n", k, s.Cases, s.P10, s.BaselineP10, s.Perfect)
		}
	}
	for _, k := range []string{"new", "against"} {
		if s, ok := r.ByUser[k]; ok {
			fmt.Fprintf(w, "  user %-8s p10 %.4f  baseline %.4f  perfect %.4f\n", k, s.P10, s.BaselineP10, s.Perfect)
		}
	}
	if r.Dev != nil {
		fmt.Fprintf(w, "  dev      %3d cases  p10 %.4f  baseline %.4f  perfect %.4f\n", r.Dev.Cases, r.Dev.P10, r.Dev.BaselineP10, r.Dev.Perfect)
	}
	if r.HeldOut != nil {
		fmt.Fprintf(w, "  held-out %3d cases  p10 %.4f  baseline %.4f  perfect %.4f\n", r.HeldOut.Cases, r.HeldOut.P10, r.HeldOut.BaselineP10, r.HeldOut.Perfect)
	}
	if t := r.TargetAware; t != nil {
		fmt.Fprintf(w, "target-aware (Games-6k 1+9, %s): %d users  hr@1 instructed %.4f  plain %.4f  (dev %.4f / %.4f, held-out %.4f / %.4f)\n",
			t.Ranker, t.Users, t.HR1Instructed, t.HR1Plain, t.Dev[0], t.Dev[1], t.HeldOut[0], t.HeldOut[1])
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "  FAIL %s (%s user) %q p10 %.1f: %s\n", f.ID, f.User, f.Instruction, f.P10, strings.Join(f.Violating, " | "))
	}
	fmt.Fprintf(w, "%.1fs\n", r.Seconds)
}

func numLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func readCaseDir(dir string) ([]rec.InstructionCase, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.jsonl cases in %s", dir)
	}
	sort.Strings(paths)
	var out []rec.InstructionCase
	seen := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		cs, err := rec.ReadInstructionCases(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, c := range cs {
			if f, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%s: id %q already in %s", p, c.ID, f)
			}
			seen[c.ID] = p
		}
		out = append(out, cs...)
	}
	return out, nil
}

// targetTemplates are the instructions of the target-aware check, written
// for this check (a user names one facet of what they want next).
var targetTemplates = map[string][]string{
	"platform": {"something for my %s", "I play on %s", "%s games please", "only %s", "anything on %s", "I'm gaming on the %s these days"},
	"series":   {"more %s please", "I'm in the mood for %s", "%s games", "something from the %s series", "I want to play %s", "got any %s?"},
}

// targetAware runs Games-6k's 1+9 protocol with the demo ranker over every
// titled item (platform and series derived from titles as demo-catalog
// does), for each test user whose target has a platform or series, ranking
// with and without an instruction naming it.
func targetAware(dir string, spec rankerSpec, table []byte, split string, limit int, say func(string)) (*targetReport, error) {
	ds, err := dataset.LoadRecBole(dir, "Games-6k")
	if err != nil {
		return nil, err
	}
	demo := buildDemoCatalog(ds, 0)
	derived := map[string]DemoItem{}
	for _, it := range demo.Items {
		derived[it.ID] = it
	}
	// Every item, titled or not, so that every candidate is known.
	all := make([]DemoItem, len(ds.Items))
	for i, it := range ds.Items {
		if d, ok := derived[it.ID]; ok {
			all[i] = d
		} else {
			all[i] = DemoItem{ID: it.ID, Kind: "game", Format: "physical"}
		}
	}
	catJSON, err := demoRankerCatalog(all, spec, table, "Games-6k")
	if err != nil {
		return nil, err
	}
	e := engine.New()
	if _, err := e.Call("load_catalog", catJSON); err != nil {
		return nil, err
	}
	cases, _ := rec.Cases(ds.Test, ds.Random, 0)
	rep := &targetReport{Ranker: "demo weights over all Games-6k items, no collaborative factors"}
	var hits [2][2]float64 // [dev, heldout][instructed, plain]
	var n [2]int
	for _, c := range cases {
		h := rec.HeldOut(c.User)
		if (split == "dev" && h) || (split == "heldout" && !h) {
			continue
		}
		if limit > 0 && n[0]+n[1] >= limit {
			break
		}
		t := all[c.Target]
		hash := fnv.New32a()
		hash.Write([]byte(c.User))
		x := hash.Sum32()
		facet, value := "platform", t.Platform
		if t.Series != "" && (t.Platform == "" || x%2 == 0) {
			facet, value = "series", t.Series
		}
		if value == "" {
			rep.Skipped++
			continue
		}
		tpl := targetTemplates[facet]
		instr := fmt.Sprintf(tpl[(x/2)%uint32(len(tpl))], value)
		if _, err := call(e, "reset", map[string]any{"config": map[string]any{"event_cap": 50}}); err != nil {
			return nil, err
		}
		var sigs []any
		for k, it := range c.History {
			meta := map[string][]string{}
			for f, v := range all[it].fields() {
				if v != "" && f != "format" && !(f == "kind" && v == "game") {
					meta[f] = []string{v}
				}
			}
			sigs = append(sigs, map[string]any{"user": c.User, "item": ds.Items[it].ID, "action": "purchase", "meta": meta, "time": rec.Epoch + int64(k)*86400})
		}
		if len(sigs) > 0 {
			if _, err := call(e, "record", map[string]any{"signals": sigs, "maintain": "none"}); err != nil {
				return nil, err
			}
			if _, err := call(e, "maintain", map[string]any{"scheduler": "fixed", "force": true}); err != nil {
				return nil, err
			}
		}
		cands := make([]any, len(c.Candidates))
		for k, it := range c.Candidates {
			cands[k] = ds.Items[it].ID
		}
		target := ds.Items[c.Target].ID
		hit := func(instruction *string) (float64, error) {
			o, _, err := rankCall(e, cands, instruction, 0)
			if err != nil {
				return 0, err
			}
			// Ties are broken against the target: it is first only if
			// every other listed candidate scores strictly less.
			var ts float64
			found := false
			for _, r := range o.Ranking {
				if r.ID == target {
					ts, found = r.Score, true
				}
			}
			if !found {
				return 0, nil
			}
			for _, r := range o.Ranking {
				if r.ID != target && r.Score >= ts {
					return 0, nil
				}
			}
			return 1, nil
		}
		s := 0
		if h {
			s = 1
		}
		a, err := hit(&instr)
		if err != nil {
			return nil, err
		}
		b, err := hit(nil)
		if err != nil {
			return nil, err
		}
		hits[s][0] += a
		hits[s][1] += b
		n[s]++
		if (n[0]+n[1])%1000 == 0 {
			say(fmt.Sprintf("%d users", n[0]+n[1]))
		}
	}
	r4 := func(x float64, d int) float64 { return float64(int64(x/float64(max(d, 1))*10000+0.5)) / 10000 }
	rep.Users, rep.DevUsers, rep.HeldOutUsers = n[0]+n[1], n[0], n[1]
	rep.HR1Instructed = r4(hits[0][0]+hits[1][0], n[0]+n[1])
	rep.HR1Plain = r4(hits[0][1]+hits[1][1], n[0]+n[1])
	rep.Dev = [2]float64{r4(hits[0][0], n[0]), r4(hits[0][1], n[0])}
	rep.HeldOut = [2]float64{r4(hits[1][0], n[1]), r4(hits[1][1], n[1])}
	return rep, nil
}
