package rank

import (
	"math"
	"testing"
)

// TestRound6NoNegativeZero: a score that rounds to zero from below is 0, not
// -0 (issue 17, item 10).
func TestRound6NoNegativeZero(t *testing.T) {
	for _, x := range []float64{-1e-9, -4.9e-7, math.Copysign(0, -1)} {
		if r := round6(x); r != 0 || math.Signbit(r) {
			t.Errorf("round6(%g) = %g, sign bit %v", x, r, math.Signbit(r))
		}
	}
}
