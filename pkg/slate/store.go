package slate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recmem/recmem/pkg/lexical"
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
	entries []*entry
	byID    map[string]*entry
	sess    map[string]*session
	units   *lexical.Index // doc = entry key
	sessIx  *lexical.Index // doc = session key
	next    int            // next entry key
	nextS   int            // next session key
	table   *vector.Table
}

type entry struct {
	u     Unit
	key   int
	terms []string // index terms (stemmed, no stop words)
	words []string // lowercased content words (no stop words), for vectors
	vec   []float32
	vecs  [][]float32 // one per word of words (views into the table, or hashed)
	time  int64       // seconds since the epoch; 0 without a time
	s     *session
	// Cached per-unit facts for features and the fill.
	tokens      int
	timeWord    bool // mentions a time (hasTimeWord)
	firstPerson bool // says I, my, me, we, our...
	question    bool // ends with a question mark
}

type session struct {
	id      string
	key     int
	entries []*entry // in insertion order
}

// NewStore returns an empty store using the embedded word vectors.
func NewStore() *Store { return newStore(vector.Default()) }

// NewStoreWithTable returns an empty store using the word vectors t (to
// measure what the embedded table's reduction costs, or a host's own table).
func NewStoreWithTable(t *vector.Table) *Store { return newStore(t) }

func newStore(t *vector.Table) *Store {
	return &Store{byID: map[string]*entry{}, sess: map[string]*session{},
		units: lexical.New(lexical.Config{}), sessIx: lexical.New(lexical.Config{}), table: t}
}

// Len is the number of units.
func (s *Store) Len() int { return len(s.entries) }

// Units returns a copy of the units in insertion order.
func (s *Store) Units() []Unit {
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
		if s.byID[u.ID] != nil || seen[u.ID] {
			return fmt.Errorf("units[%d].id: duplicate %q", i, u.ID)
		}
		seen[u.ID] = true
	}
	for _, u := range units {
		s.add(u)
	}
	return nil
}

func (s *Store) add(u Unit) {
	e := &entry{u: u, key: s.next}
	s.next++
	if u.Time != "" {
		e.time, _ = ParseTime(u.Time)
	}
	e.terms = text.Terms(u.Text)
	all := text.Words(u.Text)
	for _, w := range all {
		if !text.IsStopword(w) {
			e.words = append(e.words, w)
		}
		if firstPerson[w] {
			e.firstPerson = true
		}
	}
	e.tokens = u.Tokens()
	e.timeWord = hasTimeWord(all)
	e.question = strings.HasSuffix(strings.TrimSpace(u.Text), "?")
	e.vec = s.table.Sentence(e.words)
	for _, w := range e.words {
		v, _ := s.table.Word(w)
		e.vecs = append(e.vecs, v)
	}
	ss := s.sess[u.Session]
	if ss == nil {
		ss = &session{id: u.Session, key: s.nextS}
		s.nextS++
		s.sess[u.Session] = ss
	}
	e.s = ss
	ss.entries = append(ss.entries, e)
	s.entries = append(s.entries, e)
	s.byID[u.ID] = e
	s.units.Add(e.key, e.terms)
	s.sessIx.Add(ss.key, e.terms)
}

// Delete removes the units with the given IDs, leaving no trace in any index.
// Every ID must exist; on error nothing is removed. Cost O(n) for the store
// plus O(terms) per unit.
func (s *Store) Delete(ids []string) error {
	seen := map[string]bool{}
	for i, id := range ids {
		if s.byID[id] == nil {
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
			kept = append(kept, e)
			continue
		}
		n++
		// The terms were added by add, so Remove cannot fail.
		_ = s.units.Remove(e.key, e.terms)
		_ = s.sessIx.Remove(e.s.key, e.terms)
		delete(s.byID, e.u.ID)
		ss := e.s
		for i, x := range ss.entries {
			if x == e {
				ss.entries = append(ss.entries[:i], ss.entries[i+1:]...)
				break
			}
		}
		if len(ss.entries) == 0 {
			delete(s.sess, ss.id)
		}
	}
	for i := len(kept); i < len(s.entries); i++ {
		s.entries[i] = nil
	}
	s.entries = kept
	return n
}

// neighbours returns the units just before and after e in its session (nil
// when there is none).
func (e *entry) neighbours() (prev, next *entry) {
	es := e.s.entries
	for i, x := range es {
		if x == e {
			if i > 0 {
				prev = es[i-1]
			}
			if i+1 < len(es) {
				next = es[i+1]
			}
			break
		}
	}
	return prev, next
}

// around returns the span turns before e and the span turns after it in its
// session: [e-span .. e-1, e+1 .. e+span], nil where the session ends.
func (e *entry) around(span int) []*entry {
	out := make([]*entry, 2*span)
	es := e.s.entries
	for i, x := range es {
		if x != e {
			continue
		}
		for d := 1; d <= span; d++ {
			if i-d >= 0 {
				out[span-d] = es[i-d]
			}
			if i+d < len(es) {
				out[span+d-1] = es[i+d]
			}
		}
		break
	}
	return out
}

// MarshalJSON encodes the store as the array of its units in insertion order.
func (s *Store) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, e := range s.entries {
		if i > 0 {
			buf.WriteByte(',')
		}
		b, err := json.Marshal(e.u)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes an array of units, validates them and rebuilds the
// indexes. Unknown fields in a unit are refused.
func (s *Store) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var units []Unit
	if err := dec.Decode(&units); err != nil {
		return err
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
	if s.byID == nil {
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
