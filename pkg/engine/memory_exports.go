package engine

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
)

// The memory exports. Inputs are decoded strictly; every error names the
// input field at fault, array indexes included ("input.ops[2].chunk: unknown
// chunk \"c99\""), and leaves the state untouched.
//
//	record      {signals: [{user, item, action, rating?, meta?, time, client_id?}],
//	             maintain?: "none"|"fixed"|"planner"}          (default "fixed")
//	            → {events_added, repeated?, evicted, fifo, maintenance, summary}
//	maintain    {now?, scheduler?: "fixed"|"planner", force?}  (default "fixed")
//	            → {scheduler, decision, reason, ops: [entries], summary}
//	plan        same input as maintain, nothing applied
//	            → {scheduler, decision, reason, ops: [ops]}
//	apply_ops   {now?, ops: [op], trigger?: "user"|"planner"|"llm"}  (default "user")
//	            → {ops: [entries], summary}
//	get_memory  {journal_limit?} → {clock, config, counters, events, chunks,
//	             profile, journal (newest last)}
//
// now defaults to the memory's clock and may not be earlier than it.

// Limits per call: a whole history can be recorded at once (retrospective
// mode), but not an unbounded one.
const (
	MaxSignals = 10000 // signals per record call
	MaxOps     = 1000  // ops per apply_ops call
)

// The policies each call runs come from Engine.policy and Engine.scheduler
// (llm.go): the LLM-free defaults, or the LLM steps the host configured. The
// outcomes of LLM steps, if any ran, are reported under "llm".

// RecordInput is the input of record: signals, and the scheduler that
// maintains after them ("none", "fixed" (the default) or "planner").
type RecordInput struct {
	Signals  []memory.Signal `json:"signals"`
	Maintain string          `json:"maintain,omitempty"`
}

// RecordOutput is what record did: events added and evicted, the entries of
// any maintenance, the memory's summary, and the outcomes of LLM steps.
type RecordOutput struct {
	memory.RecordResult
	Summary memory.Summary `json:"summary"`
	LLM     []llm.Outcome  `json:"llm,omitempty"`
}

func recordExport(e *Engine, input []byte) (RecordOutput, error) {
	var in struct {
		Signals  []json.RawMessage `json:"signals"`
		Maintain string            `json:"maintain"`
	}
	signals, maintain, fast := decodeRecordFast(input)
	if !fast {
		if err := decodeStrict(input, &in); err != nil {
			return RecordOutput{}, err
		}
		maintain = in.Maintain
	}
	count := len(in.Signals)
	if fast {
		count = len(signals)
	}
	if count == 0 {
		return RecordOutput{}, errors.New("input.signals: at least one signal is required")
	}
	if count > MaxSignals {
		return RecordOutput{}, fmt.Errorf("input.signals: %d signals, more than the limit of %d per call", count, MaxSignals)
	}
	var log llm.Log
	var p memory.Planner
	if maintain != "none" {
		var err error
		if p, err = e.scheduler(maintain, &log); err != nil {
			return RecordOutput{}, fmt.Errorf("input.maintain: unknown value %q (want none, fixed or planner)", maintain)
		}
	}
	if !fast {
		signals = make([]memory.Signal, len(in.Signals))
		for i, raw := range in.Signals {
			path := fmt.Sprintf("input.signals[%d]", i)
			if err := decodeElem(raw, path, &signals[i]); err != nil {
				return RecordOutput{}, err
			}
		}
	}
	e.timer.Mark("decode")
	res, err := e.doc.Memory.Record(signals, p, e.policy(&log))
	if err != nil {
		return RecordOutput{}, inputError(err)
	}
	e.timer.Mark("record")
	sum := e.doc.Memory.Summary()
	e.timer.Mark("summary")
	return RecordOutput{res, sum, log.Outcomes}, nil
}

// MaintainInput is the input of maintain and plan: the time (default the
// memory's clock), the scheduler ("fixed", the default, or "planner") and
// whether to maintain even when the scheduler would wait.
type MaintainInput struct {
	Now       *int64 `json:"now,omitempty"`
	Scheduler string `json:"scheduler,omitempty"`
	Force     bool   `json:"force,omitempty"`
}

// MaintainOutput is a maintenance decision, the entries it applied, the
// memory's summary and the outcomes of LLM steps.
type MaintainOutput struct {
	memory.Maintenance
	Summary memory.Summary `json:"summary"`
	LLM     []llm.Outcome  `json:"llm,omitempty"`
}

// PlanOutput is the decision maintain would take, with the ops it would
// apply.
type PlanOutput = memory.Decision

// decodeMaintain reads the input of maintain and plan.
func decodeMaintain(e *Engine, input []byte, log *llm.Log) (int64, memory.Planner, bool, error) {
	var in MaintainInput
	if err := decodeStrict(input, &in); err != nil {
		return 0, nil, false, err
	}
	p, err := e.scheduler(in.Scheduler, log)
	if err != nil {
		return 0, nil, false, fmt.Errorf("input.scheduler: %w", err)
	}
	now, err := nowOf(e, in.Now)
	return now, p, in.Force, err
}

func maintainExport(e *Engine, input []byte) (MaintainOutput, error) {
	var log llm.Log
	now, p, force, err := decodeMaintain(e, input, &log)
	if err != nil {
		return MaintainOutput{}, err
	}
	m, err := e.doc.Memory.Maintain(now, p, force, e.policy(&log))
	if err != nil {
		return MaintainOutput{}, inputError(err)
	}
	return MaintainOutput{m, e.doc.Memory.Summary(), log.Outcomes}, nil
}

func planExport(e *Engine, input []byte) (PlanOutput, error) {
	var log llm.Log
	now, p, force, err := decodeMaintain(e, input, &log)
	if err != nil {
		return PlanOutput{}, err
	}
	d, err := e.doc.Memory.Plan(now, p, force, e.policy(&log))
	if err != nil {
		return PlanOutput{}, inputError(err)
	}
	return d, nil
}

// ApplyOpsInput is the input of apply_ops: the ops, who asked for them
// ("user", the default, "planner" or "llm") and the time (default the
// memory's clock).
type ApplyOpsInput struct {
	Ops     []memory.Op `json:"ops"`
	Trigger string      `json:"trigger,omitempty"`
	Now     *int64      `json:"now,omitempty"`
}

// ApplyOpsOutput lists the journal entries a batch of ops wrote, with the
// memory's summary and the outcomes of LLM steps.
type ApplyOpsOutput struct {
	LLM     []llm.Outcome  `json:"llm,omitempty"`
	Ops     []memory.Entry `json:"ops"`
	Summary memory.Summary `json:"summary"`
}

func applyOpsExport(e *Engine, input []byte) (ApplyOpsOutput, error) {
	var in struct {
		Now     *int64            `json:"now"`
		Ops     []json.RawMessage `json:"ops"`
		Trigger string            `json:"trigger"`
	}
	if err := decodeStrict(input, &in); err != nil {
		return ApplyOpsOutput{}, err
	}
	trigger := cmp.Or(in.Trigger, "user")
	if !slices.Contains([]string{"user", "planner", "llm"}, trigger) {
		return ApplyOpsOutput{}, fmt.Errorf("input.trigger: unknown trigger %q (want user, planner or llm)", in.Trigger)
	}
	if len(in.Ops) == 0 {
		return ApplyOpsOutput{}, errors.New("input.ops: at least one op is required")
	}
	if len(in.Ops) > MaxOps {
		return ApplyOpsOutput{}, fmt.Errorf("input.ops: %d ops, more than the limit of %d per call", len(in.Ops), MaxOps)
	}
	ops := make([]memory.Op, len(in.Ops))
	for i, raw := range in.Ops {
		if err := decodeElem(raw, fmt.Sprintf("input.ops[%d]", i), &ops[i]); err != nil {
			return ApplyOpsOutput{}, err
		}
	}
	now, err := nowOf(e, in.Now)
	if err != nil {
		return ApplyOpsOutput{}, err
	}
	e.ground(ops)
	var log llm.Log
	entries, err := e.doc.Memory.Apply(now, trigger, ops, e.policy(&log))
	if err != nil {
		return ApplyOpsOutput{}, inputError(err)
	}
	return ApplyOpsOutput{log.Outcomes, entries, e.doc.Memory.Summary()}, nil
}

// GetMemoryInput is the input of get_memory: how many of the newest journal
// entries to return (0: all).
type GetMemoryInput struct {
	JournalLimit int `json:"journal_limit,omitempty"`
}

func getMemoryExport(e *Engine, input []byte) (MemoryView, error) {
	var in GetMemoryInput
	if err := decodeStrict(input, &in); err != nil {
		return MemoryView{}, err
	}
	if in.JournalLimit < 0 {
		return MemoryView{}, fmt.Errorf("input.journal_limit: must not be negative, got %d", in.JournalLimit)
	}
	m := e.doc.Memory
	journal := m.Journal
	if n := in.JournalLimit; n > 0 && len(journal) > n {
		journal = journal[len(journal)-n:]
	}
	return MemoryView{m.Clock, m.Config, m.Counters, m.Events, m.Chunks, m.Profile, journal, m.Tombstones}, nil
}

// MemoryView is the output of get_memory: the three tiers, the newest
// journal entries (oldest first), the parameters, and the preferences the
// user deleted (absent when none).
type MemoryView struct {
	Clock      int64              `json:"clock"`
	Config     memory.Config      `json:"config"`
	Counters   memory.Counters    `json:"counters"`
	Events     []memory.Event     `json:"events"`
	Chunks     []memory.Chunk     `json:"chunks"`
	Profile    memory.Profile     `json:"profile"`
	Journal    []memory.Entry     `json:"journal"`
	Tombstones []memory.Tombstone `json:"tombstones,omitempty"`
}

// nowOf returns the given time, or the memory's clock when none is given.
func nowOf(e *Engine, now *int64) (int64, error) {
	if now == nil {
		return e.doc.Memory.Clock, nil
	}
	if err := memory.CheckTime(*now); err != nil {
		return 0, fmt.Errorf("input.now: %w", err)
	}
	return *now, nil
}

// inputError prefixes a memory error with "input.", where its path is one of
// the input's; a counter the call would exhaust names the state's field
// instead (memory.ErrExhausted).
func inputError(err error) error {
	if errors.Is(err, memory.ErrExhausted) {
		return err
	}
	return fmt.Errorf("input.%w", err)
}

// decodeElem decodes one array element strictly, with errors naming it by
// path ("input.signals[3].rating: ...") rather than by the bare "input".
func decodeElem(raw json.RawMessage, path string, v any) error {
	err := decodeStrict(raw, v)
	if err == nil {
		return nil
	}
	if rest, ok := strings.CutPrefix(err.Error(), "input"); ok {
		return errors.New(path + rest)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// ground gives a preference stated by hand ("add" with text only) the
// category, key and aliases of what its words name in the loaded catalog
// ("avoids Nintendo": the platform facet, every Nintendo platform), so that
// it matches the items as the chunks extracted from them do. Without a
// catalog, or when the words name no facet, the op is left to the memory's
// default (a topic). O(ops × parse).
func (e *Engine) ground(ops []memory.Op) {
	if e.rec == nil {
		return
	}
	for i, o := range ops {
		if o.Op != "add" || o.Category != "" || o.Key != "" || o.Aliases != nil {
			continue
		}
		_, label, _ := memory.ParseStated(o.Text)
		facet, values, ok := e.rec.ranker.Ground(label)
		if !ok {
			continue
		}
		cat := memory.CategoryOf(facet, e.doc.Memory.Config.Categories)
		if cat == "" {
			continue
		}
		ops[i].Category, ops[i].Key, ops[i].Aliases = cat, label, values
	}
}
