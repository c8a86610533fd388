package slate

import "sort"

// greedy is the slate fill: units in rank order, each taken if it still fits
// in the budget (one that does not fit is skipped, and smaller ones after it
// may still be taken) and its line is not one taken already. tokens holds
// each unit's size in rank order and line(i) the key of its rendered line
// (lineKey; 0: unknown, never taken for another's), asked only of a unit
// that fits; greedy returns the indexes taken, in rank order, and the
// tokens they use. O(n).
func greedy(tokens []int, line func(int) uint64, budget int) ([]int, int) {
	var taken []int
	var seen map[uint64]bool
	used := 0
	for i, t := range tokens {
		if used+t > budget {
			continue
		}
		if k := line(i); k != 0 {
			if seen[k] {
				continue
			}
			if seen == nil {
				seen = map[uint64]bool{}
			}
			seen[k] = true
		}
		used += t
		taken = append(taken, i)
	}
	return taken, used
}

// lineKey is a 64-bit FNV-1a hash of the line e enters the context as
// (Unit.Render: date, or time without one, speaker and the text's tokens):
// two units with the same key say the same thing on the same date, and a
// slate holds only the first. Cost O(tokens).
func lineKey(e *entry) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	str := func(s string) {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * prime
		}
		h = (h ^ 0xff) * prime // a separator no UTF-8 byte equals
	}
	if e.u.Date != "" {
		str(e.u.Date)
	} else {
		str(e.u.Time)
	}
	str(e.u.Speaker)
	for _, t := range e.toks {
		for k := 0; k < 4; k++ {
			h = (h ^ uint64(byte(t>>(8*k)))) * prime
		}
	}
	return max(h, 1) // 0 means unknown
}

// Fill is Select's fill for a pool scored outside Select (evaluation,
// training): candidates by score, best first, ties by Key, filled greedily
// under the budget, a unit whose Line equals a taken one's skipped. It
// returns the chosen IDs in rank order and their tokens. O(n log n).
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
	taken, used := greedy(tokens, func(k int) uint64 { return cs[idx[k]].Line }, budget)
	ids := make([]string, len(taken))
	for k, r := range taken {
		ids[k] = cs[idx[r]].ID
	}
	return ids, used
}
