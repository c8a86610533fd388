package memory

import (
	"math"
	"testing"
)

func TestRoundStrength(t *testing.T) {
	// Variables, not constants: Go evaluates constant expressions exactly.
	s7, s8, s1, plus, minus := 0.7, 0.8, 1.0, 0.1, 0.2
	if s7-minus-minus == 0.3 {
		t.Fatal("float64 arithmetic is exact here; the test no longer shows why rounding is needed")
	}
	cases := []struct {
		name string
		in   float64
		want float64
	}{
		{"demote once", s7 - minus, 0.5},
		{"demote twice", roundStrength(s7-minus) - minus, 0.3},
		{"demote twice unrounded", s7 - minus - minus, 0.3},
		{"boost", s8 + plus, 0.9},
		{"boost to one", roundStrength(s8+plus) + plus, 1},
		{"clamp above", s1 + plus, 1},
		{"clamp below", plus - minus, 0},
		{"three decimals", 0.12345, 0.123},
		{"half up", 0.9995, 1},
		{"negative zero", math.Copysign(0, -1), 0},
	}
	for _, c := range cases {
		got := roundStrength(c.in)
		if got != c.want || math.Signbit(got) {
			t.Errorf("%s: roundStrength(%v) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
	if d := roundDelta(0.3 - roundStrength(s7-minus)); d != -0.2 {
		t.Errorf("roundDelta(0.3-0.5) = %v, want -0.2", d)
	}
	if d := roundDelta(0.5 - 0.5); math.Signbit(d) || d != 0 {
		t.Errorf("roundDelta(0) = %v, want 0", d)
	}
}
