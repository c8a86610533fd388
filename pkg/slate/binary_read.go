package slate

import (
	"encoding/binary"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/ident"
	"github.com/recmem/recmem/pkg/lexical"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// Limits bound what a binary state may expand to: its units, and the bytes
// of their texts together. A token id takes a byte and may stand for a long
// token, so a small state could otherwise unfold into a memory no JSON
// document of an acceptable size could hold.
type Limits struct {
	Units     int
	TextBytes int
}

// ReadBinary reads the units section of a base (AppendBinary) into a new
// store, checking every index, count and field, and refusing more units or
// text than lim allows. It neither tokenizes, stems nor embeds: the units' tokens,
// words, terms and vector sources are read as written. A unit's text stays
// its tokens until it is needed (Store.text). The indexes are laid out by
// lexical.Build; the units, their term and word ids and their vectors each
// take one block. Cost O(section size + words of all units · dim), with a
// number of allocations that does not grow with the units.
func ReadBinary(data []byte, lim Limits) (*Store, error) {
	s := newStore(vector.Default())
	s.lex = lexicon{} // the maps are built on first use (lexicon.maps)
	s.byID = nil      // built on first use (Store.ids)
	r := &reader{b: data}
	if n := r.count(field("removed"), 0); r.err == nil && n != 0 {
		r.fail("removed: a base removes nothing")
	}
	if err := s.readPiece(r, lim, true); err != nil {
		return nil, err
	}
	s.Mark()
	return s, nil
}

// ApplySegment applies the units section of a segment (AppendSegment): it
// removes the units it names and adds its units after the store's own. The
// store must be one the caller can discard on error (a store just read from
// the segment's base): on error it is left half changed. Cost O(section
// size + the removed and added units' terms), and O(units) once to index
// the ids.
func (s *Store) ApplySegment(data []byte, lim Limits) error {
	r := &reader{b: data}
	n := r.count(field("removed"), s.Len())
	ids := make([]string, 0, n)
	prev := ""
	for i := range n {
		id := r.front(at{"removed", i, ""}, prev)
		prev = id
		ids = append(ids, id)
	}
	if r.err != nil {
		return r.err
	}
	if len(ids) > 0 {
		if err := s.Delete(ids); err != nil {
			return fmt.Errorf("removed: %w", err)
		}
	}
	if err := s.readPiece(r, lim, false); err != nil {
		return err
	}
	s.Mark()
	return nil
}

// front reads an id front-coded against prev.
func (r *reader) front(where at, prev string) string {
	p := r.uvarint(where)
	if r.err == nil && p > uint64(len(prev)) {
		r.fail("%s: shares %d bytes with an id of %d", where, p, len(prev))
	}
	rest := r.bytes(where)
	if r.err != nil {
		return ""
	}
	return prev[:p] + string(rest)
}

// span is a string of a section's one buffer, by offset and length.
type span struct{ off, n int }

// readTokens reads the tokens section into the lexicon, with the words and
// terms the tokens introduce. Their strings are laid out in one string.
func (s *Store) readTokens(r *reader) error {
	l := &s.lex
	dim := s.table.Dim()
	nt := r.count(field("tokens"), 1<<30)
	type ptok struct {
		s    span
		word int32
		flag uint8
	}
	type pword struct {
		s    span
		term int32
		src  source
	}
	toks := make([]ptok, 0, nt)
	words := make([]pword, 0, nt) // a token defines a word at most
	terms := make([]span, 0, nt)
	nw0, nt0 := len(l.word), len(l.term)
	var buf []byte
	add := func(b []byte) span {
		sp := span{len(buf), len(b)}
		buf = append(buf, b...)
		return sp
	}
	for i := range nt {
		where := at{"tokens", i, ""}
		tb := r.bytes(where)
		code := r.uvarint(at{"tokens", i, "word"})
		if r.err != nil {
			return r.err
		}
		if len(tb) == 0 || !utf8.Valid(tb) {
			return fmt.Errorf("%s: empty or not valid UTF-8", where)
		}
		ts := add(tb)
		flag, w := uint8(code&15), code>>4
		if flag&^tokFlags != 0 {
			return fmt.Errorf("%s.word: unknown flags %d", where, flag)
		}
		word := int32(-1)
		switch {
		case w == 1 || w == 2:
			ws := ts
			if w == 1 {
				if tb[0] == ' ' {
					ws = span{ts.off + 1, ts.n - 1}
				}
			} else {
				wb := r.bytes(at{"tokens", i, "word"})
				if r.err != nil {
					return r.err
				}
				if !utf8.Valid(wb) {
					return fmt.Errorf("%s.word: not valid UTF-8", where)
				}
				ws = add(wb)
			}
			if ws.n == 0 {
				return fmt.Errorf("%s.word: empty", where)
			}
			// The term: a new one, the word cut plus a suffix, or a written one.
			var term int32
			switch tc := r.uvarint(at{"tokens", i, "term"}); {
			case r.err != nil:
				return r.err
			case tc == 0:
				cut := r.uvarint(at{"tokens", i, "term"})
				suffix := r.bytes(at{"tokens", i, "term"})
				if r.err != nil {
					return r.err
				}
				if cut > uint64(ws.n) || (cut == uint64(ws.n) && len(suffix) == 0) || !utf8.Valid(suffix) {
					return fmt.Errorf("%s.term: cuts %d bytes from a word of %d and adds %d: empty or not UTF-8", where, cut, ws.n, len(suffix))
				}
				stem := span{ws.off, ws.n - int(cut)}
				if len(suffix) > 0 {
					stem = add(buf[ws.off : ws.off+ws.n-int(cut)])
					buf = append(buf, suffix...)
					stem.n += len(suffix)
				}
				terms = append(terms, stem)
				term = int32(nt0 + len(terms) - 1)
			case tc-1 >= uint64(nt0+len(terms)):
				return fmt.Errorf("%s.term: vocabulary index %d out of range (%d terms)", where, tc-1, nt0+len(terms))
			default:
				term = int32(tc - 1)
			}
			src, err := readSource(r, at{"tokens", i, "vector"}, dim, s.table.Len())
			if err != nil {
				return err
			}
			words = append(words, pword{ws, term, src})
			word = int32(nw0 + len(words) - 1)
		case w >= 3:
			if w-3 >= uint64(nw0+len(words)) {
				return fmt.Errorf("%s.word: vocabulary index %d out of range (%d words)", where, w-3, nw0+len(words))
			}
			word = int32(w - 3)
		}
		toks = append(toks, ptok{ts, word, flag})
	}
	// The tables grow once, by what the section adds: the words' rows
	// (2·dim float64 each) are most of the lexicon's bytes.
	l.grow(len(toks), len(words), len(terms), dim)
	str := string(buf)
	at := func(sp span) string { return str[sp.off : sp.off+sp.n] }
	for _, sp := range terms {
		l.addTerm(at(sp))
	}
	for _, p := range words {
		l.addWord(at(p.s), p.term, p.src, s.table)
	}
	for _, p := range toks {
		l.addToken(at(p.s), p.word, p.flag)
	}
	// The store was read from a binary state: its ids are the state's.
	for _, out := range [][]int32{l.tokOut, l.wordOut, l.termOut} {
		for i := range out {
			out[i] = int32(i)
		}
	}
	l.nTokOut, l.nWordOut, l.nTermOut = int32(len(l.tok)), int32(len(l.word)), int32(len(l.term))
	return nil
}

// readSource reads a word's vector source: 0 and dim counts (hashed), or
// 1+2r (the table's word of rank r), or 2+2r (its plural).
func readSource(r *reader, where at, dim, tableLen int) (source, error) {
	vc := r.uvarint(where)
	if r.err != nil {
		return source{}, r.err
	}
	if vc == 0 {
		n := r.uvarint(where)
		if r.err != nil {
			return source{}, r.err
		}
		if n != uint64(dim) {
			return source{}, fmt.Errorf("%s: %d components, want %d (a vector of the wrong length)", where, n, dim)
		}
		counts := make([]int32, dim)
		for j := range counts {
			v, k := binary.Varint(r.b[r.off:])
			if k <= 0 || v < -1<<20 || v > 1<<20 {
				return source{}, fmt.Errorf("%s[%d]: malformed", where, j)
			}
			r.off += k
			counts[j] = int32(v)
		}
		return source{kind: srcHashed, counts: counts}, nil
	}
	rank := (vc - 1) / 2
	if rank >= uint64(tableLen) {
		return source{}, fmt.Errorf("%s: table rank %d out of range (%d words)", where, rank, tableLen)
	}
	if vc%2 == 0 {
		return source{kind: srcPlural, rank: int32(rank)}, nil
	}
	return source{kind: srcExact, rank: int32(rank)}, nil
}

// uv reads a uvarint, the one-byte case inline.
func (r *reader) uv() (uint64, bool) {
	if r.off < len(r.b) {
		if c := r.b[r.off]; c < 0x80 {
			r.off++
			return uint64(c), true
		}
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		return 0, false
	}
	r.off += n
	return v, true
}

// readPiece reads the tokens and units of a section into s (a new store
// when base, whose indexes it builds whole; else units added to s).
func (s *Store) readPiece(r *reader, lim Limits, base bool) error {
	if err := s.readTokens(r); err != nil {
		return err
	}
	t := s.table
	dim := t.Dim()
	l := &s.lex
	n := r.count(field("units"), lim.Units-s.Len())
	if r.err != nil {
		return fmt.Errorf("%w (at most %d units in a state)", r.err, lim.Units)
	}
	var dicts [6][]string
	for k, name := range [6]string{"sessions", "dates", "times", "speakers", "users", "kinds"} {
		dicts[k] = r.readDict(field(name))
	}
	if r.err != nil {
		return r.err
	}
	// Each dict value checked once: what Unit.Validate checks of a unit.
	for i, v := range dicts[0][1:] {
		if err := ident.Check(v, MaxIDBytes); err != nil {
			return fmt.Errorf("sessions[%d]: %w", i, err)
		}
	}
	for i, v := range dicts[4][1:] {
		if err := ident.Check(v, MaxIDBytes); err != nil {
			return fmt.Errorf("users[%d]: %w", i, err)
		}
	}
	for i, v := range dicts[5][1:] {
		if v != "turn" && v != "record" {
			return fmt.Errorf("kinds[%d]: want \"turn\" or \"record\", got %q", i, v)
		}
	}
	type when struct {
		t           int64
		month, year int
	}
	times := make([]when, len(dicts[2]))
	for i, v := range dicts[2][1:] {
		sec, err := ParseTime(v)
		if err != nil {
			return fmt.Errorf("times[%d]: %w", i, err)
		}
		tt := time.Unix(sec, 0).UTC()
		times[i+1] = when{sec, int(tt.Month()), tt.Year()}
	}
	// Runes Render puts before the text: "[date] " (or "[time] ") and
	// "speaker: ", by dict value.
	var runes [4][]int
	for _, k := range []int{1, 2, 3} {
		runes[k] = make([]int, len(dicts[k]))
		for i, v := range dicts[k][1:] {
			runes[k][i+1] = utf8.RuneCountInString(v)
		}
	}
	// Ids, front-coded, into one string.
	idEnd := make([]int, n)
	var idBuf []byte
	prevStart, prevEnd := 0, 0
	for i := range n {
		p := r.uvarint(at{"units", i, "id"})
		if r.err == nil && p > uint64(prevEnd-prevStart) {
			r.fail("%s: shares %d bytes with an id of %d", at{"units", i, "id"}, p, prevEnd-prevStart)
		}
		rest := r.bytes(at{"units", i, "id"})
		if r.err != nil {
			return r.err
		}
		start := len(idBuf)
		idBuf = append(idBuf, idBuf[prevStart:prevStart+int(p)]...)
		idBuf = append(idBuf, rest...)
		prevStart, prevEnd = start, len(idBuf)
		idEnd[i] = prevEnd
	}
	ids := string(idBuf)
	// The columns of dict indexes.
	cols := make([]uint32, 6*n)
	for k := range 6 {
		limit := uint64(len(dicts[k]))
		if k == 0 {
			limit-- // every unit has a session: no "none"
		}
		c := cols[k*n : (k+1)*n]
		for i := range c {
			v, ok := r.uv()
			if !ok || v >= limit {
				return fmt.Errorf("%s: malformed, or index %d out of range (%d entries)", at{"units", i, colNames[k]}, v, limit)
			}
			c[i] = uint32(v)
		}
	}
	// Per token, what its unit needs: bytes, runes and flags packed in one
	// word (tokInfo), so that the loops below read one array per token.
	info := make([]uint64, len(l.tok))
	for id, tok := range l.tok {
		info[id] = min(uint64(len(tok)), infoMax) | min(uint64(l.tokRunes[id]), infoMax)<<20 | uint64(l.tokFlag[id])<<40
	}
	// The texts: token ids until 0, unit by unit, read and checked, with
	// each unit's content words.
	b, off := r.b, r.off
	toks := make([]int32, 0, len(b)-off) // an id takes a byte at least
	wids := make([]int32, 0, len(b)-off) // the units' content words, in order
	tokEnd := make([]int32, n)
	wordEnd := make([]int32, n)
	units := make([]unitSums, n)
	nTok := uint64(len(l.tok))
	tokWord := l.tokWord
	for i := range n {
		var sb, sr, fl uint64
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
			id := int32(v - 1)
			toks = append(toks, id)
			x := info[id]
			sb += x & infoMax
			sr += x >> 20 & infoMax
			fl |= x >> 40
			if w := tokWord[id]; w >= 0 {
				wids = append(wids, w)
			}
		}
		if sb > MaxTextBytes {
			return fmt.Errorf("units[%d].text: %d bytes, more than %d", i, sb, MaxTextBytes)
		}
		if s.readText += int(sb); s.readText > lim.TextBytes {
			return fmt.Errorf("units[%d].text: the units' texts pass %d bytes, the most a state holds", i, lim.TextBytes)
		}
		tokEnd[i], wordEnd[i] = int32(len(toks)), int32(len(wids))
		units[i] = unitSums{runes: int32(sr), flag: uint8(fl)}
	}
	if off != len(b) {
		return fmt.Errorf("%d bytes after the last unit", len(b)-off)
	}
	r.off = off
	// The units: each checked as Unit.Validate checks it, with its term ids,
	// distinct words and sentence vector laid out in blocks.
	var dup idSet
	if base {
		dup = newIDSet(n)
		s.entries = make([]*entry, 0, n)
		s.byKey = make([]*entry, 0, n)
	}
	sessOf := make([]*session, len(dicts[0])-1)
	spkOf := make([]int32, len(dicts[3]))
	ents := make([]entry, n)
	tids := make([]int32, len(wids))
	uwids := make([]int32, 0, len(wids))
	vecs := make([]float32, n*dim)
	acc := make([]float64, dim)
	seen := make([]int32, len(l.word)) // 1 + the last unit holding each word
	wordTerm := l.wordTerm
	for k, w := range wids {
		tids[k] = wordTerm[w]
	}
	tokStart, wordStart := int32(0), int32(0)
	for i := range n {
		e := &ents[i]
		u := &e.u
		ts := toks[tokStart:tokEnd[i]:tokEnd[i]]
		ws := wids[wordStart:wordEnd[i]:wordEnd[i]]
		e.tids = tids[wordStart:wordEnd[i]:wordEnd[i]]
		tokStart, wordStart = tokEnd[i], wordEnd[i]
		u.ID = ids[idStart(idEnd, i):idEnd[i]]
		if err := ident.Check(u.ID, MaxIDBytes); err != nil {
			return fmt.Errorf("units[%d].id: %w", i, err)
		}
		if base && !dup.add(u.ID, int32(i), ents) || !base && s.ids()[u.ID] != nil {
			return fmt.Errorf("units[%d].id: duplicate %q", i, u.ID)
		}
		// The last token that is not white space: none means no text.
		last := len(ts) - 1
		for last >= 0 && info[ts[last]]>>40&tokSpace != 0 {
			last--
		}
		if last < 0 {
			return fmt.Errorf("units[%d].text: missing", i)
		}
		e.question = l.tok[ts[last]] == "?"
		flag := units[i].flag
		e.firstPerson, e.timeWord, e.hasQMark = flag&tokFirstPerson != 0, flag&tokTimeWord != 0, flag&tokQMark != 0
		e.toks = ts
		u0 := len(uwids)
		mark := int32(i + 1)
		for _, w := range ws {
			if seen[w] != mark {
				seen[w] = mark
				uwids = append(uwids, w)
			}
		}
		e.uwids = uwids[u0:len(uwids):len(uwids)]
		clear(acc)
		vector.AddRows(acc, l.wordWeighted, ws)
		e.vec = vecs[i*dim : (i+1)*dim : (i+1)*dim]
		t.FinishInto(e.vec, acc)
		cs, cd, ct, csp, cu, ck := cols[i], cols[n+i], cols[2*n+i], cols[3*n+i], cols[4*n+i], cols[5*n+i]
		u.Session = dicts[0][cs+1]
		u.Date, u.Time, u.Speaker = dicts[1][cd], dicts[2][ct], dicts[3][csp]
		u.User, u.Kind = dicts[4][cu], dicts[5][ck]
		wt := times[ct]
		e.time, e.month, e.year = wt.t, wt.month, wt.year
		prefix := 0
		if cd > 0 {
			prefix = 3 + runes[1][cd]
		} else if ct > 0 {
			prefix = 3 + runes[2][ct]
		}
		if csp > 0 {
			prefix += 2 + runes[3][csp]
		}
		e.tokens = (prefix + int(units[i].runes) + 3) / 4
		ss := sessOf[cs]
		if ss == nil {
			ss = s.session(u.Session)
			sessOf[cs] = ss
		}
		e.spk = -1
		if csp > 0 {
			if spkOf[csp] == 0 {
				spkOf[csp] = 1 + s.speaker(u.Speaker)
			}
			e.spk = spkOf[csp] - 1
			s.spkUnits[e.spk]++
		}
		e.key, e.pos = s.next, len(s.entries)
		s.next++
		e.s, e.sidx = ss, len(ss.entries)
		ss.entries = append(ss.entries, e)
		ss.mean = nil
		s.entries = append(s.entries, e)
		s.byKey = append(s.byKey, e)
		if s.byID != nil {
			s.byID[u.ID] = e
		}
	}
	s.sessOrder = nil
	// The indexes: laid out whole for a base, extended for a segment.
	if base {
		var err error
		if s.units, err = lexical.BuildFlat(lexical.Config{}, l.term, tids, wordEnd); err != nil {
			return err
		}
		// The sessions' documents: their units' terms, session by session
		// (a counting sort of the units by session key).
		send := make([]int32, len(s.sessions))
		for i := range ents {
			send[ents[i].s.key] += int32(len(ents[i].tids))
		}
		for k := 1; k < len(send); k++ {
			send[k] += send[k-1]
		}
		at := make([]int32, len(send))
		for k := 1; k < len(send); k++ {
			at[k] = send[k-1]
		}
		stids := make([]int32, len(tids))
		for i := range ents {
			k := ents[i].s.key
			at[k] += int32(copy(stids[at[k]:], ents[i].tids))
		}
		if s.sessIx, err = lexical.BuildFlat(lexical.Config{}, l.term, stids, send); err != nil {
			return err
		}
	} else {
		for i := range ents {
			e := &ents[i]
			terms := s.terms(e)
			s.units.Add(e.key, terms)
			s.sessIx.Add(e.s.key, terms)
		}
	}
	s.refresh()
	return nil
}

// infoMax caps the bytes and runes of a token in its packed info (a longer
// token makes its unit longer than MaxTextBytes anyway).
const infoMax = 1<<20 - 1

// unitSums are what a unit's tokens add up to.
type unitSums struct {
	runes int32
	flag  uint8
}

// session returns the session of id, creating it (keyed next) when new.
func (s *Store) session(id string) *session {
	ss := s.sess[id]
	if ss == nil {
		ss = &session{id: id, key: s.nextS, pos: len(s.sessions)}
		s.nextS++
		s.sess[id] = ss
		s.sessions = append(s.sessions, ss)
		s.sessKey = append(s.sessKey, ss)
	}
	return ss
}

// speaker returns the id of the speaker named name, adding it when new.
func (s *Store) speaker(name string) int32 {
	id, ok := s.spk[name]
	if !ok {
		id = int32(len(s.spkNames))
		s.spk[name] = id
		s.spkNames = append(s.spkNames, name)
		s.spkWords = append(s.spkWords, text.Words(name))
		s.spkUnits = append(s.spkUnits, 0)
	}
	return id
}

// colNames name the units' columns after the id, in their order.
var colNames = [6]string{"session", "date", "time", "speaker", "user", "kind"}

func idStart(end []int, i int) int {
	if i == 0 {
		return 0
	}
	return end[i-1]
}

// idSet finds duplicate unit ids among the units of one section without a
// map: an open-addressing table of FNV-1a hashes, comparing ids only when
// their hashes meet. Cost O(len(id)) per id expected.
type idSet struct {
	slot []int32 // 1 + the unit's index, 0 empty
	hash []uint64
}

func newIDSet(n int) idSet {
	size := 1
	for size < 2*n {
		size <<= 1
	}
	return idSet{slot: make([]int32, size), hash: make([]uint64, size)}
}

// add records unit i's id and reports whether it was new.
func (d *idSet) add(id string, i int32, ents []entry) bool {
	h := uint64(14695981039346656037)
	for k := 0; k < len(id); k++ {
		h ^= uint64(id[k])
		h *= 1099511628211
	}
	mask := uint64(len(d.slot) - 1)
	for p := h & mask; ; p = (p + 1) & mask {
		switch {
		case d.slot[p] == 0:
			d.slot[p], d.hash[p] = i+1, h
			return true
		case d.hash[p] == h && ents[d.slot[p]-1].u.ID == id:
			return false
		}
	}
}
