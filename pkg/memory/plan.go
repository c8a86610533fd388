package memory

import (
	"fmt"
	"strings"
)

// Fixed is the fixed scheduler (MARS "fixed"): it maintains when at least
// Config.Batch signals are pending (or when forced). Maintenance is an
// extraction of the pending signals, then the merges Duplicates finds, then
// the forgets the rule allows. Synthesis is left to the automatic one every
// Config.Gamma mutations.
type Fixed struct{}

// Name implements Planner.
func (Fixed) Name() string { return "fixed" }

// Trigger implements Planner.
func (Fixed) Trigger() string { return "scheduler" }

// Plan implements Planner. Cost: one extraction and one merge scan on a copy.
func (f Fixed) Plan(s *State, now int64, force bool, pol Policy) (Decision, error) {
	n, b := len(s.pending()), s.Config.Batch
	var why string
	switch {
	case n >= b:
		why = fmt.Sprintf("%d pending signals reached the batch size %d", n, b)
	case force:
		why = fmt.Sprintf("forced with %d pending signal%s (batch size %d)", n, plural(n), b)
	default:
		return wait(f, fmt.Sprintf("%d pending signal%s, below the batch size %d", n, plural(n), b)), nil
	}
	p := newPlan(s, now, f.Trigger(), pol)
	if n > 0 {
		p.add(Op{Op: "extract", Reason: why})
	}
	p.add(Duplicates(p.sim)...)
	p.add(Forgettable(p.sim)...)
	return p.decide(f, why, "nothing to extract, merge or forget")
}

// Heuristic is the LLM-free planner (MARS "agentic" scheduling without the
// LLM). It extracts when the pending volume reaches Config.Batch, when a
// pending signal contradicts a chunk of at least Config.StrongStrength, or
// when the oldest pending signal is Config.StalePending old; it merges
// near-duplicates, demotes chunks not seen for Config.StaleChunk, forgets
// what the rule allows, and resynthesizes a profile that lags behind
// mutations and is Config.ProfileMaxAge old (or was never built). Otherwise
// it waits, and says why.
type Heuristic struct{}

// Name implements Planner.
func (Heuristic) Name() string { return "planner" }

// Trigger implements Planner.
func (Heuristic) Trigger() string { return "planner" }

// Plan implements Planner. Cost: one extraction on a copy plus O(c²) merge
// checks and O(pending × features × chunks) contradiction checks.
func (h Heuristic) Plan(s *State, now int64, force bool, pol Policy) (Decision, error) {
	cfg := s.Config
	pend := s.pending()
	p := newPlan(s, now, h.Trigger(), pol)
	var why []string
	var waitWhy []string
	if len(pend) > 0 {
		oldest := s.Events[s.eventIndex(pend[0])]
		age := now - oldest.Time
		reason := ""
		if len(pend) >= cfg.Batch {
			reason = fmt.Sprintf("%d pending signals reached the batch size %d", len(pend), cfg.Batch)
		} else {
			reason = contradiction(s)
		}
		switch {
		case reason != "":
		case age >= cfg.StalePending:
			reason = fmt.Sprintf("oldest pending signal %s is %s old (stale after %s)", oldest.ID, days(age), days(cfg.StalePending))
		case force:
			reason = fmt.Sprintf("forced with %d pending signal%s", len(pend), plural(len(pend)))
		default:
			waitWhy = append(waitWhy, fmt.Sprintf("%d pending signal%s (batch size %d), none contradicting a strong chunk, oldest %s old (stale after %s)",
				len(pend), plural(len(pend)), cfg.Batch, days(age), days(cfg.StalePending)))
		}
		if reason != "" {
			why = append(why, reason)
			p.add(Op{Op: "extract", Reason: reason})
		}
	} else {
		waitWhy = append(waitWhy, "no pending signals")
	}
	if ops := Duplicates(p.sim); len(ops) > 0 {
		why = append(why, fmt.Sprintf("%d near-duplicate group%s to merge", len(ops), plural(len(ops))))
		p.add(ops...)
	}
	var stale []Op
	for _, c := range p.sim.Chunks {
		if age := now - c.LastSeen; age >= cfg.StaleChunk && !c.Stated {
			stale = append(stale, Op{Op: "demote", Chunk: c.ID,
				Reason: fmt.Sprintf("not seen for %s (stale after %s)", days(age), days(cfg.StaleChunk))})
		}
	}
	if len(stale) > 0 {
		why = append(why, fmt.Sprintf("%d stale chunk%s to demote", len(stale), plural(len(stale))))
		p.add(stale...)
	}
	if ops := Forgettable(p.sim); len(ops) > 0 {
		why = append(why, fmt.Sprintf("%d chunk%s to forget", len(ops), plural(len(ops))))
		p.add(ops...)
	}
	if m := p.sim.Counters.Mutations; m > 0 {
		prof := p.sim.Profile
		switch age := now - prof.Time; {
		case prof.Version == 0:
			p.add(Op{Op: "synthesize", Reason: fmt.Sprintf("no profile yet and %d mutation%s to reflect", m, plural(m))})
			why = append(why, "profile never built")
		case age >= cfg.ProfileMaxAge:
			p.add(Op{Op: "synthesize", Reason: fmt.Sprintf("profile is %s old and %d mutation%s behind", days(age), m, plural(m))})
			why = append(why, "profile stale")
		}
	}
	if p.err != nil {
		return Decision{}, p.err
	}
	if len(p.ops) == 0 {
		return wait(h, strings.Join(append(waitWhy, "nothing to merge, demote or forget; profile current"), "; ")), nil
	}
	return p.decide(h, strings.Join(why, "; "), "")
}

// contradiction describes the first pending signal that goes against a chunk
// at least Config.StrongStrength strong, or returns "".
func contradiction(s *State) string {
	for _, e := range s.Events {
		p := Polarity(e.Action, e.Rating)
		if !e.Pending || p == 0 {
			continue
		}
		for _, f := range itemFeatures(e.Meta, s.Config.Categories) {
			i := s.findChunk(f.Category, f.Key)
			if i < 0 {
				continue
			}
			c := s.Chunks[i]
			against := (c.Polarity == "likes") == (p < 0)
			if against && c.Strength >= s.Config.StrongStrength {
				return fmt.Sprintf("pending %s contradicts strong chunk %s %q (%s)",
					describeEvents(s, []string{e.ID}), c.ID, c.Text, fmtStrength(c.Strength))
			}
		}
	}
	return ""
}

// plan builds an op list on a simulation, so that later ops see the effect
// of earlier ones (an extraction's demotes before the forgets).
type plan struct {
	sim     *State
	now     int64
	trigger string
	pol     Policy
	ops     []Op
	entries []Entry
	err     error
}

func newPlan(s *State, now int64, trigger string, pol Policy) *plan {
	return &plan{sim: s.Clone(), now: now, trigger: trigger, pol: pol}
}

func (p *plan) add(ops ...Op) {
	if p.err != nil || len(ops) == 0 {
		return
	}
	entries, err := p.sim.Apply(p.now, p.trigger, ops, p.pol)
	if err != nil {
		p.err = err
		return
	}
	p.ops = append(p.ops, ops...)
	p.entries = append(p.entries, entries...)
}

func (p *plan) decide(pl Planner, why, nothing string) (Decision, error) {
	if p.err != nil {
		return Decision{}, p.err
	}
	if len(p.ops) == 0 {
		return wait(pl, why+"; "+nothing), nil
	}
	return Decision{Scheduler: pl.Name(), Decision: "maintain", Reason: why, Ops: p.ops, sim: p.sim, entries: p.entries}, nil
}

// Simulate runs d's ops on a copy of s at now, in one batch with trigger and
// pol, exactly as Maintain would apply them, and returns d carrying the
// outcome. Maintain then adopts the copy instead of applying the ops again:
// what a planner checked is what applies, and the extractor (and an LLM
// behind it) runs once. On error s is untouched and the error names the op
// that failed (`ops[1].chunk: unknown chunk "c4"`).
// Cost: one Apply of d.Ops on a copy of s.
func (s *State) Simulate(d Decision, now int64, trigger string, pol Policy) (Decision, error) {
	if err := s.checkNow(now); err != nil {
		return Decision{}, err
	}
	p := newPlan(s, now, trigger, pol)
	p.add(d.Ops...)
	if p.err != nil {
		return Decision{}, p.err
	}
	d.sim, d.entries = p.sim, p.entries
	return d, nil
}

func wait(pl Planner, why string) Decision {
	return Decision{Scheduler: pl.Name(), Decision: "wait", Reason: why, Ops: []Op{}}
}

// days formats a duration in seconds as whole days ("1 day", "8 days").
func days(sec int64) string {
	d := sec / 86400
	if d == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", d)
}
