package slate

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// reader reads the binary state's units section (binary.go): varints,
// strings and token ids, each checked against what is left, so that no
// count read from the input allocates more than the input could hold. The
// first error sticks; every read after it returns zero.
type reader struct {
	b   []byte
	off int
	err error
}

// at names a field of the section for errors, formatted only on failure:
// "units[12].text", "tokens[3].word", "sessions".
type at struct {
	list  string
	i     int // -1: not an element of a list
	field string
}

func (a at) String() string {
	s := a.list
	if a.i >= 0 {
		s += "[" + strconv.Itoa(a.i) + "]"
	}
	if a.field != "" {
		s += "." + a.field
	}
	return s
}

func field(name string) at { return at{name, -1, ""} }

func (r *reader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, a...)
	}
}

// uvarint reads an unsigned varint; where names the field for errors.
func (r *reader) uvarint(where at) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("%s: truncated or malformed number at byte %d", where, r.off)
		return 0
	}
	r.off += n
	return v
}

// count reads a count of entries that take at least one byte each, refusing
// one larger than the bytes left or than max.
func (r *reader) count(where at, max int) int {
	v := r.uvarint(where)
	if r.err != nil {
		return 0
	}
	if v > uint64(len(r.b)-r.off) || v > uint64(max) {
		r.fail("%s: count %d is more than the section holds", where, v)
		return 0
	}
	return int(v)
}

// index reads a uvarint that must be below n.
func (r *reader) index(where at, n int) int {
	v := r.uvarint(where)
	if r.err == nil && v >= uint64(n) {
		r.fail("%s: index %d out of range (%d entries)", where, v, n)
		return 0
	}
	return int(v)
}

// bytes reads a length and that many bytes (a slice of the input).
func (r *reader) bytes(where at) []byte {
	n := r.uvarint(where)
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.off) {
		r.fail("%s: %d bytes, more than are left", where, n)
		return nil
	}
	b := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

// str reads a string of valid UTF-8 (every string of a state is: the JSON
// form could not hold it otherwise), non-empty when nonEmpty.
func (r *reader) str(where at, nonEmpty bool) string {
	b := r.bytes(where)
	if r.err != nil {
		return ""
	}
	if nonEmpty && len(b) == 0 {
		r.fail("%s: empty", where)
		return ""
	}
	if !utf8.Valid(b) {
		r.fail("%s: not valid UTF-8", where)
		return ""
	}
	return string(b)
}

// Token ids in a unit's text are written one to three bytes each, with the
// most frequent (the lowest ids) in one byte: v < tok1 is the byte itself;
// a lead byte from tok1 to 0xFE carries the high bits of a two-byte id;
// 0xFF is followed by a uvarint. 0 ends a unit's text, so a token id is
// written as id+1.
const (
	tok1    = 0xE0
	tok2    = tok1 + (0xFF-tok1)<<8
	tokLong = 0xFF
)

func appendTokID(b []byte, v uint64) []byte {
	switch {
	case v < tok1:
		return append(b, byte(v))
	case v < tok2:
		m := v - tok1
		return append(b, byte(tok1+(m>>8)), byte(m))
	}
	return binary.AppendUvarint(append(b, tokLong), v-tok2)
}

// tokID reads a value written by appendTokID.
func (r *reader) tokID(where at) uint64 {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail("%s: truncated at byte %d", where, r.off)
		return 0
	}
	c := uint64(r.b[r.off])
	r.off++
	switch {
	case c < tok1:
		return c
	case c < tokLong:
		if r.off >= len(r.b) {
			r.fail("%s: truncated at byte %d", where, r.off)
			return 0
		}
		v := tok1 + ((c-tok1)<<8 | uint64(r.b[r.off]))
		r.off++
		return v
	}
	v := r.uvarint(where)
	if v > 1<<40 {
		r.fail("%s: token id out of range", where)
		return 0
	}
	return tok2 + v
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// dict numbers the distinct values of a column from 1 in order of first
// use (0 is the empty value), remembering the last value asked for, which
// is most often the next one too.
type dict struct {
	ids    map[string]uint32
	list   []string
	last   string
	lastID uint32
}

func (d *dict) id(v string) uint32 {
	if v == "" {
		return 0
	}
	if d.lastID > 0 && v == d.last {
		return d.lastID
	}
	if d.ids == nil {
		d.ids = map[string]uint32{}
	}
	id, ok := d.ids[v]
	if !ok {
		d.list = append(d.list, v)
		id = uint32(len(d.list))
		d.ids[v] = id
	}
	d.last, d.lastID = v, id
	return id
}

func (d *dict) append(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(d.list)))
	for _, v := range d.list {
		b = appendString(b, v)
	}
	return b
}

// readDict reads a dict's values: index 0 is "", then the values.
func (r *reader) readDict(where at) []string {
	n := r.count(where, 1<<30)
	out := make([]string, 1, n+1)
	for i := range n {
		out = append(out, r.str(at{where.list, i, ""}, true))
	}
	return out
}
