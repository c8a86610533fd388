package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// extractPending runs the Extractor over the pending events (all of them, or
// those o lists), applies its proposals, marks the events processed and
// closes with an "extract" entry that lists them and counts the outcome.
func (t *txn) extractPending(o Op) error {
	scope := t.s.pending()
	if o.Events != nil {
		for i, id := range o.Events {
			j := t.s.eventIndex(id)
			switch {
			case j < 0:
				return fmt.Errorf("events[%d]: unknown event %q", i, id)
			case !t.s.Events[j].Pending:
				return fmt.Errorf("events[%d]: event %q is not pending", i, id)
			case slices.Index(o.Events, id) != i:
				return fmt.Errorf("events[%d]: event %q listed twice", i, id)
			}
		}
		scope = slices.DeleteFunc(scope, func(id string) bool { return !slices.Contains(o.Events, id) })
	}
	return t.extract(scope, o.Reason)
}

// extract is extractPending on a given scope; why prefixes the closing reason.
func (t *txn) extract(scope []string, why string) error {
	if len(scope) == 0 {
		return t.journal(Entry{Op: "extract", Reason: joinReason(why, "no pending events to extract")})
	}
	props, err := t.pol.extractor().Extract(t.s, scope)
	if err != nil {
		return fmt.Errorf("op: extractor: %w", err)
	}
	start := len(t.out)
	for i, p := range props {
		if p.Op == "extract" && p.sweep() {
			return fmt.Errorf("op: extractor proposal %d is itself an extraction", i)
		}
		if err := t.apply(p); err != nil {
			return fmt.Errorf("op: extractor proposal %d (%s) failed: %w", i, p.Op, err)
		}
	}
	count := map[string]int{}
	for _, e := range t.out[start:] {
		if e.Op != "extract" || len(e.Chunks) > 0 {
			count[e.Op]++
		}
	}
	neutral, ignored := 0, 0
	for _, id := range scope {
		e := &t.s.Events[t.s.eventIndex(id)]
		e.Pending = false
		if Polarity(e.Action, e.Rating) == 0 {
			neutral++
		}
		ignored += implausibleCount(e.Meta)
	}
	detail := fmt.Sprintf("processed %d pending event%s: %d created, %d boosted, %d demoted",
		len(scope), plural(len(scope)), count["extract"], count["boost"], count["demote"])
	if n := count["evict"]; n > 0 {
		detail += fmt.Sprintf(", %d evicted", n)
	}
	if n := count["drop"]; n > 0 {
		detail += fmt.Sprintf(", %d dropped", n)
	}
	if neutral > 0 {
		detail += fmt.Sprintf(", %d neutral", neutral)
	}
	if ignored > 0 {
		detail += fmt.Sprintf(", %d implausible label%s ignored (instructions or markup in metadata)", ignored, plural(ignored))
	}
	return t.journal(Entry{Op: "extract", Events: scope, Reason: joinReason(why, detail)})
}

// create adds the chunk an explicit extract op describes, subject to the
// category's capacity (see admit). Its events are marked processed.
func (t *txn) create(o Op) error { return t.createAs(o, "extract") }

// createAs is create journaled as op.
func (t *txn) createAs(o Op, op string) error {
	cfg := t.s.Config
	switch {
	case o.Category == "":
		return fmt.Errorf("category: required")
	case o.Category != normalizeCategory(o.Category):
		return fmt.Errorf("category: %q is not normalized (want %q)", o.Category, normalizeCategory(o.Category))
	case len(cfg.Categories) > 0 && !slices.Contains(cfg.Categories, o.Category):
		return fmt.Errorf("category: unknown category %q (configured: %s)", o.Category, strings.Join(cfg.Categories, ", "))
	case o.Text == "":
		return fmt.Errorf("text: required")
	}
	key := normalizeKey(o.Key)
	switch {
	case o.Key != "" && key == "":
		return fmt.Errorf("key: %q has no letters or digits", o.Key)
	case key == "":
		key = keyFromText(o.Text)
		if key == "" {
			return fmt.Errorf("key: none given and none found in the text")
		}
	}
	pol := cmp.Or(o.Polarity, "likes")
	if pol != "likes" && pol != "avoids" {
		return fmt.Errorf("polarity: unknown polarity %q (want likes or avoids)", o.Polarity)
	}
	strength := cfg.InitialStrength
	if o.Strength != nil {
		strength = *o.Strength
	}
	first, last, err := t.eventTimes(o.Events)
	if err != nil {
		return err
	}
	if i := t.s.findChunk(o.Category, key); i >= 0 {
		return fmt.Errorf("key: chunk %q already holds %s %q", t.s.Chunks[i].ID, o.Category, key)
	}
	c := Chunk{
		ID: fmt.Sprintf("c%d", t.s.Counters.NextChunk), Category: o.Category, Key: key, Polarity: pol,
		Text: strings.TrimSpace(o.Text), Evidence: max(1, len(o.Events)), FirstSeen: first, LastSeen: last,
		Events: addEvents(nil, o.Events, cfg.ChunkEvents), Aliases: o.Aliases, Stated: op == "avoid" || op == "add",
	}
	t.setStrength(&c, strength)
	t.processed(o.Events)
	ok, err := t.admit(c, o.Events)
	if err != nil || !ok {
		return err
	}
	t.s.Counters.NextChunk++
	t.s.Chunks = append(t.s.Chunks, c)
	return t.journal(Entry{Op: op, Chunks: []string{c.ID}, Events: o.Events, After: ptr(c.Strength),
		Reason: cmp.Or(o.Reason, "added by "+t.trigger)})
}

// admit makes room for c in its category. Below Config.KCat there is room.
// At capacity, c replaces the weakest chunk (lowest strength; then the least
// recently seen; then the oldest id) only if c is strictly stronger: that
// chunk is evicted. Otherwise c is dropped. Both are journaled with trigger
// "capacity"; an eviction is a mutation, a drop is not.
func (t *txn) admit(c Chunk, events []string) (bool, error) {
	s, k := t.s, t.s.Config.KCat
	n := s.categoryCount(c.Category)
	if n < k {
		return true, nil
	}
	w := -1
	for i, x := range s.Chunks {
		if x.Category != c.Category || x.Stated {
			continue // the user's own chunks are never evicted
		}
		if w < 0 || weaker(x, s.Chunks[w]) {
			w = i
		}
	}
	full := fmt.Sprintf("category %s is full (%d/%d): the new %q (%s)", c.Category, n, k, c.Text, fmtStrength(c.Strength))
	if w < 0 && c.Stated {
		return false, fmt.Errorf("category: %s is full (%d/%d) with preferences the user stated: delete one first", c.Category, n, k)
	}
	if w < 0 {
		return false, t.journal(Entry{Op: "drop", Trigger: "capacity", Events: events, After: ptr(c.Strength),
			Reason: full + " is not added: every chunk there is the user's own"})
	}
	weak := s.Chunks[w]
	if c.Strength <= weak.Strength && !c.Stated {
		return false, t.journal(Entry{Op: "drop", Trigger: "capacity", Events: events, After: ptr(c.Strength),
			Reason: fmt.Sprintf("%s is not stronger than the weakest, %s %q (%s)", full, weak.ID, weak.Text, fmtStrength(weak.Strength))})
	}
	s.Chunks = slices.Delete(s.Chunks, w, w+1)
	return true, t.journal(Entry{Op: "evict", Trigger: "capacity", Chunks: []string{weak.ID}, Before: ptr(weak.Strength),
		Reason: fmt.Sprintf("%s is stronger than the weakest, %s %q (%s)", full, weak.ID, weak.Text, fmtStrength(weak.Strength))})
}

// weaker orders chunks for eviction: lower strength, then older last_seen,
// then older id.
func weaker(a, b Chunk) bool {
	if a.Strength != b.Strength {
		return a.Strength < b.Strength
	}
	if a.LastSeen != b.LastSeen {
		return a.LastSeen < b.LastSeen
	}
	return idNumber(a.ID, 'c') < idNumber(b.ID, 'c')
}

// keyFromText derives a key from a chunk's text: its words without stop words
// and the verbs and nouns of the text templates ("Enjoys the Mario series"
// gives "mario").
func keyFromText(s string) string {
	var ws []string
	for _, w := range strings.Fields(normalizeKey(s)) {
		if _, tpl := templateWords[w]; !tpl && !text.IsStopword(w) {
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, " ")
}

var templateWords = wordSet(`
enjoys enjoy likes like loves love avoids avoid prefers prefer interested dislikes
dislike hates hate fan work works series brand titles tone products
`)

// profileWords are the words the synthesizer's sentences add around the
// chunks' (TemplateSynthesizer).
var profileWords = wordSet(`strongly tentatively lately more less into open`)

// TemplateWord reports whether a lowercased word is one the memory's own
// templates write around what a preference is about ("enjoys", "series",
// "strongly", "lately"...), so that a reader of chunk and profile texts can
// match what they name rather than how they say it. O(1).
func TemplateWord(w string) bool {
	_, t := templateWords[w]
	_, p := profileWords[w]
	return t || p
}

func joinReason(why, detail string) string {
	if why == "" {
		return detail
	}
	return why + "; " + detail
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
