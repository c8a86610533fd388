package slate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/ident"
	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/lexical"
	"github.com/recmem/recmem/pkg/phase"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// Store holds units in insertion order with the indexes selection needs: BM25
// over units, BM25 over whole sessions, and a sentence vector per unit. The
// indexes follow every Add, Delete and Purge, so a select never rebuilds them;
// they are derived data, rebuilt when a store is decoded, and never encoded.
//
// A Store encodes as the JSON array of its units in insertion order.
type Store struct {
	entries  []*entry // in insertion order; entries[i].pos == i
	byID     map[string]*entry
	sess     map[string]*session
	sessions []*session     // in order of creation; sessions[i].pos == i
	byKey    []*entry       // entry key -> entry (nil once deleted)
	sessKey  []*session     // session key -> session (nil once emptied)
	units    *lexical.Index // doc = entry key
	sessIx   *lexical.Index // doc = session key
	next     int            // next entry key
	nextS    int            // next session key
	table    *vector.Table
	// lex holds every token, content word and term the units have held,
	// with the words' vectors (lexicon.go): word alignment compares a query
	// word with each distinct word once per request instead of once per
	// occurrence, and the binary state writes units as ids into it.
	lex lexicon
	// Speakers by id, with how many units each holds now.
	spk      map[string]int32
	spkNames []string
	spkWords [][]string // the lowercased words of each speaker's name
	spkUnits []int
	// markKey and removed are what changed since the store's mark (the
	// state last read or written in binary form, binary.go): the units of
	// key markKey and above were added since, and removed lists the units
	// of keys below it removed since.
	markKey int
	removed []removal
	// readText counts the text bytes read from a binary state (Limits).
	readText int
	// scratch holds a unit's ids while add gathers them.
	scratch struct{ toks, tids, uwids []int32 }
	// written is the units section AppendBinary last wrote, while the
	// units and the lexicon's written ids are still the ones it wrote
	// (refresh and AppendSegment drop it): writing an unchanged store again,
	// as every export after a call that changed only the memory does, is
	// a copy. It costs the section's size, about 65 bytes a unit.
	written []byte
	// sessOrder holds the sessions' positions in time, by session position
	// (sessionPositions), recomputed after every change.
	sessOrder []float64
	// timer, when set (SetTimer), times the phases of Add and Select.
	timer *phase.Timer
	// flat holds, by unit position, what the loops over every unit read,
	// in arrays instead of behind each unit's pointers (flat.go).
	flat flat
}

// SetTimer makes Add and Select mark their phases on t (nil: none, the
// default). A host's engine sets it around one call.
func (s *Store) SetTimer(t *phase.Timer) { s.timer = t }

type entry struct {
	// u is the unit. A unit read from a binary state has no Text until it
	// is needed (Store.text): its tokens are the text.
	u     Unit
	key   int
	pos   int     // index in Store.entries
	sidx  int     // index in its session's entries
	toks  []int32 // the text's token ids (lexicon): the text is their strings joined
	tids  []int32 // term ids of the index terms (stemmed content words), in text order
	uwids []int32 // content word ids of the distinct words
	vec   []float32
	time  int64 // seconds since the epoch; 0 without a time
	s     *session
	spk   int32 // speaker id (-1 without a speaker)
	// Cached per-unit facts for features and the fill.
	tokens      int  // Unit.Tokens
	timeWord    bool // mentions a time (hasTimeWord)
	firstPerson bool // says I, my, me, we, our...
	question    bool // ends with a question mark
	hasQMark    bool // holds a question mark anywhere
	month, year int  // of time (0 without one)
}

type session struct {
	id      string
	key     int
	pos     int       // index in Store.sessions
	entries []*entry  // in insertion order
	mean    []float32 // normalized sum of the entries' vectors (nil: stale until refresh)
}

// NewStore returns an empty store using the embedded word vectors.
func NewStore() *Store { return newStore(vector.Default()) }

// NewStoreWithTable returns an empty store using the word vectors t (to
// measure what the embedded table's reduction costs, or a host's own table).
func NewStoreWithTable(t *vector.Table) *Store { return newStore(t) }

func newStore(t *vector.Table) *Store {
	return &Store{byID: map[string]*entry{}, sess: map[string]*session{},
		units: lexical.New(lexical.Config{}), sessIx: lexical.New(lexical.Config{}), table: t,
		lex: newLexicon(), spk: map[string]int32{}}
}

// Len is the number of units.
func (s *Store) Len() int { return len(s.entries) }

// Units returns a copy of the units in insertion order.
func (s *Store) Units() []Unit {
	s.texts()
	out := make([]Unit, len(s.entries))
	for i, e := range s.entries {
		out[i] = e.u
	}
	return out
}

// Sessions is the number of sessions holding at least one unit.
func (s *Store) Sessions() int { return len(s.sess) }

// Add stores units in order. It validates all of them first (fields, IDs
// unique in the store and in the batch) and adds nothing on error. Cost
// O(total text) plus O(words · dim) for the vectors.
func (s *Store) Add(units []Unit) error {
	seen := map[string]bool{}
	for i, u := range units {
		if err := u.Validate(); err != nil {
			return fmt.Errorf("units[%d].%w", i, err)
		}
		if s.ids()[u.ID] != nil || seen[u.ID] {
			return fmt.Errorf("units[%d].id: duplicate %q", i, u.ID)
		}
		seen[u.ID] = true
	}
	s.timer.Mark("validate")
	for _, u := range units {
		s.add(u)
	}
	s.refresh()
	s.timer.Mark("refresh")
	return nil
}

func (s *Store) add(u Unit) {
	e := &entry{u: u, key: s.next, pos: len(s.entries), spk: -1}
	s.next++
	if u.Time != "" {
		e.time, _ = ParseTime(u.Time)
		t := time.Unix(e.time, 0).UTC()
		e.month, e.year = int(t.Month()), t.Year()
	}
	s.lex.maps()
	// The unit's ids are gathered in the store's scratch buffers, then
	// copied out at their exact size: no garbage per token, no spare room.
	sc := &s.scratch
	s.timer.Mark("unit")
	sc.toks = s.lex.tokenize(u.Text, sc.toks[:0], s.table)
	s.timer.Mark("tokenize")
	sc.tids, sc.uwids = sc.tids[:0], sc.uwids[:0]
	dim := s.table.Dim()
	acc := make([]float64, dim)
	for _, id := range sc.toks {
		f := s.lex.tokFlag[id]
		e.firstPerson = e.firstPerson || f&tokFirstPerson != 0
		e.timeWord = e.timeWord || f&tokTimeWord != 0
		e.hasQMark = e.hasQMark || f&tokQMark != 0
		w := s.lex.tokWord[id]
		if w < 0 {
			continue
		}
		sc.tids = append(sc.tids, s.lex.wordTerm[w]) // text.Terms(u.Text), without tokenizing again
		if !slices.Contains(sc.uwids, w) {
			sc.uwids = append(sc.uwids, w)
		}
		for j, x := range s.lex.wordWeighted[int(w)*dim : int(w+1)*dim] {
			acc[j] += x
		}
	}
	e.toks, e.tids, e.uwids = slices.Clone(sc.toks), slices.Clone(sc.tids), slices.Clone(sc.uwids)
	e.vec = s.table.Finish(acc) // s.table.Sentence of the content words, from their rows
	s.timer.Mark("words")
	e.tokens = (utf8.RuneCountInString(u.Render()) + 3) / 4 // Unit.Tokens
	e.question = strings.HasSuffix(strings.TrimSpace(u.Text), "?")
	if u.Speaker != "" {
		id, ok := s.spk[u.Speaker]
		if !ok {
			id = int32(len(s.spkNames))
			s.spk[u.Speaker] = id
			s.spkNames = append(s.spkNames, u.Speaker)
			s.spkWords = append(s.spkWords, text.Words(u.Speaker))
			s.spkUnits = append(s.spkUnits, 0)
		}
		e.spk = id
		s.spkUnits[id]++
	}
	ss := s.sess[u.Session]
	if ss == nil {
		ss = &session{id: u.Session, key: s.nextS, pos: len(s.sessions)}
		s.nextS++
		s.sess[u.Session] = ss
		s.sessions = append(s.sessions, ss)
		s.sessKey = append(s.sessKey, ss)
		// The sessions' order in time changes only with a new session (or
		// a removal): a unit added to a session leaves its first unit.
		s.sessOrder = nil
	}
	e.s = ss
	e.sidx = len(ss.entries)
	ss.entries = append(ss.entries, e)
	ss.mean = nil
	s.entries = append(s.entries, e)
	s.byKey = append(s.byKey, e)
	s.byID[u.ID] = e
	s.timer.Mark("unit")
	terms := s.terms(e)
	s.units.Add(e.key, terms)
	s.sessIx.Add(ss.key, terms)
	s.timer.Mark("index")
}

// terms returns e's index terms. Cost O(terms), one allocation.
func (s *Store) terms(e *entry) []string {
	out := make([]string, len(e.tids))
	for i, t := range e.tids {
		out[i] = s.lex.term[t]
	}
	return out
}

// Delete removes the units with the given IDs, leaving no trace in any index.
// Every ID must exist; on error nothing is removed. Cost O(n) for the store
// plus O(terms) per unit.
func (s *Store) Delete(ids []string) error {
	seen := map[string]bool{}
	for i, id := range ids {
		if err := ident.Check(id, MaxIDBytes); err != nil {
			return fmt.Errorf("ids[%d]: %w", i, err)
		}
		if s.ids()[id] == nil {
			return fmt.Errorf("ids[%d]: unknown unit %q", i, id)
		}
		if seen[id] {
			return fmt.Errorf("ids[%d]: duplicate %q", i, id)
		}
		seen[id] = true
	}
	s.remove(func(e *entry) bool { return seen[e.u.ID] })
	return nil
}

// Purge removes every unit of a session (when session is not empty) or of a
// user (when user is not empty), or matching both when both are given, and
// returns how many it removed.
func (s *Store) Purge(sessionID, user string) int {
	if sessionID == "" && user == "" {
		return 0
	}
	return s.remove(func(e *entry) bool {
		return (sessionID == "" || e.u.Session == sessionID) && (user == "" || e.u.User == user)
	})
}

func (s *Store) remove(drop func(*entry) bool) int {
	kept := s.entries[:0]
	n := 0
	for _, e := range s.entries {
		if !drop(e) {
			e.pos = len(kept)
			kept = append(kept, e)
			continue
		}
		n++
		if e.key < s.markKey {
			s.removed = append(s.removed, removal{e.key, e.u.ID})
		}
		// The terms were added by add, so Remove cannot fail.
		terms := s.terms(e)
		_ = s.units.Remove(e.key, terms)
		_ = s.sessIx.Remove(e.s.key, terms)
		delete(s.byID, e.u.ID)
		s.byKey[e.key] = nil
		if e.spk >= 0 {
			s.spkUnits[e.spk]--
		}
		ss := e.s
		ss.entries = append(ss.entries[:e.sidx], ss.entries[e.sidx+1:]...)
		for i := e.sidx; i < len(ss.entries); i++ {
			ss.entries[i].sidx = i
		}
		ss.mean = nil
		if len(ss.entries) == 0 {
			delete(s.sess, ss.id)
			s.sessKey[ss.key] = nil
		}
	}
	for i := len(kept); i < len(s.entries); i++ {
		s.entries[i] = nil
	}
	s.entries = kept
	if n > 0 {
		s.flat.reset() // positions moved: rebuilt by refresh
	}
	if n > 0 {
		live := s.sessions[:0]
		for _, ss := range s.sessions {
			if len(ss.entries) > 0 {
				ss.pos = len(live)
				live = append(live, ss)
			}
		}
		clear(s.sessions[len(live):])
		s.sessions = live
		s.sessOrder = nil
	}
	s.refresh()
	return n
}

// refresh recomputes the per-session caches that a change made stale, and
// brings the flat arrays up to date, so that Select only reads the store.
func (s *Store) refresh() {
	s.written = nil
	s.extendFlat()
	for _, ss := range s.sessions {
		if ss.mean == nil {
			ss.mean = s.sessionMean(ss)
		}
	}
	if s.sessOrder == nil {
		s.sessOrder = s.sessionPositions()
	}
}

// neighbours returns the units just before and after e in its session (nil
// when there is none). Cost O(1).
func (e *entry) neighbours() (prev, next *entry) {
	es := e.s.entries
	if e.sidx > 0 {
		prev = es[e.sidx-1]
	}
	if e.sidx+1 < len(es) {
		next = es[e.sidx+1]
	}
	return prev, next
}

// around fills out (of length 2·span) with the span turns before e and the
// span turns after it in its session: [e-span .. e-1, e+1 .. e+span], nil
// where the session ends. Cost O(span).
func (e *entry) around(out []*entry) {
	span := len(out) / 2
	es := e.s.entries
	i := e.sidx
	for d := 1; d <= span; d++ {
		out[span-d], out[span+d-1] = nil, nil
		if i-d >= 0 {
			out[span-d] = es[i-d]
		}
		if i+d < len(es) {
			out[span+d-1] = es[i+d]
		}
	}
}

// sessionPositions returns each session's position in time, by session
// position: 0 for the oldest to 1 for the newest (1 alone), sessions ordered
// by the time of their first unit, then by that unit's place in the store.
// Cost O(sessions · log sessions).
func (s *Store) sessionPositions() []float64 {
	type st struct {
		pos  int
		time int64
		key  int
	}
	ss := make([]st, len(s.sessions))
	for i, x := range s.sessions {
		// The session's first unit in store order is its first entry.
		ss[i] = st{i, x.entries[0].time, x.entries[0].key}
	}
	// In the order of the sessions' first units in the store, then stable by time.
	slices.SortFunc(ss, func(a, b st) int { return cmp.Compare(a.key, b.key) })
	slices.SortStableFunc(ss, func(a, b st) int { return cmp.Compare(a.time, b.time) })
	out := make([]float64, len(ss))
	for i, x := range ss {
		if len(ss) > 1 {
			out[x.pos] = float64(i) / float64(len(ss)-1)
		} else {
			out[x.pos] = 1
		}
	}
	return out
}

// sessionMean returns the normalized sum of the session's unit vectors,
// summed in float64 in session order. Cost O(units · dim).
func (s *Store) sessionMean(ss *session) []float32 {
	acc := make([]float64, s.table.Dim())
	for _, e := range ss.entries {
		for j, v := range e.vec {
			acc[j] += float64(v)
		}
	}
	return vector.Normalize(acc)
}

// MarshalJSON encodes the store as the array of its units in insertion order,
// each unit exactly as json.Marshal encodes a Unit (appendUnit), without
// reflection. O(size of the units).
func (s *Store) MarshalJSON() ([]byte, error) {
	s.texts()
	n := 2
	for _, e := range s.entries {
		n += 64 + len(e.u.ID) + len(e.u.Session) + len(e.u.Date) + len(e.u.Time) + len(e.u.Speaker) + len(e.u.Text) + len(e.u.User) + len(e.u.Kind)
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, e := range s.entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendUnit(b, &e.u)
	}
	return append(b, ']'), nil
}

// appendUnit writes u as json.Marshal does: fields in order, the omitempty
// ones left out when empty, strings escaped as encoding/json escapes them.
func appendUnit(b []byte, u *Unit) []byte {
	b = append(b, `{"id":`...)
	b = jsonenc.AppendString(b, u.ID)
	b = append(b, `,"session":`...)
	b = jsonenc.AppendString(b, u.Session)
	for _, f := range [...]struct{ key, v string }{{`,"date":`, u.Date}, {`,"time":`, u.Time}, {`,"speaker":`, u.Speaker}} {
		if f.v != "" {
			b = append(b, f.key...)
			b = jsonenc.AppendString(b, f.v)
		}
	}
	b = append(b, `,"text":`...)
	b = jsonenc.AppendString(b, u.Text)
	for _, f := range [...]struct{ key, v string }{{`,"user":`, u.User}, {`,"kind":`, u.Kind}} {
		if f.v != "" {
			b = append(b, f.key...)
			b = jsonenc.AppendString(b, f.v)
		}
	}
	return append(b, '}')
}

// UnmarshalJSON decodes an array of units, validates them and rebuilds the
// indexes. Unknown fields in a unit are refused.
func (s *Store) UnmarshalJSON(b []byte) error {
	units, ok := ParseUnits(b, "")
	if !ok {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&units); err != nil {
			return err
		}
	}
	fresh := newStore(s.tableOrDefault())
	if err := fresh.Add(units); err != nil {
		return err
	}
	*s = *fresh
	return nil
}

// Validate checks the store's invariants (it is always valid once built).
func (s *Store) Validate() error {
	if s.sess == nil {
		return fmt.Errorf("store not initialized")
	}
	return nil
}

func (s *Store) tableOrDefault() *vector.Table {
	if s.table != nil {
		return s.table
	}
	return vector.Default()
}

// ids returns the units by id, building the map the first time after a
// binary state was read (which checks ids with a table of hashes instead).
// Cost O(units) once.
func (s *Store) ids() map[string]*entry {
	if s.byID == nil {
		s.byID = make(map[string]*entry, len(s.entries))
		for _, e := range s.entries {
			s.byID[e.u.ID] = e
		}
	}
	return s.byID
}

// text returns e's text, joining its tokens for a unit read from a binary
// state, without keeping the result (Select only reads the store). Cost
// O(len(text)) then.
func (s *Store) text(e *entry) string {
	if e.u.Text != "" {
		return e.u.Text
	}
	n := 0
	for _, t := range e.toks {
		n += len(s.lex.tok[t])
	}
	b := make([]byte, 0, n)
	for _, t := range e.toks {
		b = append(b, s.lex.tok[t]...)
	}
	return string(b)
}

// texts gives every unit read from a binary state its text, joined from
// its tokens, all in one string. Cost O(total text), once.
func (s *Store) texts() {
	n := 0
	for _, e := range s.entries {
		if e.u.Text == "" {
			for _, t := range e.toks {
				n += len(s.lex.tok[t])
			}
		}
	}
	if n == 0 {
		return
	}
	b := make([]byte, 0, n)
	for _, e := range s.entries {
		if e.u.Text == "" {
			for _, t := range e.toks {
				b = append(b, s.lex.tok[t]...)
			}
		}
	}
	all := string(b)
	off := 0
	for _, e := range s.entries {
		if e.u.Text == "" {
			start := off
			for _, t := range e.toks {
				off += len(s.lex.tok[t])
			}
			e.u.Text = all[start:off]
		}
	}
}

// render is Unit.Render of e, its text joined from its tokens when needed.
func (s *Store) render(e *entry) string {
	u := e.u
	u.Text = s.text(e)
	return u.Render()
}
