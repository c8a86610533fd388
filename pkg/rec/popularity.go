package rec

// Popularity counts how often each of n items occurs in seqs. O(total length).
func Popularity(seqs [][]int, n int) []float64 {
	p := make([]float64, n)
	for _, s := range seqs {
		for _, it := range s {
			p[it]++
		}
	}
	return p
}

// RecentPopularity is popularity weighted by how close to the end of each
// sequence an item occurs: Σ over sequences of decay^d for an item d steps
// before the end, over the last window items (window ≤ 0 = all). In
// leave-one-out data the end of a history is the latest time, so this tracks
// what is popular now. O(total length).
func RecentPopularity(seqs [][]int, n, window int, decay float64) []float64 {
	p := make([]float64, n)
	for _, s := range seqs {
		w := 1.0
		for k := len(s) - 1; k >= 0; k-- {
			if window > 0 && len(s)-1-k >= window {
				break
			}
			p[s[k]] += w
			w *= decay
		}
	}
	return p
}
