package slate

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
)

// The units section of a binary state (docs/state-binary.md, "Units"): the
// store's units already analysed, written as ids into the lexicon's tables.
// A base holds every unit; a segment holds the units removed and the units
// added since the state it applies to, with only the lexicon entries that
// state lacks. Both have one layout:
//
//	removed   uvarint count, then the removed units' ids (front-coded)
//	tokens    uvarint count, then each token: its string, and a uvarint
//	          word<<4 | flags (lexicon.go), word 0 for none, 1 for a new word spelled as
//	          the token without its leading space, 2 for a new word spelled
//	          out after it, 3+k for the written word k; a new word is
//	          followed by its term (0: a new term, the word cut by c bytes
//	          plus a suffix; 1+k: the written term k) and its vector's
//	          source (0: hashed, then its dim counts as zigzag varints;
//	          1+2r: the table's word of rank r; 2+2r: the word of rank r,
//	          the plural's singular)
//	units     uvarint count, then the dicts of sessions, dates, times,
//	          speakers, users and kinds (each: count, strings), then the
//	          columns, unit by unit: ids (front-coded against the unit
//	          before), session, date, time, speaker, user and kind (dict
//	          indexes, 0 for none), and text (token ids + 1 in the 1-3 byte
//	          code of wire.go, 0 after each unit's)
//
// Tokens are written most frequent first in a base, so that most ids take
// one byte; in a segment, in order of first use.

// removal is a unit removed since the store's mark.
type removal struct {
	key int
	id  string
}

// Mark records the store's current units as the ones a binary state holds
// (the state was just read or written): a segment written later holds the
// changes since. Cost O(1).
func (s *Store) Mark() {
	s.markKey = s.next
	s.removed = s.removed[:0]
}

// Changed reports whether units were added or removed since the mark.
func (s *Store) Changed() bool {
	return len(s.removed) > 0 || (len(s.entries) > 0 && s.entries[len(s.entries)-1].key >= s.markKey)
}

// AppendBinary appends the units section of a base holding every unit, and
// marks the store. Cost O(tokens of all units + lexicon · log lexicon), or
// a copy of the section when the store has not changed since it last wrote
// one (Store.written).
func (s *Store) AppendBinary(b []byte) []byte {
	if s.written != nil {
		s.Mark()
		return append(b, s.written...)
	}
	start := len(b)
	l := &s.lex
	// Renumber the lexicon: the tokens the units use, most frequent first,
	// ties in order of first use; words and terms in order of first use.
	count := make([]int32, len(l.tok))
	var order []int32
	for _, e := range s.entries {
		for _, t := range e.toks {
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(count[b], count[a]) })
	for _, out := range [][]int32{l.tokOut, l.wordOut, l.termOut} {
		for i := range out {
			out[i] = -1
		}
	}
	l.nTokOut, l.nWordOut, l.nTermOut = 0, 0, 0
	b = binary.AppendUvarint(b, 0) // nothing removed
	b = s.appendTokens(b, order)
	b = s.appendUnits(b, s.entries)
	s.Mark()
	s.written = slices.Clone(b[start:])
	return b
}

// AppendSegment appends the units section of a segment: the units removed
// and added since the store's mark, with the lexicon entries the marked
// state lacks; then marks the store. Cost O(tokens of the added units +
// removed units · log).
func (s *Store) AppendSegment(b []byte) []byte {
	s.written = nil // the written ids change
	sort.Slice(s.removed, func(i, j int) bool { return s.removed[i].key < s.removed[j].key })
	b = binary.AppendUvarint(b, uint64(len(s.removed)))
	prev := ""
	for _, r := range s.removed {
		b = appendFront(b, prev, r.id)
		prev = r.id
	}
	first := sort.Search(len(s.entries), func(i int) bool { return s.entries[i].key >= s.markKey })
	added := s.entries[first:]
	l := &s.lex
	var order []int32
	seen := map[int32]bool{}
	for _, e := range added {
		for _, t := range e.toks {
			if l.tokOut[t] < 0 && !seen[t] {
				seen[t] = true
				order = append(order, t)
			}
		}
	}
	b = s.appendTokens(b, order)
	b = s.appendUnits(b, added)
	s.Mark()
	return b
}

// appendFront writes id front-coded against prev: the length of their
// common prefix, then the rest.
func appendFront(b []byte, prev, id string) []byte {
	p := 0
	for p < len(prev) && p < len(id) && prev[p] == id[p] {
		p++
	}
	b = binary.AppendUvarint(b, uint64(p))
	return appendString(b, id[p:])
}

// appendTokens writes the tokens of order (new to the written state), with
// the words and terms they introduce, giving each its written id.
func (s *Store) appendTokens(b []byte, order []int32) []byte {
	l := &s.lex
	b = binary.AppendUvarint(b, uint64(len(order)))
	for _, t := range order {
		l.tokOut[t] = l.nTokOut
		l.nTokOut++
		tok := l.tok[t]
		b = appendString(b, tok)
		w := l.tokWord[t]
		flag := uint64(l.tokFlag[t])
		switch {
		case w < 0:
			b = binary.AppendUvarint(b, flag)
			continue
		case l.wordOut[w] >= 0:
			b = binary.AppendUvarint(b, uint64(3+l.wordOut[w])<<4|flag)
			continue
		}
		l.wordOut[w] = l.nWordOut
		l.nWordOut++
		word := l.word[w]
		if word == strings.TrimPrefix(tok, " ") {
			b = binary.AppendUvarint(b, 1<<4|flag)
		} else {
			b = binary.AppendUvarint(b, 2<<4|flag)
			b = appendString(b, word)
		}
		if tm := l.wordTerm[w]; l.termOut[tm] >= 0 {
			b = binary.AppendUvarint(b, uint64(1+l.termOut[tm]))
		} else {
			l.termOut[tm] = l.nTermOut
			l.nTermOut++
			term := l.term[tm]
			p := 0
			for p < len(word) && p < len(term) && word[p] == term[p] {
				p++
			}
			b = binary.AppendUvarint(b, 0)
			b = binary.AppendUvarint(b, uint64(len(word)-p))
			b = appendString(b, term[p:])
		}
		switch src := l.wordSrc[w]; src.kind {
		case srcExact:
			b = binary.AppendUvarint(b, 1+2*uint64(src.rank))
		case srcPlural:
			b = binary.AppendUvarint(b, 2+2*uint64(src.rank))
		default:
			b = binary.AppendUvarint(b, 0)
			b = binary.AppendUvarint(b, uint64(len(src.counts)))
			for _, c := range src.counts {
				b = binary.AppendVarint(b, int64(c))
			}
		}
	}
	return b
}

// appendUnits writes units: their count, the dicts, then the columns.
func (s *Store) appendUnits(b []byte, es []*entry) []byte {
	l := &s.lex
	var sessions, dates, times, speakers, users, kinds dict
	col := make([]uint32, 6*len(es))
	for i, e := range es {
		c := col[6*i : 6*i+6 : 6*i+6]
		c[0] = sessions.id(e.u.Session) - 1
		c[1] = dates.id(e.u.Date)
		c[2] = times.id(e.u.Time)
		c[3] = speakers.id(e.u.Speaker)
		c[4] = users.id(e.u.User)
		c[5] = kinds.id(e.u.Kind)
	}
	b = binary.AppendUvarint(b, uint64(len(es)))
	for _, d := range []*dict{&sessions, &dates, &times, &speakers, &users, &kinds} {
		b = d.append(b)
	}
	prev := ""
	for _, e := range es {
		b = appendFront(b, prev, e.u.ID)
		prev = e.u.ID
	}
	for k := range 6 {
		for i := range es {
			b = binary.AppendUvarint(b, uint64(col[6*i+k]))
		}
	}
	need := len(es)
	for _, e := range es {
		need += 2 * len(e.toks) // most ids take one or two bytes
	}
	b = slices.Grow(b, need)
	out := l.tokOut
	for _, e := range es {
		for _, t := range e.toks {
			if v := uint64(out[t]) + 1; v < tok1 {
				b = append(b, byte(v))
			} else {
				b = appendTokID(b, v)
			}
		}
		b = append(b, 0)
	}
	return b
}
