package slate

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/vector"
)

// TestTokIDCode checks the 1-3 byte token id code at its boundaries, by
// hand: below 0xE0 one byte; then a lead byte from 0xE0 to 0xFE and a low
// byte (0xE0 + 31·256 = 8160 values); then 0xFF and a uvarint of the rest.
func TestTokIDCode(t *testing.T) {
	for _, c := range []struct {
		v    uint64
		want []byte
	}{
		{0, []byte{0x00}},
		{223, []byte{0xDF}},
		{224, []byte{0xE0, 0x00}},
		{224 + 255, []byte{0xE0, 0xFF}},
		{224 + 256, []byte{0xE1, 0x00}},
		{8159, []byte{0xFE, 0xFF}},
		{8160, []byte{0xFF, 0x00}},
		{8160 + 300, []byte{0xFF, 0xAC, 0x02}},
	} {
		got := appendTokID(nil, c.v)
		if !bytes.Equal(got, c.want) {
			t.Errorf("appendTokID(%d) = % x, want % x", c.v, got, c.want)
		}
		r := &reader{b: got}
		if v := r.tokID(field("t")); v != c.v || r.err != nil || r.off != len(got) {
			t.Errorf("tokID(% x) = %d, %v", got, v, r.err)
		}
	}
	r := &reader{b: []byte{0xE5}}
	if r.tokID(at{"units", 3, "text"}); r.err == nil || r.err.Error() != "units[3].text: truncated at byte 1" {
		t.Errorf("err = %v", r.err)
	}
}

// section writes a units section by hand: one token " hi" (a new word,
// its own term, with the vector code and counts given), then one unit
// whose text is the given token ids (written +1, then 0).
func section(vector []uint64, text ...uint64) []byte {
	b := []byte{0}             // nothing removed
	b = append(b, 1)           // one token
	b = appendString(b, " hi") // the token
	b = append(b, 1<<4)        // a new word, spelled as the token without its space
	b = append(b, 0, 0, 0)     // a new term: the word cut by 0 bytes, no suffix
	for _, v := range vector {
		b = binary.AppendUvarint(b, v)
	}
	b = append(b, 1) // one unit
	b = append(b, 1) // sessions: one
	b = appendString(b, "s")
	b = append(b, 0, 0, 0, 0, 0)    // no dates, times, speakers, users, kinds
	b = append(b, 0)                // id: shares 0 bytes...
	b = appendString(b, "u1")       // ...and is "u1"
	b = append(b, 0, 0, 0, 0, 0, 0) // session 0, no date, time, speaker, user, kind
	for _, v := range text {
		b = appendTokID(b, v+1)
	}
	return append(b, 0)
}

// TestReadRefuses reads hand-made sections with one fault each: the
// message names the field.
func TestReadRefuses(t *testing.T) {
	dim := uint64(vector.Default().Dim())
	hashed := append([]uint64{0, dim}, make([]uint64, dim)...)
	lim := Limits{Units: 10, TextBytes: 1 << 20}
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"a vocabulary index out of range", section([]uint64{1}, 0, 4), "units[0].text: vocabulary index 4 out of range (1 tokens)"},
		{"a vector of the wrong length", section([]uint64{0, dim - 1}, 0), "tokens[0].vector: 31 components, want 32 (a vector of the wrong length)"},
		{"a table rank out of range", section([]uint64{1 + 2*1_000_000}, 0), "tokens[0].vector: table rank 1000000 out of range"},
		{"a blank text", section([]uint64{1}), "units[0].text: missing"},
		{"bytes after the units", append(section(hashed, 0), 7), "1 bytes after the last unit"},
		{"truncated", section(hashed, 0)[:30], "tokens[0].vector[18]: malformed"},
	} {
		_, err := ReadBinary(c.b, lim)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// The same section without a fault reads.
	s, err := ReadBinary(section(hashed, 0, 0), lim)
	if err != nil {
		t.Fatal(err)
	}
	if u := s.Units()[0]; u.ID != "u1" || u.Text != " hi hi" || u.Session != "s" {
		t.Errorf("unit %+v", u)
	}
}
