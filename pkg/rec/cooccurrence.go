package rec

import "math"

// CoOccurrence returns the cosine item-item similarity of user-level
// co-occurrence: sim(i, j) = c(i, j) / sqrt(c(i) c(j)), where c(i, j) counts
// the sequences holding both i and j and c(i) those holding i. Items are
// counted once per sequence. O(Σ |s|²).
func CoOccurrence(seqs [][]int, n int) *Sparse {
	cnt := make([]float64, n)
	m := NewSparse(n)
	for _, s := range seqs {
		u := uniq(s)
		for _, i := range u {
			cnt[i]++
			for _, j := range u {
				if i != j {
					m.Add(i, j, 1)
				}
			}
		}
	}
	for i, row := range m.rows {
		for j, c := range row {
			row[j] = c / math.Sqrt(cnt[i]*cnt[j])
		}
	}
	return m
}

// Transitions returns the first-order transition probabilities between
// consecutive items, P(j | i) = t(i→j) / t(i→·), over the pairs
// (s[k], s[k+1]). O(total length).
func Transitions(seqs [][]int, n int) *Sparse {
	out := make([]float64, n)
	m := NewSparse(n)
	for _, s := range seqs {
		for k := 0; k+1 < len(s); k++ {
			if s[k] != s[k+1] {
				m.Add(s[k], s[k+1], 1)
				out[s[k]]++
			}
		}
	}
	for i, row := range m.rows {
		for j, c := range row {
			row[j] = c / out[i]
		}
	}
	return m
}

func uniq(s []int) []int {
	seen := make(map[int]bool, len(s))
	out := make([]int, 0, len(s))
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
