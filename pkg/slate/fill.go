package slate

import "sort"

// greedy is the slate fill: units in rank order, each taken if it still fits
// in the budget (one that does not fit is skipped, and smaller ones after it
// may still be taken). tokens holds each unit's size in rank order; greedy
// returns the indexes taken, in rank order, and the tokens they use. O(n).
func greedy(tokens []int, budget int) ([]int, int) {
	var taken []int
	used := 0
	for i, t := range tokens {
		if used+t > budget {
			continue
		}
		used += t
		taken = append(taken, i)
	}
	return taken, used
}

// Fill is Select's fill for a pool scored outside Select (evaluation,
// training): candidates by score, best first, ties by Key, filled greedily
// under the budget. It returns the chosen IDs in rank order and their
// tokens. O(n log n).
func Fill(cs []Candidate, scores []float64, budget int) ([]string, int) {
	idx := make([]int, len(cs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if scores[i] != scores[j] {
			return scores[i] > scores[j]
		}
		return cs[i].Key < cs[j].Key
	})
	tokens := make([]int, len(idx))
	for k, i := range idx {
		tokens[k] = cs[i].Tokens
	}
	taken, used := greedy(tokens, budget)
	ids := make([]string, len(taken))
	for k, r := range taken {
		ids[k] = cs[idx[r]].ID
	}
	return ids, used
}
