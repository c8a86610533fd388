package slate

import (
	"bytes"
	"testing"
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
