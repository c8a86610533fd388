package rank

import (
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
)

// FromMemory is the ranker's view of one user's memory: the events whose
// signal is not negative, oldest first (a dislike or skip is no evidence of
// taste for the collaborative features); every chunk, an "avoids" chunk with
// a negative strength so that its match counts against an item; and the
// profile text. O(memory size).
func FromMemory(m *memory.State) User {
	var u User
	for _, e := range m.Events {
		if memory.Polarity(e.Action, e.Rating) < 0 {
			continue
		}
		u.Events = append(u.Events, Event{Item: e.Item, Text: MetaText(e.Meta)})
	}
	for _, c := range m.Chunks {
		s := c.Strength
		if c.Polarity == "avoids" {
			s = -s
		}
		u.Chunks = append(u.Chunks, Chunk{Category: c.Category, Text: c.Text, Strength: s})
	}
	u.Profile = m.Profile.Text
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
