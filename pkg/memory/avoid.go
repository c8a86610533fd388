package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/text"
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
	reason := cmp.Or(o.Reason, fmt.Sprintf("the user asked never to be shown %s", label))
	return t.state(o, "avoid", "avoids", normalizeKey(o.Key), text, reason)
}

// add records a preference the user states by hand: "likes racing",
// "avoids Nintendo" (ParseStated reads the words). Category and key may be
// given (a host that knows the catalog grounds the words in one of its
// facets, with the facet values as aliases); else the category is the topic
// one and the key the words. Strength is 1 unless given. It acts at once:
// a stated chunk is read by the ranker like any other, and a stated
// "avoids" at full strength keeps what it names out of recommendations.
func (t *txn) add(o Op) error {
	if t.trigger != "user" {
		return fmt.Errorf("op: add is the user's own statement (trigger \"user\")")
	}
	if strings.TrimSpace(o.Text) == "" {
		return fmt.Errorf("text: required: what the user likes or avoids (\"likes racing\", \"avoids Nintendo\")")
	}
	pol, label, cued := ParseStated(o.Text)
	if o.Polarity != "" {
		pol = o.Polarity
	}
	if pol != "likes" && pol != "avoids" {
		return fmt.Errorf("polarity: unknown polarity %q (want likes or avoids)", o.Polarity)
	}
	if o.Category == "" {
		o.Category = mapCategory("topic", t.s.Config.Categories)
		if o.Category == "" {
			return fmt.Errorf("category: required (configured: %s)", strings.Join(t.s.Config.Categories, ", "))
		}
	}
	key := normalizeKey(cmp.Or(o.Key, label))
	if key == "" || (o.Key == "" && !namesSomething(label)) {
		return fmt.Errorf("text: %q names nothing to like or avoid", o.Text)
	}
	text := upperFirst(strings.Join(strings.Fields(o.Text), " "))
	if !cued {
		text = map[string]string{"likes": "Likes ", "avoids": "Avoids "}[pol] + label
	}
	reason := cmp.Or(o.Reason, fmt.Sprintf("the user said: %q", strings.TrimSpace(o.Text)))
	return t.state(o, "add", pol, key, text, reason)
}

// state writes the user's statement about (o.Category, key): a new stated
// chunk, or the chunk of that category and key turned into it. A tombstone
// of the same key and polarity is lifted: the user has said it again.
func (t *txn) state(o Op, op, pol, key, text, reason string) error {
	switch {
	case o.Category != normalizeCategory(o.Category):
		return fmt.Errorf("category: %q is not normalized (want %q)", o.Category, normalizeCategory(o.Category))
	case len(t.s.Config.Categories) > 0 && !slices.Contains(t.s.Config.Categories, o.Category):
		return fmt.Errorf("category: unknown category %q (configured: %s)", o.Category, strings.Join(t.s.Config.Categories, ", "))
	case key == "":
		return fmt.Errorf("key: %q has no letters or digits", o.Key)
	case len(key) > maxKeyLen:
		return fmt.Errorf("key: longer than %d bytes", maxKeyLen)
	case len(text) > maxTextLen:
		return fmt.Errorf("text: longer than %d bytes", maxTextLen)
	}
	var aliases []string
	for i, a := range o.Aliases {
		k := normalizeKey(a)
		switch {
		case k == "" || len(k) > maxKeyLen:
			return fmt.Errorf("aliases[%d]: %q is not a key of 1 to %d bytes", i, a, maxKeyLen)
		case k != key && !slices.Contains(aliases, k):
			aliases = append(aliases, k)
		}
	}
	strength := 1.0
	if o.Strength != nil {
		strength = *o.Strength
	}
	for _, k := range append([]string{key}, aliases...) {
		t.s.liftTombstone(o.Category, k, pol)
	}
	// The chunks about the key or an alias become one: the first takes the
	// statement, the others fold into it.
	var held []string
	for _, k := range append([]string{key}, aliases...) {
		if j := t.s.findChunk(o.Category, k); j >= 0 && !slices.Contains(held, t.s.Chunks[j].ID) {
			held = append(held, t.s.Chunks[j].ID)
		}
	}
	if len(held) > 0 {
		c := t.s.Chunks[t.s.chunkIndex(held[0])]
		e := Entry{Op: op, Chunks: held, Before: ptr(c.Strength), Reason: reason}
		var was []string
		for _, id := range held {
			x := t.s.Chunks[t.s.chunkIndex(id)]
			if x.Polarity != pol || x.Text != text {
				was = append(was, fmt.Sprintf("%q", x.Text))
			}
			for _, k := range append([]string{x.Key, key}, append(x.Aliases, aliases...)...) {
				if k != c.Key && !slices.Contains(c.Aliases, k) {
					c.Aliases = append(c.Aliases, k)
				}
			}
		}
		if len(was) > 0 {
			e.Reason += fmt.Sprintf(" (it was %s)", joinAnd(was))
		}
		slices.Sort(c.Aliases)
		c.Polarity, c.Text, c.LastSeen, c.Stated = pol, text, t.now, true
		t.setStrength(&c, strength)
		t.s.Chunks = slices.DeleteFunc(t.s.Chunks, func(x Chunk) bool { return slices.Contains(held[1:], x.ID) })
		t.s.Chunks[t.s.chunkIndex(c.ID)] = c
		e.After = ptr(c.Strength)
		return t.journal(e)
	}
	slices.Sort(aliases)
	return t.createAs(Op{Op: "extract", Category: o.Category, Key: key, Polarity: pol, Text: text,
		Strength: &strength, Reason: reason, Aliases: aliases}, op)
}

// ParseStated reads a preference a person states: a leading cue gives its
// polarity ("likes", "loves", "enjoys", "prefers", "into"; "avoids",
// "dislikes", "hates", "no", "not", "never", "don't like"...), the rest is
// what it is about. Without a cue the words are something liked. cued says
// whether a cue was found. O(len(s)).
func ParseStated(s string) (polarity, label string, cued bool) {
	words := strings.Fields(s)
	lower := strings.Fields(strings.ToLower(apostrophes.Replace(s)))
	for n := min(3, len(lower)); n >= 1; n-- {
		cue := strings.Join(lower[:n], " ")
		if pol, ok := statedCues[cue]; ok {
			if rest := strings.Join(words[n:], " "); strings.TrimSpace(rest) != "" {
				return pol, strings.Trim(rest, " .,;:!"), true
			}
		}
	}
	return "likes", strings.Trim(strings.Join(words, " "), " .,;:!"), false
}

// namesSomething reports whether a stated preference's words hold a word
// that is neither a common word nor a cue ("likes the", "avoids avoids",
// a bare "likes" name nothing). O(words).
func namesSomething(label string) bool {
	for _, w := range text.Keywords(label) {
		if _, cue := statedCues[w]; !cue {
			return true
		}
	}
	return false
}

// statedCues map the words that open a stated preference to its polarity.
var statedCues = func() map[string]string {
	m := map[string]string{}
	for pol, cues := range map[string]string{
		"likes":  "likes|like|i like|loves|love|i love|enjoys|enjoy|i enjoy|prefers|prefer|i prefer|into|im into|fan of|a fan of|more|more of|wants|want|i want",
		"avoids": "avoids|avoid|dislikes|dislike|i dislike|hates|hate|i hate|no|not|never|no more|not into|dont like|doesnt like|i dont like|less|less of|never show|never show me|not interested in",
	} {
		for _, c := range strings.Split(cues, "|") {
			m[c] = pol
		}
	}
	return m
}()
