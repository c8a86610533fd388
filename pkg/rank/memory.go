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
// categories. O(memory size).
func FromMemory(m *memory.State) User {
	u := User{Categories: m.Config.Categories}
	for _, e := range m.Events {
		ev := Event{Item: e.Item, Text: MetaText(e.Meta)}
		if memory.Polarity(e.Action, e.Rating) < 0 {
			u.Disliked = append(u.Disliked, ev)
			continue
		}
		u.Events = append(u.Events, ev)
	}
	for _, c := range m.Chunks {
		s := c.Strength
		if c.Polarity == "avoids" {
			s = -s
		}
		keys := append([]string{c.Key}, c.Aliases...)
		u.Chunks = append(u.Chunks, Chunk{Category: c.Category, Text: c.Text, Strength: s, Keys: keys})
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
