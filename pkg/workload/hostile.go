package workload

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"

	"github.com/recmem/recmem/pkg/vector"
)

// Hostile binary states: what a client can forge from the format of
// docs/state-binary.md alone, every piece's XXH64 recomputed, as the tests
// of every host send them (issue 22). The checksum guards integrity only,
// so each of these passes it; what refuses them is the import's limits and
// budget, and a host's seal.

// Piece returns a binary state piece: its 32-byte header (kind 'B' a base
// or 'S' a segment, the sequence and the checksum of the piece before it),
// the body and the XXH64 of both.
func Piece(kind byte, seq uint32, base uint64, body []byte) []byte {
	b := make([]byte, 32, 32+len(body)+8)
	copy(b, "RMSB")
	b[4], b[5] = 1, kind
	binary.LittleEndian.PutUint32(b[8:], uint32(len(body)))
	binary.LittleEndian.PutUint32(b[12:], seq)
	binary.LittleEndian.PutUint64(b[16:], base)
	binary.LittleEndian.PutUint32(b[24:], 3)
	b = append(b, body...)
	return binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
}

// Section returns a body section: its tag, its length and content.
func Section(tag byte, content []byte) []byte {
	b := binary.LittleEndian.AppendUint32([]byte{tag}, uint32(len(content)))
	return append(b, content...)
}

// Sum is the checksum of a binary state (its last piece's).
func Sum(state []byte) uint64 { return binary.LittleEndian.Uint64(state[len(state)-8:]) }

// Pieces splits a bare binary state into its pieces by their headers.
func Pieces(state []byte) ([][]byte, error) {
	var out [][]byte
	for len(state) > 0 {
		if len(state) < 40 || string(state[:4]) != "RMSB" {
			return nil, errors.New("hostile: not a binary state")
		}
		n := 40 + int(binary.LittleEndian.Uint32(state[8:]))
		if n > len(state) {
			return nil, errors.New("hostile: truncated piece")
		}
		out = append(out, state[:n])
		state = state[n:]
	}
	return out, nil
}

// sections splits a piece's body into its sections, in order.
func sections(piece []byte) (tags []byte, contents [][]byte) {
	body := piece[32 : len(piece)-8]
	for len(body) >= 5 {
		n := int(binary.LittleEndian.Uint32(body[1:]))
		tags = append(tags, body[0])
		contents = append(contents, body[5:5+n])
		body = body[5+n:]
	}
	return tags, contents
}

// MemoryOf returns the memory section (the JSON of the document's "memory")
// that a bare binary state holds last.
func MemoryOf(state []byte) ([]byte, error) {
	ps, err := Pieces(state)
	if err != nil {
		return nil, err
	}
	var mem []byte
	for _, p := range ps {
		tags, cs := sections(p)
		for i, t := range tags {
			if t == 'M' {
				mem = cs[i]
			}
		}
	}
	if mem == nil {
		return nil, errors.New("hostile: no memory section")
	}
	return mem, nil
}

// Segment returns the segment after state (the next sequence number, the
// state's checksum as its base) holding body.
func Segment(state []byte, body []byte) ([]byte, error) {
	ps, err := Pieces(state)
	if err != nil {
		return nil, err
	}
	last := ps[len(ps)-1]
	return Piece('S', binary.LittleEndian.Uint32(last[12:])+1, Sum(state), body), nil
}

// EmptySegments returns state followed by n segments that change nothing,
// each chained to the piece before it.
func EmptySegments(state []byte, n int) ([]byte, error) {
	out := append([]byte(nil), state...)
	for range n {
		seg, err := Segment(out, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, seg...)
	}
	return out, nil
}

// AvoidEverything rewrites a memory section so that every preference chunk
// says the user avoids it, at strength 1: the forgery of issue 22's first
// finding, sent as a segment of a state the server sealed.
func AvoidEverything(mem []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(mem, &m); err != nil {
		return nil, err
	}
	var chunks []map[string]json.RawMessage
	if err := json.Unmarshal(m["chunks"], &chunks); err != nil {
		return nil, err
	}
	if len(chunks) == 0 {
		return nil, errors.New("hostile: the memory has no chunk to flip")
	}
	for _, c := range chunks {
		c["polarity"], c["strength"] = json.RawMessage(`"avoids"`), json.RawMessage(`1`)
	}
	var err error
	if m["chunks"], err = json.Marshal(chunks); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// UnusedVocabulary returns a base holding mem and declaring words content
// words that no unit uses, each in seven bytes (the token "a", again and
// again): issue 22's third finding, a 1,000,000-word vocabulary that packs
// into about 33 kB.
func UnusedVocabulary(mem []byte, words int) []byte {
	u := []byte{0} // nothing removed
	u = binary.AppendUvarint(u, uint64(words))
	for range words {
		// "a", a new word spelled as the token, a new term cut by 0 bytes
		// with no suffix, the vector of the table's word of rank 0.
		u = append(u, 1, 'a', 1<<4, 0, 0, 0, 1)
	}
	u = append(u, 0, 0, 0, 0, 0, 0, 0) // no unit, six empty dictionaries
	return Piece('B', 0, 0, append(Section('M', mem), Section('U', u)...))
}

// Vocabulary returns a base holding mem and units whose texts use words
// distinct content words, 1,000 to a unit: a vocabulary that every check of
// the format passes, as small as it can be written (about 13 bytes a word).
func Vocabulary(mem []byte, words int) []byte {
	u := []byte{0}
	u = binary.AppendUvarint(u, uint64(words))
	for i := range words {
		tok := " w" + strconv.FormatInt(int64(i), 36)
		u = binary.AppendUvarint(u, uint64(len(tok)))
		u = append(u, tok...)
		u = append(u, 1<<4, 0, 0, 0, 1) // a new word, a new term, rank 0
	}
	const perUnit = 1000
	units := (words + perUnit - 1) / perUnit
	u = binary.AppendUvarint(u, uint64(units))
	u = append(u, 1, 1, 's', 0, 0, 0, 0, 0) // one session "s"; no date, time, speaker, user, kind
	prev := ""
	for k := range units {
		id := "u" + strconv.Itoa(k)
		p := 0
		for p < len(prev) && p < len(id) && prev[p] == id[p] {
			p++
		}
		u = binary.AppendUvarint(u, uint64(p))
		u = binary.AppendUvarint(u, uint64(len(id)-p))
		u = append(u, id[p:]...)
		prev = id
	}
	u = append(u, make([]byte, 6*units)...) // every column 0
	for k := range units {
		for i := k * perUnit; i < min(words, (k+1)*perUnit); i++ {
			u = appendTokenID(u, uint64(i)+1)
		}
		u = append(u, 0)
	}
	return Piece('B', 0, 0, append(Section('M', mem), Section('U', u)...))
}

// appendTokenID writes a token id + 1 as a unit's text does (pkg/slate's
// wire.go): one byte below 0xE0, two bytes with a lead byte up to 0xFE,
// else 0xFF and a uvarint.
func appendTokenID(b []byte, v uint64) []byte {
	const tok1, tok2 = 0xE0, 0xE0 + (0xFF-0xE0)<<8
	switch {
	case v < tok1:
		return append(b, byte(v))
	case v < tok2:
		m := v - tok1
		return append(b, byte(tok1+(m>>8)), byte(m))
	}
	return binary.AppendUvarint(append(b, 0xFF), v-tok2)
}

// RewriteVectors returns a one-piece state (a base) with the analysis of
// its words forged: every word whose vector is the table's word of rank r
// gets the vector of rank r+1 instead. Its texts, and so its JSON form, are
// unchanged, and its checksum is recomputed: issue 22's fourth finding,
// which left a warm instance holding the forged analysis under the tag of
// the genuine JSON document.
func RewriteVectors(state []byte) ([]byte, error) {
	ps, err := Pieces(state)
	if err != nil || len(ps) != 1 {
		return nil, errors.New("hostile: RewriteVectors takes a base alone")
	}
	tags, cs := sections(ps[0])
	var body []byte
	changed := 0
	for i, t := range tags {
		c := cs[i]
		if t == 'U' {
			if c, changed, err = rewriteSources(c, vector.Default().Len()); err != nil {
				return nil, err
			}
		}
		body = append(body, Section(t, c)...)
	}
	if changed == 0 {
		return nil, errors.New("hostile: no word's vector comes from the table")
	}
	return Piece('B', 0, 0, body), nil
}

// rewriteSources rewrites a base's units section, moving every table
// vector source to the next rank (modulo the table's words).
func rewriteSources(u []byte, tableLen int) ([]byte, int, error) {
	off := 0
	fail := errors.New("hostile: malformed units section")
	uv := func() (uint64, error) {
		v, n := binary.Uvarint(u[off:])
		if n <= 0 {
			return 0, fail
		}
		off += n
		return v, nil
	}
	skip := func() error {
		n, err := uv()
		if err != nil || n > uint64(len(u)-off) {
			return fail
		}
		off += int(n)
		return nil
	}
	if v, err := uv(); err != nil || v != 0 {
		return nil, 0, fmt.Errorf("hostile: a base removes nothing: %v", err)
	}
	nt, err := uv()
	if err != nil {
		return nil, 0, err
	}
	out := append([]byte(nil), u[:off]...)
	changed := 0
	for range nt {
		start := off
		if err := skip(); err != nil {
			return nil, 0, err
		}
		code, err := uv()
		if err != nil {
			return nil, 0, err
		}
		if w := code >> 4; w == 1 || w == 2 {
			if w == 2 {
				if err := skip(); err != nil {
					return nil, 0, err
				}
			}
			tc, err := uv()
			if err != nil {
				return nil, 0, err
			}
			if tc == 0 {
				if _, err := uv(); err != nil {
					return nil, 0, err
				}
				if err := skip(); err != nil {
					return nil, 0, err
				}
			}
			out = append(out, u[start:off]...)
			vc, err := uv()
			if err != nil {
				return nil, 0, err
			}
			switch {
			case vc == 0:
				vs := off
				d, err := uv()
				if err != nil {
					return nil, 0, err
				}
				for range d {
					if _, n := binary.Varint(u[off:]); n <= 0 {
						return nil, 0, fail
					} else {
						off += n
					}
				}
				out = append(binary.AppendUvarint(out, 0), u[vs:off]...)
			default:
				rank := (vc - 1) / 2
				rank = (rank + 1) % uint64(tableLen)
				out = binary.AppendUvarint(out, 1+2*rank+(1-vc%2))
				changed++
			}
			continue
		}
		out = append(out, u[start:off]...)
	}
	return append(out, u[off:]...), changed, nil
}

// UnitSegments returns state followed by n segments that each add one unit
// ("x0", "x1", ... in session "x") whose text is the state's token 0, the
// most frequent of its base: issue 22's second finding, 2,000 small
// segments after a base of 20,000 units.
func UnitSegments(state []byte, n int) ([]byte, error) {
	out := append([]byte(nil), state...)
	for i := range n {
		id := "x" + strconv.Itoa(i)
		u := []byte{0, 0, 1, 1, 1, 'x', 0, 0, 0, 0, 0, 0}
		u = binary.AppendUvarint(u, uint64(len(id)))
		u = append(u, id...)
		u = append(u, 0, 0, 0, 0, 0, 0, 1, 0)
		seg, err := Segment(out, Section('U', u))
		if err != nil {
			return nil, err
		}
		out = append(out, seg...)
	}
	return out, nil
}
