package memory

import (
	"fmt"
	"slices"
)

// MetadataExtractor is the LLM-free Extractor. It reads item metadata (see
// itemFeatures) and the polarity of each action (see Actions):
//
//   - Features of the pending events that match an existing chunk (its key or
//     an alias, in its category) move it once per extraction: more supporting
//     than contradicting pending signals boost it, more contradicting ones
//     demote it, a tie leaves it. For an "avoids" chunk, negative signals
//     support and positive ones contradict.
//   - A feature with no chunk becomes a "likes" chunk when its net support
//     (positive minus negative signals on it among all events in memory,
//     processed or not) is at least Config.MinSupport (metadata values) or
//     Config.MinTitleSupport (guessed from titles), and at least one pending
//     signal is positive. A guessed feature's support counts distinct items
//     (items with a positive signal minus items with a negative one): the
//     same item acted on again, a double-click or a replay, is not more
//     evidence that a word of its title is a taste. Its strength is Config.InitialStrength plus
//     Config.SupportStep per extra unit of net support, at most
//     Config.MaxInitialStrength: 0.7, 0.8, 0.9 by default.
//   - Likewise a feature with net negative support of at least
//     Config.MinAvoidSupport (and MinTitleSupport if guessed) becomes an
//     "avoids" chunk.
//   - Neutral signals (view, click, rate 3) are processed but count for nothing.
//   - An event is no evidence for a feature the user deleted while the event
//     was in memory (State.Tombstones), and a chunk the user stated
//     (Chunk.Stated) is neither boosted nor demoted: the user's word holds.
//
// Updates come first, in order of first mention, then additions, so that an
// addition that evicts a chunk never precedes that chunk's update.
// Cost O(events × features + features × chunks).
type MetadataExtractor struct{}

// tally is the evidence on one feature.
type tally struct {
	f                  feature
	pos, neg           []string // events in memory
	newPos, newNeg     []string // events in scope
	posItems, negItems []string // distinct items of pos and neg
	chunk              int      // matching chunk index, or -1
}

// net is the tally's net support: signals for metadata values, distinct
// items for guessed features.
func (t *tally) net() int {
	if t.f.Guessed {
		return len(t.posItems) - len(t.negItems)
	}
	return len(t.pos) - len(t.neg)
}

// Extract implements Extractor.
func (MetadataExtractor) Extract(s *State, scope []string) ([]Op, error) {
	cfg := s.Config
	var tallies []*tally
	byKey := map[string]*tally{}
	for _, e := range s.Events {
		p := Polarity(e.Action, e.Rating)
		if p == 0 {
			continue
		}
		in := slices.Contains(scope, e.ID)
		n := idNumber(e.ID, 'e')
		for _, f := range itemFeatures(e.Meta, cfg.Categories) {
			if s.tombstoned(f.Category, f.Key, n) {
				continue // the user deleted what this event showed
			}
			id := f.Category + "\x00" + f.Key
			t := byKey[id]
			if t == nil {
				t = &tally{f: f, chunk: s.findChunk(f.Category, f.Key)}
				byKey[id] = t
				tallies = append(tallies, t)
			}
			switch {
			case p > 0 && in:
				t.pos, t.newPos = append(t.pos, e.ID), append(t.newPos, e.ID)
			case p > 0:
				t.pos = append(t.pos, e.ID)
			case in:
				t.neg, t.newNeg = append(t.neg, e.ID), append(t.newNeg, e.ID)
			default:
				t.neg = append(t.neg, e.ID)
			}
			if p > 0 && !slices.Contains(t.posItems, e.Item) {
				t.posItems = append(t.posItems, e.Item)
			} else if p < 0 && !slices.Contains(t.negItems, e.Item) {
				t.negItems = append(t.negItems, e.Item)
			}
		}
	}
	updates := updateChunks(s, tallies)
	var adds []Op
	for _, t := range tallies {
		if t.chunk >= 0 || len(t.newPos)+len(t.newNeg) == 0 || subsumed(t, tallies) {
			continue
		}
		minLikes, minAvoids := cfg.MinSupport, cfg.MinAvoidSupport
		if t.f.Guessed {
			minLikes, minAvoids = cfg.MinTitleSupport, max(cfg.MinAvoidSupport, cfg.MinTitleSupport)
		}
		net := t.net()
		switch {
		case net >= minLikes && len(t.newPos) > 0:
			adds = append(adds, newChunkOp(s, t.f, "likes", t.pos, net, minLikes))
		case -net >= minAvoids && len(t.newNeg) > 0:
			adds = append(adds, newChunkOp(s, t.f, "avoids", t.neg, -net, minAvoids))
		}
	}
	return append(updates, adds...), nil
}

// subsumed reports whether a term guessed from titles is part of a longer
// one that the same items show ("Creed" of "Assassin's Creed", both in the
// same two titles): the longer term is the name, and one chunk about it is
// enough. O(tallies × key length).
func subsumed(t *tally, tallies []*tally) bool {
	if !t.f.Guessed || t.f.Category == "series" || t.f.Category == "platform" {
		return false
	}
	for _, u := range tallies {
		if u != t && u.f.Guessed && u.f.Category == t.f.Category && len(u.f.Key) > len(t.f.Key) &&
			partOfName(t.f.Key, []string{u.f.Key}) && sameItems(t.posItems, u.posItems) && sameItems(t.negItems, u.negItems) {
			return true
		}
	}
	return false
}

// sameItems reports whether a and b hold the same ids (each id once).
func sameItems(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// updateChunks proposes one boost or demote per existing chunk that the
// scope's signals mention, pooling the features that match the same chunk.
func updateChunks(s *State, tallies []*tally) []Op {
	type pool struct {
		chunk    int
		sup, con []string
	}
	var pools []*pool
	for _, t := range tallies {
		if t.chunk < 0 || len(t.newPos)+len(t.newNeg) == 0 || s.Chunks[t.chunk].Stated {
			continue
		}
		i := slices.IndexFunc(pools, func(p *pool) bool { return p.chunk == t.chunk })
		if i < 0 {
			pools = append(pools, &pool{chunk: t.chunk})
			i = len(pools) - 1
		}
		sup, con := t.newPos, t.newNeg
		if s.Chunks[t.chunk].Polarity == "avoids" {
			sup, con = con, sup
		}
		p := pools[i]
		p.sup, p.con = union(p.sup, sup), union(p.con, con)
	}
	var ops []Op
	for _, p := range pools {
		c := s.Chunks[p.chunk]
		byNumber := func(a, b string) int { return idNumber(a, 'e') - idNumber(b, 'e') }
		slices.SortFunc(p.sup, byNumber)
		slices.SortFunc(p.con, byNumber)
		switch net := len(p.sup) - len(p.con); {
		case net > 0:
			ops = append(ops, Op{Op: "boost", Chunk: c.ID, Events: p.sup,
				Reason: fmt.Sprintf("pending %s: evidence for %q", describeEvents(s, p.sup), c.Text)})
		case net < 0:
			ops = append(ops, Op{Op: "demote", Chunk: c.ID, Events: p.con,
				Reason: fmt.Sprintf("pending %s: evidence against %q", describeEvents(s, p.con), c.Text)})
		}
	}
	return ops
}

// newChunkOp proposes a chunk about f with the given supporting events.
func newChunkOp(s *State, f feature, polarity string, events []string, net, need int) Op {
	cfg := s.Config
	st := roundStrength(min(cfg.InitialStrength+cfg.SupportStep*float64(net-1), cfg.MaxInitialStrength))
	return Op{
		Op: "extract", Category: f.Category, Key: f.Key, Polarity: polarity,
		Text: chunkText(f.Category, polarity, f.Label), Strength: &st, Events: events,
		Reason: fmt.Sprintf("%s: net support %d (minimum %d) for %s %q", describeEvents(s, events), net, need, f.Category, f.Label),
	}
}

// union appends to a the ids of b it lacks.
func union(a, b []string) []string {
	for _, id := range b {
		if !slices.Contains(a, id) {
			a = append(a, id)
		}
	}
	return a
}
