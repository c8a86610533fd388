package slate

import (
	"math"
	"math/rand"
	"testing"
)

// mathRound6 is round6 as math.Round writes it.
func mathRound6(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	if r := math.Round(x*1e6) / 1e6; r != 0 {
		return r
	}
	return 0
}

// TestRound6MatchesMathRound holds round6 to math.Round, bit for bit, on
// random bit patterns, ordinary values, values a half away from a multiple
// of 1e-6 and their neighbours.
func TestRound6MatchesMathRound(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 400000; i++ {
		var x float64
		switch i % 4 {
		case 0:
			x = math.Float64frombits(r.Uint64())
		case 1:
			x = r.NormFloat64()
		case 2:
			x = (float64(r.Intn(4000000)-2000000) + 0.5) / 1e6
		case 3:
			x = math.Nextafter((float64(r.Intn(4000000)-2000000)+0.5)/1e6, math.Inf(r.Intn(2)*2-1))
		}
		a, b := round6(x), mathRound6(x)
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("%v: %v vs %v", x, a, b)
		}
	}
}
