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

// Signals turns a history into purchase signals with the items' metadata,
// one day apart. O(len(history)).
func Signals(d *dataset.RecBole, user string, history []int) []memory.Signal {
	out := make([]memory.Signal, len(history))
	for t, it := range history {
		item := d.Items[it]
		meta := make(map[string][]string, len(item.Meta))
		for k, v := range item.Meta {
			meta[k] = []string{v}
		}
		out[t] = memory.Signal{User: user, Item: item.ID, Action: "purchase", Meta: meta, Time: Epoch + int64(t)*86400}
	}
	return out
}

// Retrospective builds a memory the way the paper's retrospective mode does,
// natively: the whole history recorded at once, then one forced maintenance
// by the fixed scheduler. O(memory lifecycle on the history).
func Retrospective(d *dataset.RecBole, user string, history []int, eventCap int) (*memory.State, error) {
	m := memory.New(memory.Config{EventCap: eventCap})
	sig := Signals(d, user, history)
	if _, err := m.Record(sig, nil, memory.Policy{}); err != nil {
		return nil, err
	}
	if _, err := m.Maintain(m.Clock, memory.Fixed{}, true, memory.Policy{}); err != nil {
		return nil, err
	}
	return m, nil
}
