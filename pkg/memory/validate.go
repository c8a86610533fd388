package memory

import (
	"fmt"
	"slices"

	"github.com/recmem/recmem/pkg/ident"
)

// Validate checks every field of s and its invariants, so that an imported
// document is one the lifecycle could have produced. The error starts with
// the field path ("chunks[2].strength: 1.4 is outside [0,1]"). Cost O(size
// of s) plus O(c²) for per-category checks.
func (s *State) Validate() error {
	if err := s.Config.check(); err != nil {
		return fmt.Errorf("config.%w", err)
	}
	if err := CheckTime(s.Clock); err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	if err := s.Counters.check(); err != nil {
		return fmt.Errorf("counters.%w", err)
	}
	if m := s.Counters.Mutations; m >= s.Config.Gamma {
		return fmt.Errorf("counters.mutations_since_synthesis: %d is not below gamma %d", m, s.Config.Gamma)
	}
	checks := []func() error{s.checkEvents, s.checkChunks, s.checkProfile, s.checkJournal, s.checkClientIDs, s.checkTombstones}
	for _, f := range checks {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func (c Counters) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"next_event", c.NextEvent}, {"next_chunk", c.NextChunk}, {"next_seq", c.NextSeq}} {
		if err := checkCounter(f.name, f.v); err != nil {
			return err
		}
	}
	switch {
	case c.NextEvent < 1:
		return fmt.Errorf("next_event: must be at least 1, got %d", c.NextEvent)
	case c.NextChunk < 1:
		return fmt.Errorf("next_chunk: must be at least 1, got %d", c.NextChunk)
	case c.NextSeq < 1:
		return fmt.Errorf("next_seq: must be at least 1, got %d", c.NextSeq)
	case c.Mutations < 0:
		return fmt.Errorf("mutations_since_synthesis: must not be negative, got %d", c.Mutations)
	}
	return nil
}

func (s *State) checkEvents() error {
	if n := len(s.Events); n > s.Config.EventCap {
		return fmt.Errorf("events: %d events exceed event_cap %d", n, s.Config.EventCap)
	}
	prev := 0
	for i, e := range s.Events {
		n := idNumber(e.ID, 'e')
		switch {
		case n == 0:
			return fmt.Errorf("events[%d].id: %q is not of the form e<n>", i, e.ID)
		case n <= prev:
			return fmt.Errorf("events[%d].id: %q is out of FIFO order (after e%d)", i, e.ID, prev)
		case n >= s.Counters.NextEvent:
			return fmt.Errorf("events[%d].id: %q is not below counters.next_event %d", i, e.ID, s.Counters.NextEvent)
		case e.Time > s.Clock:
			return fmt.Errorf("events[%d].time: %d is after the clock %d", i, e.Time, s.Clock)
		}
		prev = n
		g := Signal{User: e.User, Item: e.Item, Action: e.Action, Rating: e.Rating, Meta: e.Meta, Time: e.Time}
		if err := g.validate(); err != nil {
			return fmt.Errorf("events[%d].%w", i, err)
		}
	}
	return nil
}

func (s *State) checkChunks() error {
	cfg := s.Config
	prev := 0
	count := map[string]int{}
	for i, c := range s.Chunks {
		at := func(field, format string, a ...any) error {
			return fmt.Errorf("chunks[%d].%s: %s", i, field, fmt.Sprintf(format, a...))
		}
		n := idNumber(c.ID, 'c')
		switch {
		case n == 0:
			return at("id", "%q is not of the form c<n>", c.ID)
		case n <= prev:
			return at("id", "%q is out of order or repeated (after c%d)", c.ID, prev)
		case n >= s.Counters.NextChunk:
			return at("id", "%q is not below counters.next_chunk %d", c.ID, s.Counters.NextChunk)
		case c.Category == "" || c.Category != normalizeCategory(c.Category):
			return at("category", "%q is not a normalized category name", c.Category)
		case len(cfg.Categories) > 0 && !slices.Contains(cfg.Categories, c.Category):
			return at("category", "%q is not in config.categories", c.Category)
		case c.Key == "" || c.Key != normalizeKey(c.Key):
			return at("key", "%q is not a normalized key", c.Key)
		case c.Polarity != "likes" && c.Polarity != "avoids":
			return at("polarity", "unknown polarity %q (want likes or avoids)", c.Polarity)
		case c.Text == "" || len(c.Text) > maxTextLen:
			return at("text", "must be 1 to %d bytes, got %d", maxTextLen, len(c.Text))
		case !(c.Strength >= 0 && c.Strength <= 1):
			return at("strength", "%v is outside [0,1]", c.Strength)
		case roundStrength(c.Strength) != c.Strength:
			return at("strength", "%v has more than 3 decimals", c.Strength)
		case c.Evidence < 1:
			return at("evidence", "must be at least 1, got %d", c.Evidence)
		case c.Evidence > MaxCounter:
			return at("evidence", "%d is more than 9007199254740992 (2^53)", c.Evidence)
		case c.FirstSeen < 0 || c.FirstSeen > c.LastSeen:
			return at("first_seen", "%d is not within [0, last_seen %d]", c.FirstSeen, c.LastSeen)
		case c.LastSeen > s.Clock:
			return at("last_seen", "%d is after the clock %d", c.LastSeen, s.Clock)
		case len(c.Events) > cfg.ChunkEvents:
			return at("events", "%d ids exceed chunk_events %d", len(c.Events), cfg.ChunkEvents)
		case !(c.LastDelta >= -1 && c.LastDelta <= 1) || roundDelta(c.LastDelta) != c.LastDelta:
			return at("last_delta", "%v is not a rounded change within [-1,1]", c.LastDelta)
		case c.Epoch < 0 || c.Epoch > s.Profile.Version:
			return at("epoch", "%d is not within [0, profile.version %d]", c.Epoch, s.Profile.Version)
		}
		for j, a := range c.Aliases {
			if a == "" || a != normalizeKey(a) || a == c.Key || slices.Index(c.Aliases, a) != j {
				return at(fmt.Sprintf("aliases[%d]", j), "%q is not a normalized key distinct from the others", a)
			}
		}
		for j, id := range c.Events {
			if err := s.checkEventRef(id); err != nil || slices.Index(c.Events, id) != j {
				return at(fmt.Sprintf("events[%d]", j), "%q is not a distinct event id below counters.next_event", id)
			}
			if k := s.eventIndex(id); k >= 0 && s.Events[k].Pending {
				return at(fmt.Sprintf("events[%d]", j), "%q supports the chunk but is still pending", id)
			}
		}
		for _, k := range append([]string{c.Key}, c.Aliases...) {
			if j := s.findChunk(c.Category, k); j != i {
				return at("key", "%s %q is also held by chunk %q", c.Category, k, s.Chunks[j].ID)
			}
		}
		if count[c.Category]++; count[c.Category] > cfg.KCat {
			return at("category", "more than k_cat %d chunks in %q", cfg.KCat, c.Category)
		}
		prev = n
	}
	return nil
}

func (s *State) checkEventRef(id string) error {
	if n := idNumber(id, 'e'); n == 0 || n >= s.Counters.NextEvent {
		return fmt.Errorf("bad event id %q", id)
	}
	return nil
}

func (s *State) checkChunkRef(id string) error {
	if n := idNumber(id, 'c'); n == 0 || n >= s.Counters.NextChunk {
		return fmt.Errorf("bad chunk id %q", id)
	}
	return nil
}

func (s *State) checkProfile() error {
	p := s.Profile
	switch {
	case p.Version < 0:
		return fmt.Errorf("profile.version: must not be negative, got %d", p.Version)
	case p.Version > MaxCounter:
		return fmt.Errorf("profile.version: %d is more than 9007199254740992 (2^53)", p.Version)
	case p.Time < 0 || p.Time > s.Clock:
		return fmt.Errorf("profile.time: %d is not within [0, clock %d]", p.Time, s.Clock)
	case p.Version == 0 && (p.Text != "" || len(p.BuiltFrom) > 0 || len(p.Rising) > 0 || len(p.Fading) > 0 || p.Time != 0):
		return fmt.Errorf("profile: version 0 (never synthesized) must be empty")
	case p.Version > 0 && p.Text == "":
		return fmt.Errorf("profile.text: empty at version %d", p.Version)
	}
	for i, r := range p.BuiltFrom {
		if err := s.checkChunkRef(r.Chunk); err != nil {
			return fmt.Errorf("profile.built_from[%d].chunk: %w", i, err)
		}
		if !(r.Strength >= 0 && r.Strength <= 1) {
			return fmt.Errorf("profile.built_from[%d].strength: %v is outside [0,1]", i, r.Strength)
		}
	}
	for _, list := range []struct {
		name string
		ids  []string
	}{{"rising", p.Rising}, {"fading", p.Fading}} {
		for i, id := range list.ids {
			if err := s.checkChunkRef(id); err != nil {
				return fmt.Errorf("profile.%s[%d]: %w", list.name, i, err)
			}
		}
	}
	return nil
}

func (s *State) checkJournal() error {
	if n := len(s.Journal); n > s.Config.JournalCap {
		return fmt.Errorf("journal: %d entries exceed journal_cap %d", n, s.Config.JournalCap)
	}
	prevSeq, prevTime := 0, int64(0)
	for i, e := range s.Journal {
		at := func(field, format string, a ...any) error {
			return fmt.Errorf("journal[%d].%s: %s", i, field, fmt.Sprintf(format, a...))
		}
		switch {
		case e.Seq <= prevSeq || e.Seq >= s.Counters.NextSeq:
			return at("seq", "%d is not increasing and below counters.next_seq %d", e.Seq, s.Counters.NextSeq)
		case e.Time < prevTime || e.Time > s.Clock:
			return at("time", "%d is not non-decreasing and within the clock %d", e.Time, s.Clock)
		case !slices.Contains(JournalOps, e.Op):
			return at("op", "unknown op %q", e.Op)
		case !slices.Contains(Triggers, e.Trigger):
			return at("trigger", "unknown trigger %q", e.Trigger)
		case e.Reason == "":
			return at("reason", "empty")
		case e.Before != nil && !(*e.Before >= 0 && *e.Before <= 1):
			return at("before", "%v is outside [0,1]", *e.Before)
		case e.After != nil && !(*e.After >= 0 && *e.After <= 1):
			return at("after", "%v is outside [0,1]", *e.After)
		}
		for j, id := range e.Chunks {
			if err := s.checkChunkRef(id); err != nil {
				return at(fmt.Sprintf("chunks[%d]", j), "%v", err)
			}
		}
		for j, id := range e.Events {
			if err := s.checkEventRef(id); err != nil {
				return at(fmt.Sprintf("events[%d]", j), "%v", err)
			}
		}
		prevSeq, prevTime = e.Seq, e.Time
	}
	return nil
}

func (s *State) checkClientIDs() error {
	if n := len(s.ClientIDs); n > MaxClientIDs {
		return fmt.Errorf("client_ids: %d ids, more than %d", n, MaxClientIDs)
	}
	for i, c := range s.ClientIDs {
		if err := ident.Check(c.ID, MaxClientIDLen); err != nil {
			return fmt.Errorf("client_ids[%d].id: %w", i, err)
		}
		if slices.IndexFunc(s.ClientIDs, func(o ClientID) bool { return o.ID == c.ID }) != i {
			return fmt.Errorf("client_ids[%d].id: %q is listed twice", i, c.ID)
		}
		if c.Signal != "" && !isFingerprint(c.Signal) {
			return fmt.Errorf("client_ids[%d].signal: want 16 lowercase hex digits, got %q", i, c.Signal)
		}
	}
	return nil
}

// isFingerprint reports whether s is written as Signal.Fingerprint writes.
func isFingerprint(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (s *State) checkTombstones() error {
	if n := len(s.Tombstones); n > MaxTombstones {
		return fmt.Errorf("tombstones: %d, more than %d", n, MaxTombstones)
	}
	prev := int64(0)
	for i, t := range s.Tombstones {
		at := func(field, format string, a ...any) error {
			return fmt.Errorf("tombstones[%d].%s: %s", i, field, fmt.Sprintf(format, a...))
		}
		switch {
		case s.checkChunkRef(t.Chunk) != nil:
			return at("chunk", "%q is not a chunk id below counters.next_chunk %d", t.Chunk, s.Counters.NextChunk)
		case s.chunkIndex(t.Chunk) >= 0:
			return at("chunk", "%q is still in memory", t.Chunk)
		case t.Category == "" || t.Category != normalizeCategory(t.Category):
			return at("category", "%q is not a normalized category name", t.Category)
		case t.Key == "" || t.Key != normalizeKey(t.Key):
			return at("key", "%q is not a normalized key", t.Key)
		case t.Polarity != "likes" && t.Polarity != "avoids":
			return at("polarity", "unknown polarity %q (want likes or avoids)", t.Polarity)
		case t.Text == "" || len(t.Text) > maxTextLen:
			return at("text", "must be 1 to %d bytes, got %d", maxTextLen, len(t.Text))
		case t.Before < 1 || t.Before > s.Counters.NextEvent:
			return at("before", "%d is not within [1, counters.next_event %d]", t.Before, s.Counters.NextEvent)
		case t.Time < prev || t.Time > s.Clock:
			return at("time", "%d is not non-decreasing and within the clock %d", t.Time, s.Clock)
		}
		for j, a := range t.Aliases {
			if a == "" || a != normalizeKey(a) || a == t.Key || slices.Index(t.Aliases, a) != j {
				return at(fmt.Sprintf("aliases[%d]", j), "%q is not a normalized key distinct from the others", a)
			}
		}
		for j, u := range s.Tombstones[:i] {
			if u.Category == t.Category && u.Key == t.Key {
				return at("key", "%s %q is also tombstones[%d]", t.Category, t.Key, j)
			}
		}
		prev = t.Time
	}
	return nil
}
