package ident

import "testing"

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"u1", 256, ""},
		{"Ünïcode ok 🎮", 256, ""},
		{"", 256, "required"},
		{"abcd", 3, "longer than 3 bytes"},
		{"u\xff", 256, "invalid UTF-8 at byte 1 (ids are compared byte for byte and never repaired)"},
		{"u\xed\xa0\x80", 256, "invalid UTF-8 at byte 1 (ids are compared byte for byte and never repaired)"}, // a surrogate in UTF-8 form
		{"u\ufffd", 256, "contains U+FFFD at byte 1: the replacement character stands for invalid UTF-8 or a lone surrogate, which could make two ids one"},
		{"u1\x00", 256, "contains U+0000 (a control character) at byte 2"},
		{"a\tb", 256, "contains U+0009 (a control character) at byte 1"},
		{"a\u0085", 256, "contains U+0085 (a control character) at byte 1"},
		{"a\x7f", 256, "contains U+007F (a control character) at byte 1"},
	}
	for _, tt := range tests {
		got := ""
		if err := Check(tt.in, tt.max); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
