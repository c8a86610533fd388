package slate

import (
	"encoding/binary"
	"fmt"

	"github.com/recmem/recmem/pkg/vector"
)

// Measure is what reading the units sections of a binary state will take
// (ReadBinary for the base, ApplySegment for each segment), counted from the
// sizes the sections declare before anything they declare is allocated, so
// that a state whose few bytes would unfold into a large memory is refused
// first (issue 22: a 33 kB request declaring a 1,000,000-word vocabulary).
//
// Measuring checks what the counting needs and what bounds the reading:
// every count against the bytes left, a hashed vector's length, every token
// id against the tokens so far, each unit's text against MaxTextBytes and
// all of them against the Limits, and that every token a section defines is
// used by one of its units and every dictionary value by one of its units
// (a state holds only the tokens and values of its units, so a vocabulary
// never outgrows the texts). Everything else (UTF-8, indexes into
// the words and terms, ids, dictionaries) is left to the reading, which
// checks it all again. Cost O(section size), with one 4-byte length per
// token and one bit per token of the section kept.
type Measure struct {
	// Tokens, Words and Terms are the lexicon entries the sections add;
	// Hashed the words whose vector is hashed (not the table's).
	Tokens, Words, Hashed, Terms int
	// Units is the state's units after the sections measured; Added the
	// units the sections add (removed ones included) and Removed those they
	// remove.
	Units, Added, Removed int
	// Values counts the dictionaries' values (sessions, dates, times,
	// speakers, users, kinds), and Sessions the sessions they may make.
	Values, Sessions int
	// IDs counts the token ids of the added units' texts, TextBytes the
	// bytes of those texts joined and StringBytes the bytes of every string
	// the reader keeps (tokens, words, terms, ids, dictionary values).
	IDs         int64
	TextBytes   int64
	StringBytes int64
	// Largest is the largest section measured, in bytes: the reader's
	// temporaries are sized by it.
	Largest int

	dim    int
	tokLen []uint32 // every token's length in bytes, by id
}

// NewMeasure returns the measure of an empty state, for the embedded word
// vectors' dimension.
func NewMeasure() *Measure { return &Measure{dim: vector.Default().Dim()} }

// Add measures the units section data of a base (the state's first piece)
// or of a segment, after the sections already measured; lim bounds the
// state as ReadBinary's and ApplySegment's do. The error names the field, as
// the reader would.
func (m *Measure) Add(data []byte, base bool, lim Limits) error {
	r := &reader{b: data}
	m.Largest = max(m.Largest, len(data))
	maxRemoved := m.Units
	if base {
		maxRemoved = 0 // a base removes nothing
	}
	nrem := r.count(field("removed"), maxRemoved)
	prev := 0
	for i := range nrem {
		p := r.uvarint(at{"removed", i, ""})
		if r.err == nil && p > uint64(prev) {
			r.fail("%s: shares %d bytes with an id of %d", at{"removed", i, ""}, p, prev)
		}
		rest := r.bytes(at{"removed", i, ""})
		prev = int(p) + len(rest)
	}
	if r.err != nil {
		return r.err
	}
	m.Removed += nrem
	m.Units -= nrem
	nt0 := len(m.tokLen)
	if err := m.tokens(r); err != nil {
		return err
	}
	n := r.count(field("units"), lim.Units-m.Units)
	if r.err != nil {
		return fmt.Errorf("%w (at most %d units in a state)", r.err, lim.Units)
	}
	var dict [6]uint64
	var usedValue [6][]uint64
	for k, name := range dictNames {
		nv := r.count(field(name), 1<<30)
		for i := range nv {
			m.StringBytes += int64(len(r.bytes(at{name, i, ""})))
		}
		dict[k] = uint64(nv) + 1
		usedValue[k] = make([]uint64, (nv+64)/64)
		m.Values += nv
		if k == 0 {
			m.Sessions += min(nv, n)
		}
	}
	dict[0]-- // every unit has a session: no "none"
	prev = 0
	for i := range n {
		p := r.uvarint(at{"units", i, "id"})
		if r.err == nil && p > uint64(prev) {
			r.fail("%s: shares %d bytes with an id of %d", at{"units", i, "id"}, p, prev)
		}
		rest := r.bytes(at{"units", i, "id"})
		prev = int(p) + len(rest)
		m.StringBytes += int64(prev)
	}
	if r.err != nil {
		return r.err
	}
	for k := range 6 {
		for i := range n {
			v, ok := r.uv()
			if !ok || v >= dict[k] {
				return fmt.Errorf("%s: malformed, or index %d out of range (%d entries)", at{"units", i, colNames[k]}, v, dict[k])
			}
			if k > 0 { // 0 is none, the values count from 1
				if v == 0 {
					continue
				}
				v--
			}
			usedValue[k][v/64] |= 1 << (v % 64)
		}
	}
	// A section's dictionaries hold the values of its units, each once.
	for k, name := range dictNames {
		nv := int(dict[k])
		if k > 0 {
			nv--
		}
		for i := range nv {
			if usedValue[k][i/64]&(1<<(i%64)) == 0 {
				return fmt.Errorf("%s: used by no unit of this piece (a binary state lists only the values its units have)", at{name, i, ""})
			}
		}
	}
	used := make([]uint64, (len(m.tokLen)-nt0+63)/64)
	b, off := r.b, r.off
	nTok := uint64(len(m.tokLen))
	for i := range n {
		var sb uint64
		for {
			if off >= len(b) {
				return fmt.Errorf("%s: truncated", at{"units", i, "text"})
			}
			v := uint64(b[off])
			off++
			switch {
			case v < tok1:
			case v < tokLong:
				if off >= len(b) {
					return fmt.Errorf("%s: truncated", at{"units", i, "text"})
				}
				v = tok1 + ((v-tok1)<<8 | uint64(b[off]))
				off++
			default:
				x, k := binary.Uvarint(b[off:])
				if k <= 0 || x > 1<<40 {
					return fmt.Errorf("%s: malformed token id", at{"units", i, "text"})
				}
				off += k
				v = tok2 + x
			}
			if v == 0 {
				break
			}
			if v > nTok {
				return fmt.Errorf("%s: vocabulary index %d out of range (%d tokens)", at{"units", i, "text"}, v-1, nTok)
			}
			id := int(v - 1)
			if id >= nt0 {
				used[(id-nt0)/64] |= 1 << ((id - nt0) % 64)
			}
			sb += uint64(m.tokLen[id])
			m.IDs++
		}
		if sb > MaxTextBytes {
			return fmt.Errorf("units[%d].text: %d bytes, more than %d", i, sb, MaxTextBytes)
		}
		if m.TextBytes += int64(sb); m.TextBytes > int64(lim.TextBytes) {
			return fmt.Errorf("units[%d].text: the units' texts pass %d bytes, the most a state holds", i, lim.TextBytes)
		}
	}
	if off != len(b) {
		return fmt.Errorf("%d bytes after the last unit", len(b)-off)
	}
	for k := range len(m.tokLen) - nt0 {
		if used[k/64]&(1<<(k%64)) == 0 {
			return fmt.Errorf("tokens[%d]: used by no unit of this piece (a binary state defines only the tokens its units use)", k)
		}
	}
	m.Units += n
	m.Added += n
	return nil
}

var dictNames = [6]string{"sessions", "dates", "times", "speakers", "users", "kinds"}

// tokens measures a section's tokens, the words and terms they define and
// their vectors' sources, as readTokens reads them.
func (m *Measure) tokens(r *reader) error {
	nt := r.count(field("tokens"), 1<<30)
	for i := range nt {
		tb := r.bytes(at{"tokens", i, ""})
		code := r.uvarint(at{"tokens", i, "word"})
		if r.err != nil {
			return r.err
		}
		m.tokLen = append(m.tokLen, uint32(len(tb)))
		m.StringBytes += int64(len(tb))
		if w := code >> 4; w == 1 || w == 2 {
			if w == 2 {
				m.StringBytes += int64(len(r.bytes(at{"tokens", i, "word"})))
			}
			if tc := r.uvarint(at{"tokens", i, "term"}); tc == 0 {
				r.uvarint(at{"tokens", i, "term"})
				m.StringBytes += int64(len(r.bytes(at{"tokens", i, "term"})))
				m.Terms++
			}
			where := at{"tokens", i, "vector"}
			if vc := r.uvarint(where); vc == 0 && r.err == nil {
				if d := r.uvarint(where); r.err == nil && d != uint64(m.dim) {
					return fmt.Errorf("%s: %d components, want %d (a vector of the wrong length)", where, d, m.dim)
				}
				for j := 0; j < m.dim && r.err == nil; j++ {
					if _, k := binary.Varint(r.b[r.off:]); k <= 0 {
						return fmt.Errorf("%s[%d]: malformed", where, j)
					} else {
						r.off += k
					}
				}
				m.Hashed++
			}
			if r.err != nil {
				return r.err
			}
			m.Words++
		}
	}
	m.Tokens += nt
	return r.err
}

// Bytes estimates the memory reading the sections measured takes: the
// store's tables, units, vectors and indexes, and the reader's temporaries,
// in bytes of a 64-bit Go heap (which Go's WebAssembly is), before the
// garbage collector's headroom. Every term is a count the sections declare
// times what one of it costs (struct sizes and the lazily built maps), so
// the estimate grows with the declared sizes, whatever the bytes of the
// state. O(1).
func (m *Measure) Bytes() int64 {
	dim := int64(m.dim)
	const (
		// a token: its string header, word, flag, runes and written id,
		// its id in the map built on first use, and the reader's
		// per-token temporaries (sized by tokens: a token, a word and a
		// term each).
		perToken = 16 + 4 + 1 + 4 + 4 + 8 + 48 + 24 + 56 + 16
		// a word: string header, term, source, written id, the map entry
		// and the reader's "seen" mark; plus its two float64 rows.
		perWord = 16 + 4 + 32 + 4 + 48 + 4
		// a term: string header, written id, map entry, and its posting
		// lists' heads in the units' and the sessions' indexes.
		perTerm = 16 + 4 + 48 + 2*24
		// a unit: its entry (the Unit's strings and the cached facts),
		// the pointers to it, the reader's columns and ends, the id set
		// and the map by id built on first use; plus its vector.
		perUnit = 360 + 3*8 + 6*4 + 8 + 4 + 4 + 8 + 2*12 + 64
		// a token id of a text: the id, its word, term and distinct word,
		// and the postings of the two indexes.
		perID = 4 + 4 + 4 + 4 + 2*8
		// a dictionary value: its string header, rune count and time.
		perValue = 16 + 8 + 24
		// a session: its struct, the pointer to it, its map entry, its
		// entries' list and its document in the sessions' index.
		perSession = 64 + 2*8 + 48 + 24 + 32
	)
	b := int64(m.Tokens)*perToken +
		int64(m.Words)*(perWord+16*dim) + int64(m.Hashed)*4*dim +
		int64(m.Terms)*perTerm +
		int64(m.Added)*(perUnit+4*dim) +
		m.IDs*perID +
		int64(m.Values)*perValue +
		int64(m.Sessions)*(perSession+4*dim) +
		2*m.StringBytes + // the strings, and the buffers they are cut from
		int64(m.Largest) // the reader's token ids, at most a byte each
	return b
}
