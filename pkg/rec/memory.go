package rec

import (
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/memory"
)

// Epoch is the synthetic time of a user's first signal in a replay; each later
// signal comes one day later (RecBole sequences carry order, not time).
const Epoch = 1_600_000_000

// DefaultEventCap is the event-memory capacity of a replay: 50 holds every
// Games-6k history (at most 49 items), so the ranker sees the whole history.
const DefaultEventCap = 50

// Signals turns a case's history into signals with the items' metadata:
// "rate" signals with the rating and time of each entry when the data set
// has them (MovieLens), else purchase signals one day apart from Epoch
// (RecBole sequences carry order, not time). O(len(history)).
func Signals(d *dataset.RecBole, c Case) []memory.Signal {
	out := make([]memory.Signal, len(c.History))
	for t, it := range c.History {
		item := d.Items[it]
		meta := make(map[string][]string, len(item.Meta))
		for k, v := range item.Meta {
			meta[k] = []string{v}
		}
		g := memory.Signal{User: c.User, Item: item.ID, Action: "purchase", Meta: meta, Time: Epoch + int64(t)*86400}
		if c.Ratings != nil {
			g.Action, g.Rating = "rate", c.Ratings[t]
		}
		if c.Times != nil {
			g.Time = c.Times[t]
		}
		out[t] = g
	}
	return out
}

// SynthesizeReason is the journal reason of the synthesis that closes a
// retrospective build.
const SynthesizeReason = "retrospective mode: the profile is synthesized from the whole history (MARS §4.1)"

// NeedsProfile reports whether a retrospective build must still synthesize:
// the profile was never built, or mutations happened since.
func NeedsProfile(m *memory.State) bool {
	return profileLags(m.Profile.Version, m.Counters.Mutations)
}

// profileLags is NeedsProfile on a profile version and a count of mutations
// since the last synthesis (as a memory.Summary has them).
func profileLags(version, mutations int) bool {
	return version == 0 || mutations > 0
}

// Retrospective builds a memory the way the paper's retrospective mode does,
// natively: the whole history recorded at once, one forced maintenance by
// the fixed scheduler, then a synthesis unless that maintenance ended with
// one, so that every user is ranked with a profile (the paper always
// synthesizes one). O(memory lifecycle on the history).
func Retrospective(d *dataset.RecBole, c Case, eventCap int) (*memory.State, error) {
	m := memory.New(memory.Config{EventCap: eventCap})
	if _, err := m.Record(Signals(d, c), nil, memory.Policy{}); err != nil {
		return nil, err
	}
	if _, err := m.Maintain(m.Clock, memory.Fixed{}, true, memory.Policy{}); err != nil {
		return nil, err
	}
	if NeedsProfile(m) {
		if _, err := m.Apply(m.Clock, "planner", []memory.Op{{Op: "synthesize", Reason: SynthesizeReason}}, memory.Policy{}); err != nil {
			return nil, err
		}
	}
	return m, nil
}
