package rec

import (
	"fmt"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
)

// The modes of a replay (MARS §4): the whole history at once, or one signal
// at a time.
const (
	// ModeRetrospective records the whole history without maintenance, forces
	// one maintenance by the scheduler, then synthesizes the profile if it
	// lags (the paper always ranks with a profile).
	ModeRetrospective = "retrospective"
	// ModeEvolving records one signal at a time, each followed by the
	// scheduler's maintenance.
	ModeEvolving = "evolving"
)

// Replay plays users' histories through the module's exports, as a client
// of the module does, and ranks their candidates: the offline side of
// `recmem eval rec`. Every call goes through an engine.Caller, so the same
// replay runs natively or through the .wasm and gives the same bytes.
type Replay struct {
	Data      *dataset.RecBole
	Mode      string // ModeRetrospective or ModeEvolving
	Scheduler string // "fixed" or "planner": the maintenance scheduler
	// EventCap is the event memory's capacity given to reset (0: the
	// memory's own default, 15); eval rec gives DefaultEventCap.
	EventCap int
}

// check reports a mode or scheduler the replay does not know.
func (r Replay) check() error {
	if r.Mode != ModeRetrospective && r.Mode != ModeEvolving {
		return fmt.Errorf("rec: replay: mode: want %s or %s, got %q", ModeRetrospective, ModeEvolving, r.Mode)
	}
	if r.Scheduler != "fixed" && r.Scheduler != "planner" {
		return fmt.Errorf("rec: replay: scheduler: want fixed or planner, got %q", r.Scheduler)
	}
	return nil
}

// UserResult is what one user's replay gave.
type UserResult struct {
	Rank    int            // the target's 0-based rank (TargetRank)
	Ops     map[string]int // lifecycle operations by journal op (CountOps)
	Profile bool           // the ranking read a profile
	LLM     Outcomes       // what became of the LLM's answers
	Quality llm.Quality    // the memory the user was ranked with, judged
}

func newUserResult() UserResult {
	return UserResult{Ops: map[string]int{}, LLM: Outcomes{}}
}

// User replays k's history on c from an empty memory and ranks k's
// candidates with it. c must have a catalog loaded. Cost: the exports'
// (reset, then one record, maintain and apply_ops call in retrospective
// mode or one record call per signal in evolving mode, then one rank).
func (r Replay) User(c engine.Caller, k Case) (UserResult, error) {
	res := newUserResult()
	if err := r.build(c, Signals(r.Data, k), &res); err != nil {
		return UserResult{}, err
	}
	scores, err := r.rank(c, k.Candidates, &res)
	if err != nil {
		return UserResult{}, err
	}
	res.Rank = TargetRank(scores, 0)
	if res.Quality, err = judge(c); err != nil {
		return UserResult{}, err
	}
	return res, nil
}

// judge reads c's memory (get_memory) and judges it (llm.MemoryQuality).
func judge(c engine.Caller) (llm.Quality, error) {
	v, err := engine.GetMemory.Call(c, engine.GetMemoryInput{})
	if err != nil {
		return llm.Quality{}, err
	}
	s := memory.State{Config: v.Config, Clock: v.Clock, Events: v.Events, Chunks: v.Chunks, Profile: v.Profile, Journal: v.Journal}
	return llm.MemoryQuality(&s), nil
}

// Builder returns what builds a case's memory on a caller as the replay
// does (reset, then its history in the replay's mode), for measurements
// made on that memory (Control).
func (r Replay) Builder() func(engine.Caller, Case) error {
	return func(c engine.Caller, k Case) error {
		res := newUserResult()
		return r.build(c, Signals(r.Data, k), &res)
	}
}

// build resets c's memory and streams sigs into it.
func (r Replay) build(c engine.Caller, sigs []memory.Signal, res *UserResult) error {
	if _, err := engine.Reset.Call(c, engine.ResetInput{Config: memory.Config{EventCap: r.EventCap}}); err != nil {
		return err
	}
	return r.stream(c, sigs, res)
}

// stream records sigs into c's current memory in the replay's mode,
// counting the lifecycle operations and the LLM outcomes into res.
func (r Replay) stream(c engine.Caller, sigs []memory.Signal, res *UserResult) error {
	if r.Mode == ModeEvolving {
		for _, s := range sigs {
			out, err := engine.Record.Call(c, engine.RecordInput{Signals: []memory.Signal{s}, Maintain: r.Scheduler})
			if err != nil {
				return err
			}
			res.record(out)
		}
		return nil
	}
	out, err := engine.Record.Call(c, engine.RecordInput{Signals: sigs, Maintain: "none"})
	if err != nil {
		return err
	}
	res.record(out)
	m, err := engine.Maintain.Call(c, engine.MaintainInput{Scheduler: r.Scheduler, Force: true})
	if err != nil {
		return err
	}
	CountOps(res.Ops, m.Ops)
	res.LLM.Add(m.LLM)
	if !profileLags(m.Summary.ProfileVersion, m.Summary.Mutations) {
		return nil
	}
	a, err := engine.ApplyOps.Call(c, engine.ApplyOpsInput{Trigger: "planner",
		Ops: []memory.Op{{Op: "synthesize", Reason: SynthesizeReason}}})
	if err != nil {
		return err
	}
	CountOps(res.Ops, a.Ops)
	res.LLM.Add(a.LLM)
	return nil
}

// record counts a record call's operations and LLM outcomes.
func (res *UserResult) record(out engine.RecordOutput) {
	CountOps(res.Ops, out.Fifo, out.Maintenance.Ops)
	res.LLM.Add(out.LLM)
}

// CountOps adds the lifecycle operations of journal entries to into, one per
// entry, except the "extract" entry that closes an extraction batch without
// naming a chunk (the chunks it created have entries of their own).
func CountOps(into map[string]int, entries ...[]memory.Entry) {
	for _, l := range entries {
		for _, e := range l {
			if e.Op == "extract" && len(e.Chunks) == 0 {
				continue
			}
			into[e.Op]++
		}
	}
}

// rank ranks items with c's current memory and returns their scores in the
// order of items, noting in res whether the ranker read a profile and the
// LLM's outcomes.
func (r Replay) rank(c engine.Caller, items []int, res *UserResult) ([]float64, error) {
	cands := make([]engine.RankCandidate, len(items))
	for j, it := range items {
		cands[j] = engine.RankCandidate{ID: r.Data.Items[it].ID}
	}
	out, err := engine.Rank.Call(c, engine.RankInput{Candidates: cands})
	if err != nil {
		return nil, err
	}
	res.LLM.Add(out.LLM)
	res.Profile = out.Context.Profile
	score := make(map[string]float64, len(out.Ranking))
	for _, x := range out.Ranking {
		score[x.ID] = x.Score
	}
	scores := make([]float64, len(cands))
	for j, cd := range cands {
		scores[j] = score[cd.ID]
	}
	return scores, nil
}

// Probe measures one user's responsiveness on c (see Probe): the pool ranked
// with the memory of the history without the low ratings on the genre, then
// again once they are streamed in. It returns the genre's share of the top
// TopK before and after. The probe is a measurement apart from the run: its
// lifecycle operations and LLM outcomes are not returned.
func (r Replay) Probe(c engine.Caller, p Probe) (before, after float64, err error) {
	res := newUserResult()
	share := func() (float64, error) {
		sc, err := r.rank(c, p.Pool, &res)
		if err != nil {
			return 0, err
		}
		return p.Share(sc), nil
	}
	if err := r.build(c, Signals(r.Data, p.Rest), &res); err != nil {
		return 0, 0, err
	}
	if before, err = share(); err != nil {
		return 0, 0, err
	}
	if err := r.stream(c, Signals(r.Data, p.Low), &res); err != nil {
		return 0, 0, err
	}
	after, err = share()
	return before, after, err
}
