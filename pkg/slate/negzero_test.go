package slate

import (
	"math"
	"strings"
	"testing"
)

// TestNoNegativeZero (issue 17, item 10): select_slate wrote "-0" for a
// score or contribution that rounded to zero from below.
func TestNoNegativeZero(t *testing.T) {
	for _, x := range []float64{-1e-9, -4.9e-7, math.Copysign(0, -1)} {
		if r := round6(x); r != 0 || math.Signbit(r) {
			t.Errorf("round6(%g) = %g (sign bit %v)", x, r, math.Signbit(r))
		}
	}
	res := Result{Ranker: "learned", Units: []Chosen{{ID: "a", Session: "s", Score: round6(-1e-9),
		Features: Values{{"bm25", round6(-2e-8), 1}}}}}
	b, err := res.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "-0") {
		t.Fatalf("output holds -0: %s", b)
	}
}
