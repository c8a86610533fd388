package cf

// Dot is the inner product of two equal-length vectors. O(len).
func Dot(a, b []float32) float64 {
	s := float32(0)
	for k := range a {
		s += float32(a[k] * b[k]) // the conversion forbids a fused multiply-add, so every host rounds alike
	}
	return float64(s)
}

// RecencyScore scores candidate c against a history (oldest first) through an
// item-item lookup: Σ_k decay^k · sim(h[len-1-k], c), over at most window
// recent items (window 0 = all). O(window).
func RecencyScore(sim func(i, j int) float64, history []int, c int, decay float64, window int) float64 {
	s, w := 0.0, 1.0
	for k := len(history) - 1; k >= 0; k-- {
		if window > 0 && len(history)-1-k >= window {
			break
		}
		s += float64(w * sim(history[k], c)) // no fused multiply-add
		w *= decay
	}
	return s
}
