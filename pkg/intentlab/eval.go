package intentlab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rec"
)

// DefaultHistory is how many items the user who pulls against an
// instruction has liked.
const DefaultHistory = 8

// Options configure Evaluate and TargetAware. The zero value runs every case
// and every user with the defaults, silently.
type Options struct {
	// Split is which cases and Games-6k users run: "dev", "heldout" (set
	// aside before any tuning: Case.HeldOut for cases, rec.HeldOut for
	// users) or "all"; "" is "all".
	Split string
	// History is how many items the user who pulls against the instruction
	// has liked: the most popular that break it. 0 means DefaultHistory.
	History int
	// Failures lists the development lists that broke their instruction
	// (Report.Failures; never held-out ones).
	Failures bool
	// Users bounds TargetAware to the first Users users of the split; 0 (or
	// less) means all of them.
	Users int
	// Candidates is how many candidates each case ranks on a catalog asset
	// (SampleCandidates); 0 means PageCandidates. The page's catalog always
	// ranks the page's candidates.
	Candidates int
	// Seed seeds the candidates drawn from a catalog asset; 0 means 1.
	Seed uint64
	// Progress, when set, is told how far a run has come.
	Progress func(string)
}

// split is o.Split checked, "" read as "all".
func (o Options) split() (string, error) {
	switch o.Split {
	case "", "all":
		return "all", nil
	case "dev", "heldout":
		return o.Split, nil
	}
	return "", fmt.Errorf("intentlab: split: %q is not dev, heldout or all", o.Split)
}

// keeps says whether split runs an id that is (or is not) held out.
func keeps(split string, heldOut bool) bool {
	return !(split == "dev" && heldOut) && !(split == "heldout" && !heldOut)
}

func (o Options) progress(s string) {
	if o.Progress != nil {
		o.Progress(s)
	}
}

// Report is what Evaluate measured (the JSON output of recmem eval
// instructions). The top-level figures are over the cases of the split; dev
// and heldout break them down. The command fills Catalog, Seconds and, with
// AddTargetAware, the target-aware check.
type Report struct {
	Cases        int     `json:"cases"`
	Lists        int     `json:"lists"`
	P10          float64 `json:"p10"`
	P10Strict    float64 `json:"p10_strict"`
	Perfect      float64 `json:"perfect"`
	BaselineP10  float64 `json:"baseline_p10"`
	Relaxed      float64 `json:"relaxed"`
	RelaxedLists int     `json:"relaxed_lists"`
	UnknownRate  float64 `json:"unknown_rate"`
	// WithUnknown are the figures of the cases whose instruction the
	// LLM-free interpreter left words of unknown: the only cases the parse
	// step asks a model about (nil when there are none).
	WithUnknown   *Scores           `json:"with_unknown,omitempty"`
	ByKind        map[string]Scores `json:"by_kind"`
	ByUser        map[string]Scores `json:"by_user"`
	Dev           *Scores           `json:"dev,omitempty"`
	HeldOut       *Scores           `json:"heldout,omitempty"`
	HR1Instructed *float64          `json:"hr@1_instructed"`
	HR1Plain      *float64          `json:"hr@1_plain"`
	TargetAware   *TargetReport     `json:"target_aware,omitempty"`
	Split         string            `json:"split"`
	Catalog       string            `json:"catalog"`
	Candidates    int               `json:"candidates"`
	Pool          string            `json:"pool"`
	Seconds       float64           `json:"seconds"`
	Failures      []Failure         `json:"failures,omitempty"`
	// LLMOutcomes counts, per LLM step, what became of the model's answers
	// to the ranked lists with an instruction (as recmem eval rec's
	// llm_outcomes): nil when no step asked a model.
	LLMOutcomes map[string]rec.StepOutcomes `json:"llm_outcomes,omitempty"`
}

// AddTargetAware puts t in r, its HR@1 figures at the top level too.
func (r *Report) AddTargetAware(t *TargetReport) {
	r.TargetAware = t
	r.HR1Instructed, r.HR1Plain = &t.HR1Instructed, &t.HR1Plain
}

// Failure is one development list that broke its instruction, or left
// empty slots that candidates meeting it could have filled: its strict p@10,
// how it was understood, and the titles that break the case (or why the
// list failed an unconstrained case, in brackets).
type Failure struct {
	ID          string   `json:"id"`
	User        string   `json:"user"`
	Instruction string   `json:"instruction"`
	P10         float64  `json:"p10"`
	P10Strict   float64  `json:"p10_strict"`
	Understood  string   `json:"understood"`
	Violating   []string `json:"violating"`
}

// Users are the two users each case is ranked for: a new user, and one whose
// history pulls against the instruction.
var Users = []string{"new", "against"}

// Evaluate ranks each case of the split on cat, loaded into the engine
// behind x, for each of Users, with and without the instruction, and
// reports the share of each top 10 that meets the case's gold predicate.
//
// The candidates: on the page's catalog, the page's (the PageCandidates most
// popular items the user has not acted on); on a catalog asset, which has no
// page, a pool drawn for each case (SampleCandidates: o.Candidates items, up
// to 10 of them meeting the case, seeded by o.Seed and the case id) less the
// items the user has acted on.
// The user who pulls against a case has liked the o.History most popular
// items of the catalog that break it.
//
// A case whose gold has an "unconstrained" part (a price on a catalog
// without prices) is met by a list only when the output says so: each of its
// words appears in one of understood.notes (ignoring case; "price" is in
// "this catalog has no prices"), and, when the gold is nothing else, the
// instruction kept every candidate and relaxed nothing. A list that fails
// this meets it nowhere; a list ranked without the instruction never does.
//
// Cost: per case, two resets, a history of o.History signals and a forced
// maintenance, and three rank calls over the candidates (four on an asset:
// the new user's plain list is ranked once per run on the page's catalog,
// once per case on an asset).
func Evaluate(x engine.Caller, cat Catalog, cases []Case, o Options) (*Report, error) {
	split, err := o.split()
	if err != nil {
		return nil, err
	}
	if o.Candidates < 0 {
		return nil, fmt.Errorf("intentlab: candidates: want at least 1, got %d", o.Candidates)
	}
	if err := cat.load(x); err != nil {
		return nil, err
	}
	ev := evaluation{x: x, o: o, asset: cat.Asset(), order: popular(cat.Items), fields: map[string]map[string]string{}, outcomes: rec.Outcomes{},
		kinds: map[string]*Tally{}, kindsDev: map[string]*Tally{}, kindsHO: map[string]*Tally{}, users: map[string]*Tally{}}
	if ev.o.History == 0 {
		ev.o.History = DefaultHistory
	}
	if ev.o.Candidates == 0 {
		ev.o.Candidates = PageCandidates
	}
	if ev.o.Seed == 0 {
		ev.o.Seed = 1
	}
	for _, it := range cat.Items {
		ev.fields[it.ID] = it.Fields
	}
	ran := 0
	for _, c := range cases {
		if !keeps(split, c.HeldOut()) {
			continue
		}
		ran++
		if ran%50 == 0 {
			o.progress(fmt.Sprintf("%d cases", ran))
		}
		pool, limit := ev.order, PageCandidates
		if ev.asset {
			meets := func(it Item) bool { return c.Gold.Holds(it.Fields) }
			pool, limit = SampleCandidates(ev.order, ev.o.Candidates, ev.o.Seed, c.ID, meets), ev.o.Candidates
		}
		for _, who := range Users {
			if err := ev.rank(c, who, pool, limit); err != nil {
				return nil, err
			}
		}
	}
	return ev.report(split), nil
}

// evaluation is one run of Evaluate.
type evaluation struct {
	x            engine.Caller
	o            Options
	asset        bool                         // candidates drawn per case
	order        []Item                       // the most popular first
	fields       map[string]map[string]string // item id -> metadata
	all, dev, ho Tally
	kinds, users map[string]*Tally
	kindsDev     map[string]*Tally
	kindsHO      map[string]*Tally
	unknown      int   // cases whose instruction had words not understood
	withUnknown  Tally // lists of cases the LLM-free parse left words of unknown
	outcomes     rec.Outcomes
	newBase      []string // the new user's list without instruction (page's catalog)
	failures     []Failure
}

// rank ranks case c for user who over the first limit items of pool that
// the user has not acted on, with and without its instruction, and counts
// both lists.
func (ev *evaluation) rank(c Case, who string, pool []Item, limit int) error {
	var history []memory.Signal
	var skip map[string]bool
	if who == "against" {
		history, skip = against(ev.order, c.Gold, ev.o.History)
	}
	if err := replay(ev.x, history); err != nil {
		return err
	}
	cands := candidates(pool, skip, limit)
	with, err := engine.Rank.Call(ev.x, engine.RankInput{Candidates: cands, Instruction: &c.Instruction, K: K})
	if err != nil {
		return fmt.Errorf("case %s: %w", c.ID, err)
	}
	base := ev.newBase
	if who != "new" || base == nil || ev.asset {
		plain, err := engine.Rank.Call(ev.x, engine.RankInput{Candidates: cands, K: K})
		if err != nil {
			return err
		}
		base = ids(plain)
		if who == "new" && !ev.asset {
			ev.newBase = base
		}
	}
	got := ids(with)
	p, bad := Share(got, ev.fields, c.Gold)
	strict, short := Strict(got, candIDs(cands), ev.fields, c.Gold)
	bp, _ := Share(base, ev.fields, c.Gold)
	if words, alone := c.Gold.UnconstrainedWords(); len(words) > 0 {
		bp = 0
		if why := saysSo(with, words, alone, len(cands)); why != "" {
			p, strict, bad = 0, 0, []string{why}
		}
	}
	relaxed := with.Relaxed != nil && len(*with.Relaxed) > 0
	l := List{Case: c.ID, Share: p, Strict: strict, Baseline: bp, Relaxed: relaxed, Short: short}
	ev.all.Add(l)
	if c.HeldOut() {
		ev.ho.Add(l)
		tally(ev.kindsHO, c.Kind).Add(l)
	} else {
		ev.dev.Add(l)
		tally(ev.kindsDev, c.Kind).Add(l)
		if ev.o.Failures && (p < 1 || short) {
			ev.failures = append(ev.failures, Failure{ID: c.ID, User: who, Instruction: c.Instruction, P10: p, P10Strict: strict,
				Understood: understood(with), Violating: bad})
		}
	}
	tally(ev.kinds, c.Kind).Add(l)
	tally(ev.users, who).Add(l)
	ev.outcomes.Add(with.LLM)
	if leftUnknown(with) {
		ev.withUnknown.Add(l)
	}
	if who == "new" && with.Understood != nil && len(with.Understood.Unknown) > 0 {
		ev.unknown++
	}
	return nil
}

// leftUnknown reports whether the LLM-free interpreter left words of a
// list's instruction unknown: some still are, or the parse step asked a
// model about them.
func leftUnknown(out engine.RankOutput) bool {
	if out.Understood != nil && len(out.Understood.Unknown) > 0 {
		return true
	}
	return slices.ContainsFunc(out.LLM, func(o llm.Outcome) bool { return o.Purpose == llm.PurposeParse })
}

// saysSo checks a list of a case with unconstrained words: "" when every
// word is in one of the output's notes and, when the case asks nothing else
// (alone), all n candidates were kept and nothing relaxed; else why not.
func saysSo(out engine.RankOutput, words []string, alone bool, n int) string {
	var notes []string
	if out.Understood != nil {
		notes = out.Understood.Notes
	}
	for _, w := range words {
		if !slices.ContainsFunc(notes, func(s string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(w)) }) {
			return fmt.Sprintf("(no note says %q)", w)
		}
	}
	if alone {
		if out.Kept == nil || *out.Kept != n {
			kept := 0
			if out.Kept != nil {
				kept = *out.Kept
			}
			return fmt.Sprintf("(filtered: kept %d of %d candidates)", kept, n)
		}
		if out.Relaxed != nil && len(*out.Relaxed) > 0 {
			return "(relaxed a constraint)"
		}
	}
	return ""
}

// understood renders an output's understanding on one line for a failure:
// "only: platform=PlayStation 4 · not: title=halo · unknown: x · note: …".
func understood(out engine.RankOutput) string {
	u := out.Understood
	if u == nil {
		return ""
	}
	var parts []string
	for _, g := range []struct {
		name    string
		clauses []intent.Clause
	}{{"only", u.Only}, {"not", u.Exclude}, {"prefer", u.Prefer}, {"avoid", u.Avoid}} {
		for _, c := range g.clauses {
			parts = append(parts, g.name+": "+c.Facet+"="+c.Value)
		}
	}
	if len(u.Unknown) > 0 {
		parts = append(parts, "unknown: "+strings.Join(u.Unknown, ", "))
	}
	for _, n := range u.Notes {
		parts = append(parts, "note: "+n)
	}
	return strings.Join(parts, " · ")
}

// tally is m[key], made when missing.
func tally(m map[string]*Tally, key string) *Tally {
	if m[key] == nil {
		m[key] = &Tally{}
	}
	return m[key]
}

// report gathers the tallies.
func (ev *evaluation) report(split string) *Report {
	s := ev.all.Scores()
	r := &Report{Split: split, ByKind: map[string]Scores{}, ByUser: map[string]Scores{},
		Cases: s.Cases, Lists: s.Lists, P10: s.P10, P10Strict: s.P10Strict, Perfect: s.Perfect, BaselineP10: s.BaselineP10,
		RelaxedLists: s.Relaxed, Relaxed: Ratio(float64(s.Relaxed), s.Lists),
		UnknownRate: Ratio(float64(ev.unknown), s.Cases),
		Candidates:  min(PageCandidates, len(ev.order)), Failures: ev.failures,
		Pool: fmt.Sprintf("the page's: the %d most popular items the user has not acted on", PageCandidates)}
	if ev.asset {
		r.Candidates = min(ev.o.Candidates, len(ev.order))
		r.Pool = fmt.Sprintf("drawn per case from the catalog: %d items, up to %d of them meeting the case, seed %d and the case id (SampleCandidates), less those the user has acted on", r.Candidates, K, ev.o.Seed)
	}
	for k, t := range ev.kinds {
		ks := t.Scores()
		if d, ok := ev.kindsDev[k]; ok {
			ds := d.Scores()
			ks.Dev = &ds
		}
		if h, ok := ev.kindsHO[k]; ok {
			hs := h.Scores()
			ks.HeldOut = &hs
		}
		r.ByKind[k] = ks
	}
	for k, t := range ev.users {
		r.ByUser[k] = t.Scores()
	}
	if ev.withUnknown.Lists() > 0 {
		w := ev.withUnknown.Scores()
		r.WithUnknown = &w
	}
	if len(ev.outcomes) > 0 {
		r.LLMOutcomes = ev.outcomes.Report()
	}
	if ev.dev.Lists() > 0 {
		d := ev.dev.Scores()
		r.Dev = &d
	}
	if ev.ho.Lists() > 0 {
		h := ev.ho.Scores()
		r.HeldOut = &h
	}
	return r
}

// candIDs are the candidates' ids, in order.
func candIDs(cs []engine.RankCandidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// ids are a ranking's item ids, in order.
func ids(o engine.RankOutput) []string {
	var out []string
	for _, r := range o.Ranking {
		out = append(out, r.ID)
	}
	return out
}

// against is a history that pulls against gold: the first n items of order
// that break it, liked one day apart from rec.Epoch, with the ids it holds.
// O(len(order)).
func against(order []Item, gold *Gold, n int) ([]memory.Signal, map[string]bool) {
	var sigs []memory.Signal
	skip := map[string]bool{}
	for _, it := range order {
		if len(sigs) == n {
			break
		}
		if gold.Holds(it.Fields) {
			continue
		}
		skip[it.ID] = true
		sigs = append(sigs, signal(it, "u", "like", len(sigs), false))
	}
	return sigs, skip
}

// signal is user's action on it, day days after rec.Epoch, with its
// metadata but the format (and a kind "game" too when plainGame, the kind
// that says nothing in Games-6k).
func signal(it Item, user, action string, day int, plainGame bool) memory.Signal {
	meta := map[string][]string{}
	for f, v := range it.Fields {
		if v != "" && f != "format" && !(plainGame && f == "kind" && v == "game") {
			meta[f] = []string{v}
		}
	}
	return memory.Signal{User: user, Item: it.ID, Action: action, Meta: meta, Time: rec.Epoch + int64(day)*86400}
}

// replay starts an empty memory with room for every event (rec.DefaultEventCap)
// and, when history holds signals, records them and forces a maintenance.
func replay(x engine.Caller, history []memory.Signal) error {
	if _, err := engine.Reset.Call(x, engine.ResetInput{Config: memory.Config{EventCap: rec.DefaultEventCap}}); err != nil {
		return err
	}
	if len(history) == 0 {
		return nil
	}
	if _, err := engine.Record.Call(x, engine.RecordInput{Signals: history, Maintain: "none"}); err != nil {
		return err
	}
	_, err := engine.Maintain.Call(x, engine.MaintainInput{Scheduler: "fixed", Force: true})
	return err
}
