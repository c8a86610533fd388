package cf

import (
	"math"
	"testing"
)

const eps = 1e-9

func TestRecencyScore(t *testing.T) {
	sim := func(i, j int) float64 { return float64(i + 1) } // 1, 2, 3 for items 0, 1, 2
	h := []int{0, 1, 2}
	tests := []struct {
		decay  float64
		window int
		want   float64
	}{
		{0.5, 0, 3 + 0.5*2 + 0.25*1},
		{0.5, 2, 3 + 0.5*2},
		{1, 1, 3},
	}
	for _, tt := range tests {
		if got := RecencyScore(sim, h, 9, tt.decay, tt.window); math.Abs(got-tt.want) > eps {
			t.Errorf("decay %v window %d: %v, want %v", tt.decay, tt.window, got, tt.want)
		}
	}
}
