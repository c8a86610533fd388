package cf

import (
	"math"
	"testing"
)

func TestExp(t *testing.T) {
	for _, x := range []float64{-30, -5.5, -1, -1e-9, 0, 0.3466, 1, 2.5, 20, 300} {
		if got, want := Exp(x), math.Exp(x); math.Abs(got-want) > 1e-14*want {
			t.Errorf("Exp(%v) = %v, want %v", x, got, want)
		}
	}
	if Sigmoid(0) != 0.5 || Exp(-800) != 0 || !math.IsInf(Exp(800), 1) {
		t.Error("edge cases")
	}
}
