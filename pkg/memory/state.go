package memory

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
)

// State is one user's belief state: the three tiers, the journal and the
// counters that keep ids unique. It encodes to JSON deterministically: slices
// in canonical order, and maps only where encoding/json sorts the keys.
type State struct {
	Config   Config   `json:"config"`
	Clock    int64    `json:"clock"`
	Events   []Event  `json:"events"`
	Chunks   []Chunk  `json:"chunks"`
	Profile  Profile  `json:"profile"`
	Journal  []Entry  `json:"journal"`
	Counters Counters `json:"counters"`
	// ClientIDs are the client ids of the newest signals that carried one,
	// oldest first, at most MaxClientIDs, each with the fingerprint of its
	// signal: a signal whose client id is listed with the same fingerprint
	// has been recorded, and is acknowledged without being recorded again; a
	// different signal under a listed id is refused.
	ClientIDs []ClientID `json:"client_ids,omitempty"`
	// Tombstones are the preferences the user deleted, oldest first, at
	// most MaxTombstones (see Tombstone).
	Tombstones []Tombstone `json:"tombstones,omitempty"`
}

// Tombstone marks a preference the user deleted, so that the deletion
// steers: extraction does not make it again from the events that were in
// memory when it was deleted (the events numbered below Before), and the
// ranker stops reading those events as support for it (pkg/rank). Later
// events are new evidence and count as any other. A preference the user
// adds again by hand lifts its tombstone.
type Tombstone struct {
	// Chunk is the id the deleted chunk had; Text what it said.
	Chunk    string   `json:"chunk"`
	Category string   `json:"category"`
	Key      string   `json:"key"`
	Aliases  []string `json:"aliases,omitempty"`
	Polarity string   `json:"polarity"`
	Text     string   `json:"text"`
	// Before is counters.next_event at the deletion: events e1 to
	// e(Before-1) were its evidence.
	Before int   `json:"before"`
	Time   int64 `json:"time"`
}

// MaxTombstones bounds the deletions a memory remembers; the oldest goes
// first.
const MaxTombstones = 64

// tombstoned reports whether an event numbered n, giving the feature
// (category, key), is evidence the user has turned down. O(tombstones).
func (s *State) tombstoned(category, key string, n int) bool {
	for _, t := range s.Tombstones {
		if n < t.Before && t.Category == category && (t.Key == key || slices.Contains(t.Aliases, key)) {
			return true
		}
	}
	return false
}

// liftTombstone drops the tombstone of (category, key) and polarity, if
// any (every polarity when polarity is ""): the user has stated it again.
func (s *State) liftTombstone(category, key, polarity string) {
	s.Tombstones = slices.DeleteFunc(s.Tombstones, func(t Tombstone) bool {
		return t.Category == category && (t.Key == key || slices.Contains(t.Aliases, key)) && (polarity == "" || t.Polarity == polarity)
	})
	if len(s.Tombstones) == 0 {
		s.Tombstones = nil
	}
}

// ClientID is a client id the memory has recorded a signal under, with that
// signal's fingerprint (Signal.Fingerprint): "" for an id kept from a state
// document of version 3, whose ids were kept alone (a repeat of one is
// acknowledged, as then). It is written {"id", "signal"}, or as the id
// alone (a string, as version 3 wrote it) when it has no fingerprint, so
// that a version 3 document keeps its bytes, and its checksum.
type ClientID struct {
	ID     string `json:"id"`
	Signal string `json:"signal,omitempty"`
}

// MarshalJSON writes {"id", "signal"}, or the id alone without a signal.
func (c ClientID) MarshalJSON() ([]byte, error) {
	if c.Signal == "" {
		return json.Marshal(c.ID)
	}
	type plain ClientID
	return json.Marshal(plain(c))
}

// UnmarshalJSON reads either form MarshalJSON writes.
func (c *ClientID) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*c = ClientID{}
		return json.Unmarshal(b, &c.ID)
	}
	type plain ClientID
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*c = ClientID(p)
	return nil
}

// Event is one recorded signal. Events sit in FIFO order, oldest first; Pending
// marks an event not yet seen by extraction.
type Event struct {
	ID      string              `json:"id"`
	User    string              `json:"user"`
	Item    string              `json:"item"`
	Action  string              `json:"action"`
	Rating  int                 `json:"rating,omitempty"`
	Meta    map[string][]string `json:"meta,omitempty"`
	Time    int64               `json:"time"`
	Pending bool                `json:"pending"`
}

// Chunk is one preference: what the user likes or avoids in one category.
type Chunk struct {
	ID       string `json:"id"`
	Category string `json:"category"`
	// Key is the normalized value the chunk is about ("mario"); Aliases are
	// the keys of chunks merged into it. Extraction matches both.
	Key      string   `json:"key"`
	Aliases  []string `json:"aliases,omitempty"`
	Polarity string   `json:"polarity"` // "likes" or "avoids"
	Text     string   `json:"text"`
	// Strength in [0,1], rounded to 3 decimals after every operation.
	Strength float64 `json:"strength"`
	// Evidence counts supporting signals, boosts and demotes: contradicting
	// evidence is evidence too.
	Evidence  int   `json:"evidence"`
	FirstSeen int64 `json:"first_seen"`
	LastSeen  int64 `json:"last_seen"`
	// Events are the most recent supporting event ids (Config.ChunkEvents).
	Events []string `json:"events"`
	// LastDelta is the most recent change of strength (for a new chunk, its
	// initial strength); Epoch is the profile version current when it
	// happened. The synthesizer calls a chunk rising or fading when its
	// change happened after the current profile was built.
	LastDelta float64 `json:"last_delta"`
	Epoch     int     `json:"epoch"`
	// Stated marks a preference the user stated or set by hand (added,
	// avoided, or its strength edited): signals no longer move it, the
	// lifecycle never merges, evicts, demotes or forgets it, and a stated
	// "avoids" at full strength is a wish never to be shown what it names
	// (pkg/rank). Only the user changes or deletes it.
	Stated bool `json:"stated,omitempty"`
}

// Profile is the synthesized narrative and what it was built from.
type Profile struct {
	Version   int        `json:"version"`
	Time      int64      `json:"time"`
	Text      string     `json:"text"`
	BuiltFrom []ChunkRef `json:"built_from"`
	Rising    []string   `json:"rising"`
	Fading    []string   `json:"fading"`
}

// ChunkRef names a chunk and its strength at the time of reference.
type ChunkRef struct {
	Chunk    string  `json:"chunk"`
	Strength float64 `json:"strength"`
}

// Counters issue ids and count mutations. NextEvent, NextChunk and NextSeq
// are the numbers the next event ("e12"), chunk ("c7") and journal entry get.
// Mutations counts lifecycle mutations since the last synthesis. The signals
// waiting for maintenance are the pending events.
type Counters struct {
	NextEvent int `json:"next_event"`
	NextChunk int `json:"next_chunk"`
	NextSeq   int `json:"next_seq"`
	Mutations int `json:"mutations_since_synthesis"`
}

// New returns an empty state with cfg resolved (zero fields take defaults).
// It does not validate cfg; call cfg.Validate first.
func New(cfg Config) *State {
	return &State{
		Config:   cfg.Resolved(),
		Events:   []Event{},
		Chunks:   []Chunk{},
		Profile:  Profile{BuiltFrom: []ChunkRef{}, Rising: []string{}, Fading: []string{}},
		Journal:  []Entry{},
		Counters: Counters{NextEvent: 1, NextChunk: 1, NextSeq: 1},
	}
}

// Clone returns a copy of s that shares nothing mutable with it. Event
// metadata and journal entries are immutable once written, so the copy shares
// them: the journal is shared with its capacity clipped, and the copy's first
// append reallocates it. Cost O(events + chunks), independent of the journal.
func (s *State) Clone() *State {
	c := *s
	c.Config = s.Config.clone()
	c.Events = slices.Clone(s.Events)
	c.Chunks = slices.Clone(s.Chunks)
	for i := range c.Chunks {
		c.Chunks[i].Aliases = slices.Clone(c.Chunks[i].Aliases)
		c.Chunks[i].Events = slices.Clone(c.Chunks[i].Events)
	}
	c.Profile.BuiltFrom = slices.Clone(s.Profile.BuiltFrom)
	c.Profile.Rising = slices.Clone(s.Profile.Rising)
	c.Profile.Fading = slices.Clone(s.Profile.Fading)
	c.Journal = s.Journal[:len(s.Journal):len(s.Journal)]
	c.ClientIDs = slices.Clone(s.ClientIDs)
	c.Tombstones = slices.Clone(s.Tombstones)
	for i := range c.Tombstones {
		c.Tombstones[i].Aliases = slices.Clone(c.Tombstones[i].Aliases)
	}
	return &c
}

// Summary is a short account of a state's size.
type Summary struct {
	Clock          int64           `json:"clock"`
	Events         int             `json:"events"`
	Pending        int             `json:"pending"`
	Chunks         int             `json:"chunks"`
	Categories     []CategoryCount `json:"categories"`
	ProfileVersion int             `json:"profile_version"`
	Journal        int             `json:"journal"`
	Mutations      int             `json:"mutations_since_synthesis"`
}

// CategoryCount is the number of chunks one category holds.
type CategoryCount struct {
	Category string `json:"category"`
	Chunks   int    `json:"chunks"`
}

// Summary returns the state's counts, categories in name order. It returns
// any so that the engine can encode it without knowing its type.
func (s *State) Summary() Summary { return s.summary() }

func (s *State) summary() Summary {
	counts := map[string]int{}
	for _, c := range s.Chunks {
		counts[c.Category]++
	}
	cats := []CategoryCount{}
	for _, k := range sortedKeys(counts) {
		cats = append(cats, CategoryCount{k, counts[k]})
	}
	return Summary{
		Clock: s.Clock, Events: len(s.Events), Pending: len(s.pending()), Chunks: len(s.Chunks),
		Categories: cats, ProfileVersion: s.Profile.Version, Journal: len(s.Journal),
		Mutations: s.Counters.Mutations,
	}
}

// pending returns the ids of the pending events in FIFO order.
func (s *State) pending() []string {
	var ids []string
	for _, e := range s.Events {
		if e.Pending {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// chunkIndex returns the index of the chunk with id, or -1. Cost O(chunks).
func (s *State) chunkIndex(id string) int {
	return slices.IndexFunc(s.Chunks, func(c Chunk) bool { return c.ID == id })
}

// eventIndex returns the index of the event with id, or -1. Cost O(events).
func (s *State) eventIndex(id string) int {
	return slices.IndexFunc(s.Events, func(e Event) bool { return e.ID == id })
}

// findChunk returns the index of the chunk of category cat whose key or an
// alias is key, or -1.
func (s *State) findChunk(cat, key string) int {
	return slices.IndexFunc(s.Chunks, func(c Chunk) bool {
		return c.Category == cat && (c.Key == key || slices.Contains(c.Aliases, key))
	})
}

// categoryCount returns how many chunks category cat holds.
func (s *State) categoryCount(cat string) int {
	n := 0
	for _, c := range s.Chunks {
		if c.Category == cat {
			n++
		}
	}
	return n
}

// roundStrength rounds x to 3 decimals and clamps it to [0,1], so that steps
// of 0.1 and 0.2 land on exact decimals (0.7-0.2-0.2 gives 0.3, not
// 0.29999999999999993) and -0 never appears.
func roundStrength(x float64) float64 {
	x = math.Round(x*1000) / 1000
	switch {
	case x <= 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// roundDelta rounds a strength change to 3 decimals, without clamping.
func roundDelta(x float64) float64 {
	x = math.Round(x*1000) / 1000
	if x == 0 {
		return 0
	}
	return x
}

// idNumber parses an id of the form prefix+n (n >= 1, no leading zeros) and
// returns n, or 0 when id is not of that form.
func idNumber(id string, prefix byte) int {
	if len(id) < 2 || id[0] != prefix || id[1] == '0' {
		return 0
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil || n < 1 || strconv.Itoa(n) != id[1:] {
		return 0
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	ks := slices.Collect(maps.Keys(m))
	sort.Strings(ks)
	return ks
}
