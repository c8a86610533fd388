package memory

import (
	"cmp"
	"fmt"
	"strings"
)

// avoid records a user's standing wish never to be shown something, kept
// from an instruction like "never show me Halo": an "avoids" chunk of the
// category and key, at strength 1 unless given (the user said so; it is no
// inference). A chunk of the same category and key already there, liked or
// avoided, is turned into it, so that the memory holds one view of a thing.
// The instruction that offered it stays per request; this is the memory.
func (t *txn) avoid(o Op) error {
	if t.trigger != "user" {
		return fmt.Errorf("op: avoid is a user's wish (trigger \"user\")")
	}
	switch {
	case o.Category == "":
		return fmt.Errorf("category: required")
	case strings.TrimSpace(o.Key) == "":
		return fmt.Errorf("key: required (what to avoid, e.g. \"Halo\")")
	}
	label := strings.TrimSpace(o.Key)
	text := cmp.Or(strings.TrimSpace(o.Text), chunkText(o.Category, "avoids", label))
	strength := 1.0
	if o.Strength != nil {
		strength = *o.Strength
	}
	reason := cmp.Or(o.Reason, fmt.Sprintf("the user asked never to be shown %s", label))
	if i := t.s.findChunk(o.Category, normalizeKey(o.Key)); i >= 0 {
		c := &t.s.Chunks[i]
		e := Entry{Op: "avoid", Chunks: []string{c.ID}, Before: ptr(c.Strength), Reason: reason}
		if c.Polarity != "avoids" {
			e.Reason += " (it was a liked " + o.Category + ")"
		}
		c.Polarity, c.Text, c.LastSeen = "avoids", text, t.now
		t.setStrength(c, strength)
		e.After = ptr(c.Strength)
		return t.journal(e)
	}
	return t.createAs(Op{Op: "extract", Category: o.Category, Key: o.Key, Polarity: "avoids", Text: text,
		Strength: &strength, Reason: reason}, "avoid")
}
