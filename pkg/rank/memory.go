package rank

import (
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
)

// FromMemory is the ranker's view of one user's memory: the events whose
// signal is not negative, oldest first (a dislike or skip is no evidence of
// taste for the collaborative features), and apart the negative ones; every
// chunk with what it is about, an "avoids" chunk with a negative strength so
// that its match counts against an item; the profile text; the configured
// categories; the stated chunks marked; each deleted preference with the
// events that were its evidence. O(memory size).
func FromMemory(m *memory.State) User {
	u := User{Categories: m.Config.Categories}
	var kept []memory.Event // the events of u.Events, in order
	for _, e := range m.Events {
		ev := Event{Item: e.Item, Text: MetaText(e.Meta)}
		if memory.Polarity(e.Action, e.Rating) < 0 {
			u.Disliked = append(u.Disliked, ev)
			continue
		}
		u.Events = append(u.Events, ev)
		kept = append(kept, e)
	}
	for _, c := range m.Chunks {
		s := c.Strength
		if c.Polarity == "avoids" {
			s = -s
		}
		keys := append([]string{c.Key}, c.Aliases...)
		u.Chunks = append(u.Chunks, Chunk{Category: c.Category, Text: c.Text, Strength: s, Keys: keys, Stated: c.Stated})
	}
	u.Profile = m.Profile.Text
	// A deleted preference: the events that were in memory when it was
	// deleted and that are about it were its evidence.
	var eventKeys [][]memory.ItemKey
	for _, t := range m.Tombstones {
		if eventKeys == nil {
			eventKeys = make([][]memory.ItemKey, len(kept))
			for i, e := range kept {
				eventKeys[i] = memory.ItemKeys(e.Meta, m.Config.Categories)
			}
		}
		ts := Tombstone{Category: t.Category, Keys: append([]string{t.Key}, t.Aliases...)}
		for i, e := range kept {
			if memory.EventNumber(e.ID) < t.Before && about(eventKeys[i], ts.Category, ts.Keys) {
				ts.Events = append(ts.Events, i)
			}
		}
		u.Tombstones = append(u.Tombstones, ts)
	}
	return u
}

// MetaText joins item metadata values in field order, so the text is the
// same on every host. O(size).
func MetaText(m map[string][]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, m[k]...)
	}
	return strings.Join(parts, " ")
}
