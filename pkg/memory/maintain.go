package memory

import (
	"fmt"
	"maps"
	"slices"
)

// Maintenance reports a scheduler's decision and the journal entries its ops
// wrote (none when it waits).
type Maintenance struct {
	Scheduler string  `json:"scheduler"`
	Decision  string  `json:"decision"`
	Reason    string  `json:"reason"`
	Ops       []Entry `json:"ops"`
}

// Plan asks p what it would do at time now, without changing s.
func (s *State) Plan(now int64, p Planner, force bool, pol Policy) (Decision, error) {
	if err := s.checkNow(now); err != nil {
		return Decision{}, err
	}
	return p.Plan(s, now, force, pol)
}

// Maintain asks p for a decision at time now and applies its ops atomically,
// with p's trigger. On error s is untouched.
func (s *State) Maintain(now int64, p Planner, force bool, pol Policy) (Maintenance, error) {
	d, err := s.Plan(now, p, force, pol)
	if err != nil {
		return Maintenance{}, err
	}
	m := Maintenance{Scheduler: d.Scheduler, Decision: d.Decision, Reason: d.Reason, Ops: []Entry{}}
	if d.Decision != "maintain" {
		return m, nil
	}
	if d.sim != nil {
		// The planner already applied its ops to a copy, in order, at now,
		// with its trigger: applying them in one batch gives the same state.
		m.Ops = nonNil(d.entries)
		if err := d.sim.checkExhausted(); err != nil {
			return Maintenance{}, err
		}
		*s = *d.sim
		return m, nil
	}
	if m.Ops, err = s.Apply(now, p.Trigger(), d.Ops, pol); err != nil {
		return Maintenance{}, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return m, nil
}

// RecordResult reports what Record did.
type RecordResult struct {
	EventsAdded int `json:"events_added"`
	// Repeated lists the client ids of signals already recorded (in an
	// earlier call or earlier in this one): acknowledged, not recorded again.
	Repeated []string `json:"repeated,omitempty"`
	Evicted  []string `json:"evicted"`
	// Fifo holds the entries of extractions run because a pending event was
	// about to leave the event memory.
	Fifo        []Entry     `json:"fifo"`
	Maintenance Maintenance `json:"maintenance"`
}

// Record appends signals to event memory as pending events, then asks p (nil:
// no maintenance) to maintain at the memory's clock, which moves to the
// latest signal time. All signals are validated first: one bad signal and
// nothing is recorded (`signals[3].action: unknown action "zap"`). A signal
// whose client id the memory has seen with the same content (its
// Fingerprint) is skipped and listed in the result's Repeated; one whose id
// the memory has seen with another signal is refused, and nothing is
// recorded (Stripe's idempotency keys refuse a key reused for another
// request the same way).
//
// When the FIFO is full the oldest event leaves it; if that event is still
// pending, the pending events are extracted first (journal trigger "fifo"),
// so no signal is lost unread. The whole call is atomic.
// Cost O(signals × events) plus the extractions and maintenance.
func (s *State) Record(signals []Signal, p Planner, pol Policy) (RecordResult, error) {
	for i, g := range signals {
		if err := g.validate(); err != nil {
			return RecordResult{}, fmt.Errorf("signals[%d].%w", i, err)
		}
	}
	w := s.Clone()
	res := RecordResult{Evicted: []string{}, Fifo: []Entry{}}
	for i, g := range signals {
		if g.ClientID != "" {
			fp := g.Fingerprint()
			if k := slices.IndexFunc(w.ClientIDs, func(c ClientID) bool { return c.ID == g.ClientID }); k >= 0 {
				if was := w.ClientIDs[k].Signal; was != "" && was != fp {
					return RecordResult{}, fmt.Errorf("signals[%d].client_id: %q was given to another signal already (signal %s, this one %s): a client id names one signal, and a retry sends it unchanged; give a new signal a new id", i, g.ClientID, was, fp)
				}
				res.Repeated = append(res.Repeated, g.ClientID)
				continue
			}
			w.ClientIDs = append(w.ClientIDs, ClientID{ID: g.ClientID, Signal: fp})
			if over := len(w.ClientIDs) - MaxClientIDs; over > 0 {
				w.ClientIDs = slices.Delete(w.ClientIDs, 0, over)
			}
		}
		w.Clock = max(w.Clock, g.Time)
		for len(w.Events) >= w.Config.EventCap {
			old := w.Events[0]
			if old.Pending {
				why := fmt.Sprintf("event %s is about to leave the event memory (capacity %d) while pending", old.ID, w.Config.EventCap)
				entries, err := w.Apply(w.Clock, "fifo", []Op{{Op: "extract", Reason: why}}, pol)
				if err != nil {
					return RecordResult{}, fmt.Errorf("fifo extraction: %w", err)
				}
				res.Fifo = append(res.Fifo, entries...)
			}
			w.Events = slices.Delete(w.Events, 0, 1)
			res.Evicted = append(res.Evicted, old.ID)
		}
		meta := maps.Clone(g.Meta)
		for k, v := range meta {
			meta[k] = slices.Clone(v)
		}
		w.Events = append(w.Events, Event{
			ID: fmt.Sprintf("e%d", w.Counters.NextEvent), User: g.User, Item: g.Item, Action: g.Action,
			Rating: g.Rating, Meta: meta, Time: g.Time, Pending: true,
		})
		w.Counters.NextEvent++
		res.EventsAdded++
	}
	if p == nil {
		res.Maintenance = Maintenance{Scheduler: "none", Decision: "wait", Reason: "maintenance not requested", Ops: []Entry{}}
	} else {
		m, err := w.Maintain(w.Clock, p, false, pol)
		if err != nil {
			return RecordResult{}, err
		}
		res.Maintenance = m
	}
	if err := w.checkExhausted(); err != nil {
		return RecordResult{}, err
	}
	*s = *w
	return res, nil
}
