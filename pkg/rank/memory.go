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
	var kept, disliked []memory.Event    // the events of u.Events and u.Disliked, in order
	var keys map[string][]memory.ItemKey // an event's, by id, when a tombstone asks
	for _, e := range m.Events {
		ev := Event{Item: e.Item, Text: MetaText(e.Meta)}
		if memory.Polarity(e.Action, e.Rating) < 0 {
			u.Disliked = append(u.Disliked, ev)
			disliked = append(disliked, e)
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
	// deleted and that are about it were its evidence; the liked or
	// neutral ones for a liking, the disliked ones for an avoidance.
	for _, t := range m.Tombstones {
		if keys == nil {
			keys = map[string][]memory.ItemKey{}
		}
		ts := Tombstone{Category: t.Category, Keys: append([]string{t.Key}, t.Aliases...), Text: t.Text}
		at, from := &ts.Events, kept
		if t.Polarity == "avoids" {
			at, from = &ts.Disliked, disliked
		}
		for i, e := range from {
			if memory.EventNumber(e.ID) >= t.Before {
				continue
			}
			ks, ok := keys[e.ID]
			if !ok {
				ks = memory.ItemKeys(e.Meta, m.Config.Categories)
				keys[e.ID] = ks
			}
			if about(ks, ts.Category, ts.Keys) {
				*at = append(*at, i)
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
