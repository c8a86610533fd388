package llm

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/text"
)

// Limits on LLM answers, beyond the schema.
const (
	maxExtractOps = 8
	maxPlanOps    = 12
	maxReason     = 200
	maxChunkText  = 300
	maxProfile    = 1500
	// DefaultMaxForgetShare bounds what one planner cycle may remove (forget
	// and merge away): a quarter of the chunks, and at least one.
	DefaultMaxForgetShare = 0.25
)

var categoryRE = regexp.MustCompile(`^[a-z][a-z _-]{0,23}$`)

// Outcome records what became of one LLM step: "accepted", or "fallback"
// with the reason the answer was not used and the check it failed (judge.go:
// exchange, format, refusal, placeholder, example_copy, repetition,
// unsupported, title_copy, verbatim_copy, unknown_id, rule, state).
type Outcome struct {
	Purpose string `json:"purpose"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Check   string `json:"check,omitempty"`
}

// Log collects outcomes of a call's LLM steps, for the export's output.
type Log struct{ Outcomes []Outcome }

func (l *Log) add(purpose, status, reason string) {
	if l != nil {
		l.Outcomes = append(l.Outcomes, Outcome{Purpose: purpose, Status: status, Reason: reason})
	}
}

// fallback logs a step that did not use the model: check names why.
func (l *Log) fallback(purpose, check, reason string) {
	if l != nil {
		l.Outcomes = append(l.Outcomes, Outcome{Purpose: purpose, Status: "fallback", Reason: reason, Check: check})
	}
}

// userOf names the state's user for the host's per-user budget.
func userOf(s *memory.State) string {
	if n := len(s.Events); n > 0 {
		return s.Events[n-1].User
	}
	return ""
}

// ask sends req and returns the answer text, or why there is none.
func ask(c Completer, req Request) (string, string) {
	if c == nil {
		return "", "no LLM configured"
	}
	resp, err := c.Complete(context.Background(), req)
	switch {
	case err != nil:
		return "", err.Error()
	case resp.Error != "":
		return "", resp.Error
	}
	return resp.Text, ""
}

type extractAnswer struct {
	Ops []struct {
		Op       string   `json:"op"`
		Chunk    string   `json:"chunk"`
		Category string   `json:"category"`
		Text     string   `json:"text"`
		Polarity string   `json:"polarity"`
		Strength *float64 `json:"strength"`
		Events   []string `json:"events"`
		Reason   string   `json:"reason"`
	} `json:"ops"`
}

// ParseExtract validates π_ext's answer against s: only boost, demote and
// extract; only existing chunks and pending events in scope; categories from
// the configured list (or well-formed words when none is configured); texts
// cleaned and bounded; strengths clamped to [0,1]. Boosts and demotes come
// first in the result, as the Extractor contract asks.
func ParseExtract(answer string, s *memory.State, scope []string) ([]memory.Op, error) {
	var ans extractAnswer
	if err := decodeAnswer(answer, &ans); err != nil {
		return nil, formatRejection(answer, err)
	}
	if len(ans.Ops) > maxExtractOps {
		return nil, fmt.Errorf("ops: %d ops, more than %d", len(ans.Ops), maxExtractOps)
	}
	var updates, creates []memory.Op
	touched := map[string]string{}
	texts := map[string]int{}
	for i, a := range ans.Ops {
		at := fmt.Sprintf("ops[%d]", i)
		for _, ev := range a.Events {
			if !slices.Contains(scope, ev) {
				return nil, reject(CheckUnknownID, "%s.events: %q is not a pending event in scope", at, ev)
			}
		}
		if n := len(a.Events) - len(uniq(a.Events)); n > 0 {
			return nil, reject(CheckRepetition, "%s.events: names %d event(s) again", at, n)
		}
		reason := "LLM extract"
		if a.Reason != "" {
			r, err := cleanText(a.Reason, maxReason)
			if err != nil {
				return nil, fmt.Errorf("%s.reason: %v", at, err)
			}
			if err := checkPlaceholder(at+".reason", r); err != nil {
				return nil, err
			}
			reason += ": " + r
		}
		switch a.Op {
		case "boost", "demote":
			if a.Category != "" || a.Text != "" || a.Polarity != "" || a.Strength != nil {
				return nil, fmt.Errorf("%s: %s takes only chunk, events and reason", at, a.Op)
			}
			if !hasChunk(s, a.Chunk) {
				return nil, reject(CheckUnknownID, "%s.chunk: unknown chunk %q", at, a.Chunk)
			}
			if err := checkChunkEvidence(at, s.Chunks[slices.IndexFunc(s.Chunks, func(c memory.Chunk) bool { return c.ID == a.Chunk })], s, a.Events); err != nil {
				return nil, err
			}
			if prev, ok := touched[a.Chunk]; ok && prev != a.Op {
				return nil, fmt.Errorf("%s.chunk: %q is both boosted and demoted", at, a.Chunk)
			} else if ok {
				continue
			}
			touched[a.Chunk] = a.Op
			updates = append(updates, memory.Op{Op: a.Op, Chunk: a.Chunk, Events: a.Events, Reason: reason})
		case "extract":
			if a.Chunk != "" {
				return nil, fmt.Errorf("%s.chunk: extract creates a chunk and names none", at)
			}
			if !categoryRE.MatchString(a.Category) {
				return nil, fmt.Errorf("%s.category: %q is not a category word", at, a.Category)
			}
			if cats := s.Config.Categories; len(cats) > 0 && !slices.Contains(cats, a.Category) {
				return nil, fmt.Errorf("%s.category: %q is not one of %v", at, a.Category, cats)
			}
			t, err := cleanText(a.Text, maxChunkText)
			if err != nil {
				return nil, fmt.Errorf("%s.text: %v", at, err)
			}
			if err := checkPlaceholder(at+".text", t); err != nil {
				return nil, err
			}
			if err := checkExample(at+".text", t, exampleTexts); err != nil {
				return nil, err
			}
			if err := checkLoop(at+".text", t); err != nil {
				return nil, err
			}
			key := strings.Join(text.Words(t), " ")
			if j, ok := texts[key]; ok {
				return nil, reject(CheckRepetition, "%s.text: repeats ops[%d]'s %q", at, j, t)
			}
			texts[key] = i
			if err := checkPreference(at, t, s, a.Events); err != nil {
				return nil, err
			}
			pol := a.Polarity
			if pol == "" {
				pol = "likes"
			}
			if pol != "likes" && pol != "avoids" {
				return nil, fmt.Errorf("%s.polarity: %q is not likes or avoids", at, a.Polarity)
			}
			op := memory.Op{Op: "extract", Category: a.Category, Text: t, Polarity: pol, Events: a.Events, Reason: reason}
			if a.Strength != nil {
				x := clamp01(*a.Strength)
				op.Strength = &x
			}
			creates = append(creates, op)
		default:
			return nil, fmt.Errorf("%s.op: %q is not boost, demote or extract", at, a.Op)
		}
	}
	return append(updates, creates...), nil
}

// uniq returns xs without repeats, in first-seen order.
func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func hasChunk(s *memory.State, id string) bool {
	return slices.ContainsFunc(s.Chunks, func(c memory.Chunk) bool { return c.ID == id })
}

// Extractor is π_ext through the host's LLM, adding to the LLM-free
// extraction rather than replacing it: the LLM-free extractor (Fallback,
// default memory.MetadataExtractor) always runs, and a valid answer adds
// what it finds beyond it: updates of chunks the LLM-free ops leave alone,
// and new chunks with a category and key no chunk holds. Each of the model's
// ops is kept only if it applies after those before it (combine). An answer
// that fails validation, a failed exchange or a spent budget leaves the
// LLM-free ops alone, and they say why. A model's extraction can therefore
// add grounded preferences to a memory and never take one away:
// SmolLM2-135M and Gemma 3 270M often answered no op at all, which used to
// leave the memory without any chunk.
type Extractor struct {
	C        Completer
	Fallback memory.Extractor
	Log      *Log
	// Prompts is the prompt profile (zero: Full).
	Prompts Profile
}

// Extract implements memory.Extractor.
func (x Extractor) Extract(s *memory.State, scope []string) ([]memory.Op, error) {
	fb := x.Fallback
	if fb == nil {
		fb = memory.MetadataExtractor{}
	}
	base, err := fb.Extract(s, scope)
	if err != nil {
		return nil, err
	}
	answer, why := ask(x.C, ExtractRequestFor(x.Prompts, s, userOf(s), scope))
	check := CheckExchange
	if why == "" {
		ops, err := ParseExtract(answer, s, scope)
		if err == nil {
			var out []memory.Op
			var kept int
			if out, kept, err = combine(s, base, ops); err == nil {
				x.Log.add(PurposeExtract, "accepted", fmt.Sprintf("%d of the model's %d ops added to the LLM-free extraction", kept, len(ops)))
				return out, nil
			}
		}
		why, check = "answer rejected: "+err.Error(), checkOf(err)
	}
	x.Log.fallback(PurposeExtract, check, why)
	for i := range base {
		base[i].Reason = "LLM extract not used (" + why + "); LLM-free: " + base[i].Reason
	}
	return base, nil
}

// combine returns the LLM-free ops base with the model's ops added, updates
// first (as the Extractor contract asks): the model's updates of chunks base
// does not update, then base's new chunks, then the model's, each of the
// model's ops kept only if it applies to a copy of s after the ops before it
// (a chunk key base already created, or a chunk evicted, drops it). It
// reports how many of the model's ops it kept, and fails (CheckState) only
// when base itself does not apply. O(ops × state size).
func combine(s *memory.State, base, model []memory.Op) ([]memory.Op, int, error) {
	isUpdate := func(o memory.Op) bool { return o.Op == "boost" || o.Op == "demote" }
	touched := map[string]bool{}
	var out []memory.Op
	for _, o := range base {
		if isUpdate(o) {
			touched[o.Chunk] = true
			out = append(out, o)
		}
	}
	sim := s.Clone()
	if _, err := sim.Apply(s.Clock, "llm", out, memory.Policy{}); err != nil {
		return nil, 0, reject(CheckState, "dry run: the LLM-free updates: %v", err)
	}
	kept := 0
	try := func(o memory.Op) {
		c := sim.Clone()
		if _, err := c.Apply(s.Clock, "llm", []memory.Op{o}, memory.Policy{}); err == nil {
			sim = c
			out = append(out, o)
			kept++
		}
	}
	for _, o := range model {
		if isUpdate(o) && !touched[o.Chunk] {
			try(o)
		}
	}
	var creates []memory.Op
	for _, o := range base {
		if !isUpdate(o) {
			creates = append(creates, o)
		}
	}
	if _, err := sim.Apply(s.Clock, "llm", creates, memory.Policy{}); err != nil {
		return nil, 0, reject(CheckState, "dry run: the LLM-free extraction after the model's updates: %v", err)
	}
	out = append(out, creates...)
	for _, o := range model {
		if !isUpdate(o) {
			try(o)
		}
	}
	return out, kept, nil
}

type synthAnswer struct {
	Profile string `json:"profile"`
}

// ParseSynthesize validates π_syn's answer for s: one profile text, cleaned
// and at most 1,500 characters, that checkProfile finds faithful to s (no
// placeholder, example or loop, not one entry verbatim, every sentence that
// names something supported by a chunk or an event).
func ParseSynthesize(answer string, s *memory.State) (string, error) {
	var ans synthAnswer
	if err := decodeAnswer(answer, &ans); err != nil {
		return "", formatRejection(answer, err)
	}
	p, err := cleanText(ans.Profile, maxProfile)
	if err != nil {
		return "", fmt.Errorf("profile: %v", err)
	}
	if err := checkProfile(p, s); err != nil {
		return "", err
	}
	return p, nil
}

// midBatch reports whether a synthesis is the memory's automatic one (every
// Config.Gamma mutations; only then has the count reached Gamma, since any
// synthesis resets it) in the middle of an extraction (events still
// pending): the batch's later ops make its text stale, so the model is not
// asked for it and the LLM-free narrative stands. Asking there cost the MARS
// configuration a second synthesis call for 4 users in 20 (3.2 calls per
// user), the closing synthesis being the one the ranking reads.
func midBatch(s *memory.State) bool {
	if s.Counters.Mutations < s.Config.Gamma {
		return false
	}
	for _, e := range s.Events {
		if e.Pending {
			return true
		}
	}
	return false
}

// Synthesizer is π_syn through the host's LLM. The LLM-free synthesizer
// (Fallback, default memory.TemplateSynthesizer) always runs first: it
// decides what the profile is built from and what is rising and fading; the
// LLM only rewrites the narrative, and its text is used only if it validates.
type Synthesizer struct {
	C        Completer
	Fallback memory.Synthesizer
	Log      *Log
	// Prompts is the prompt profile (zero: Full).
	Prompts Profile
}

// Synthesize implements memory.Synthesizer.
func (y Synthesizer) Synthesize(s *memory.State) (memory.Profile, error) {
	fb := y.Fallback
	if fb == nil {
		fb = memory.TemplateSynthesizer{}
	}
	base, err := fb.Synthesize(s)
	if err != nil {
		return base, err
	}
	if midBatch(s) {
		return base, nil
	}
	answer, why := ask(y.C, SynthesizeRequestFor(y.Prompts, s, userOf(s), base))
	check := CheckExchange
	if why == "" {
		p, err := ParseSynthesize(answer, s)
		if err == nil {
			y.Log.add(PurposeSynthesize, "accepted", "")
			base.Text = p
			return base, nil
		}
		why, check = "answer rejected: "+err.Error(), checkOf(err)
	}
	y.Log.fallback(PurposeSynthesize, check, why)
	return base, nil
}

type planAnswer struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Ops      []struct {
		Op     string   `json:"op"`
		Chunk  string   `json:"chunk"`
		Chunks []string `json:"chunks"`
		Reason string   `json:"reason"`
	} `json:"ops"`
}

// planSpace is π_plan's action space.
var planSpace = []string{"extract", "boost", "demote", "merge", "forget", "synthesize"}

// ParsePlan validates π_plan's answer against s: a decision, ops from the
// action space over existing chunks only, no more removals (forgets and
// chunks merged away) than maxShare of the chunks (at least one), and a dry
// run of the ops on a copy of s that must succeed (so a forget the rule does
// not allow, or a merge across categories, rejects the whole answer).
//
// The dry run applies the ops with pol, the policies that will apply them
// (the LLM extractor when extract is on the LLM), and the decision carries
// its outcome, which Maintain adopts: a plan checked with one extractor and
// applied with another could pass the check and then fail the whole call
// (an extraction that boosts the chunk a later forget names), and the
// extractor would run twice.
func ParsePlan(answer string, s *memory.State, now int64, maxShare float64, pol memory.Policy) (memory.Decision, error) {
	var ans planAnswer
	if err := decodeAnswer(answer, &ans); err != nil {
		return memory.Decision{}, formatRejection(answer, err)
	}
	reason := "LLM planner"
	if ans.Reason != "" {
		r, err := cleanText(ans.Reason, maxReason)
		if err != nil {
			return memory.Decision{}, fmt.Errorf("reason: %v", err)
		}
		if err := checkPlaceholder("reason", r); err != nil {
			return memory.Decision{}, err
		}
		reason += ": " + r
	}
	d := memory.Decision{Scheduler: "llm", Decision: ans.Decision, Reason: reason, Ops: []memory.Op{}}
	switch ans.Decision {
	case "wait":
		if len(ans.Ops) > 0 {
			return memory.Decision{}, fmt.Errorf("ops: a wait decision carries %d ops", len(ans.Ops))
		}
		return d, nil
	case "maintain":
	default:
		return memory.Decision{}, fmt.Errorf("decision: %q is not maintain or wait", ans.Decision)
	}
	if len(ans.Ops) == 0 || len(ans.Ops) > maxPlanOps {
		return memory.Decision{}, fmt.Errorf("ops: %d ops; a maintain decision needs 1 to %d", len(ans.Ops), maxPlanOps)
	}
	removed := 0
	seen := map[string]int{}
	for i, a := range ans.Ops {
		at := fmt.Sprintf("ops[%d]", i)
		if !slices.Contains(planSpace, a.Op) {
			return memory.Decision{}, fmt.Errorf("%s.op: %q is not in the action space %v", at, a.Op, planSpace)
		}
		ids := a.Chunks
		if a.Chunk != "" {
			ids = append([]string{a.Chunk}, ids...)
		}
		for _, id := range ids {
			if !hasChunk(s, id) {
				return memory.Decision{}, reject(CheckUnknownID, "%s: unknown chunk %q", at, id)
			}
		}
		if n := len(ids) - len(uniq(ids)); n > 0 {
			return memory.Decision{}, reject(CheckRepetition, "%s: names %d chunk(s) again", at, n)
		}
		sig := a.Op + " " + strings.Join(ids, ",")
		if j, ok := seen[sig]; ok {
			return memory.Decision{}, reject(CheckRepetition, "%s repeats ops[%d] (%s)", at, j, sig)
		}
		seen[sig] = i
		switch a.Op {
		case "forget":
			removed += len(ids)
		case "merge":
			removed += max(0, len(ids)-1)
		}
		op := memory.Op{Op: a.Op, Chunk: a.Chunk, Chunks: a.Chunks, Reason: reason}
		if a.Reason != "" {
			r, err := cleanText(a.Reason, maxReason)
			if err != nil {
				return memory.Decision{}, fmt.Errorf("%s.reason: %v", at, err)
			}
			if err := checkPlaceholder(at+".reason", r); err != nil {
				return memory.Decision{}, err
			}
			op.Reason = "LLM planner: " + r
		}
		d.Ops = append(d.Ops, op)
	}
	if limit := max(1, int(maxShare*float64(len(s.Chunks)))); removed > limit {
		return memory.Decision{}, fmt.Errorf("ops: would remove %d of %d chunks in one cycle (at most %d)", removed, len(s.Chunks), limit)
	}
	sim, err := s.Simulate(d, now, Planner{}.Trigger(), pol)
	if err != nil {
		return memory.Decision{}, reject(CheckState, "dry run: %v", err)
	}
	return sim, nil
}

// Planner is π_plan through the host's LLM. When the answer fails validation
// (or the exchange fails), Fallback (default memory.Heuristic) decides
// instead and its reason says why the LLM's plan was not used. A wait is
// rejected where the LLM-free planner would maintain: Gemma 3 270M answered
// wait to every one of its 24 evolving-mode plan requests, which left the
// memory without a single chunk.
type Planner struct {
	C        Completer
	Fallback memory.Planner
	// MaxShare bounds removals per cycle (default DefaultMaxForgetShare).
	MaxShare float64
	Log      *Log
	// Prompts is the prompt profile (zero: Full).
	Prompts Profile
}

// Name implements memory.Planner.
func (Planner) Name() string { return "llm" }

// Trigger implements memory.Planner.
func (Planner) Trigger() string { return "llm" }

// Plan implements memory.Planner.
func (p Planner) Plan(s *memory.State, now int64, force bool, pol memory.Policy) (memory.Decision, error) {
	share := p.MaxShare
	if share <= 0 {
		share = DefaultMaxForgetShare
	}
	// One exchange per distinct request in this call: when the plan's dry
	// run extracts and the plan is then rejected, the fallback's extraction
	// of the same pending events gets the same answer without a second call.
	if x, ok := pol.Extractor.(Extractor); ok {
		x.C = newMemo(x.C)
		pol.Extractor = x
	}
	fb := p.Fallback
	if fb == nil {
		fb = memory.Heuristic{}
	}
	answer, why := ask(p.C, PlanRequestFor(p.Prompts, s, userOf(s), now))
	check := CheckExchange
	if why == "" {
		d, err := ParsePlan(answer, s, now, share, pol)
		if err == nil && d.Decision == "wait" {
			// A model may not starve the memory: it waits only when the
			// LLM-free planner would (asked with the LLM-free policies, so
			// that the question costs no model call).
			free, ferr := fb.Plan(s, now, force, memory.Policy{})
			if ferr == nil && free.Decision == "maintain" {
				err = reject(CheckRule, "decision: wait, where the LLM-free planner maintains (%s)", free.Reason)
			}
		}
		if err == nil {
			p.Log.add(PurposePlan, "accepted", planNote(d))
			return d, nil
		}
		why, check = "answer rejected: "+err.Error(), checkOf(err)
	}
	p.Log.fallback(PurposePlan, check, why)
	d, err := fb.Plan(s, now, force, pol)
	d.Reason = "LLM plan not used (" + why + "); LLM-free planner: " + d.Reason
	return d, err
}

// planNote names an accepted plan's decision and its ops in order
// ("maintain: extract, merge, forget"), for the outcome: which decisions a
// model made, and (the journal's ops with trigger "llm") which were applied.
func planNote(d memory.Decision) string {
	if len(d.Ops) == 0 {
		return d.Decision
	}
	ops := make([]string, len(d.Ops))
	for i, o := range d.Ops {
		ops[i] = o.Op
	}
	return d.Decision + ": " + strings.Join(ops, ", ")
}
