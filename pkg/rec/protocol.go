package rec

import "github.com/recmem/recmem/pkg/dataset"

// NumCandidates is the paper's candidate list size: the target plus 9
// negatives.
const NumCandidates = 10

// Case is one evaluation case: a user's history, the held-out target and the
// candidates to rank (target first, then the negatives in listed order).
type Case struct {
	User       string
	History    []int
	Target     int
	Candidates []int
	Ratings    []int   // aligned with History when the data set has ratings
	Times      []int64 // aligned with History when the data set has times
}

// Positive returns the history without its negative ratings (1 or 2): the
// collaborative evidence of a case.
func (c Case) Positive() []int {
	if c.Ratings == nil {
		return c.History
	}
	out := make([]int, 0, len(c.History))
	for k, it := range c.History {
		if c.Ratings[k] > 2 {
			out = append(out, it)
		}
	}
	return out
}

// Candidates builds the candidate list of the paper's protocol: the target,
// then the first n-1 listed random items that are neither the target nor in
// the history (nor already taken). It returns nil when the target appears in
// the random list (such users are skipped) or when too few items qualify.
// O(len(history) + len(random)).
func Candidates(target int, history, random []int, n int) []int {
	seen := make(map[int]bool, len(history)+n)
	for _, h := range history {
		seen[h] = true
	}
	for _, r := range random {
		if r == target {
			return nil
		}
	}
	out := []int{target}
	seen[target] = true
	for _, r := range random {
		if len(out) == n {
			break
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	if len(out) < n {
		return nil
	}
	return out
}

// Cases returns the evaluation cases of seqs for the users that have a random
// line, in the order of seqs, and the number of users skipped because their
// target is in their random line (or too few negatives qualify). At most
// limit cases are returned when limit > 0.
func Cases(seqs []dataset.Sequence, random map[string][]int, limit int) (cases []Case, skipped int) {
	for _, s := range seqs {
		r, ok := random[s.User]
		if !ok {
			continue
		}
		c := Candidates(s.Target, s.History, r, NumCandidates)
		if c == nil {
			skipped++
			continue
		}
		cases = append(cases, Case{User: s.User, History: s.History, Target: s.Target, Candidates: c, Ratings: s.Ratings, Times: s.Times})
		if limit > 0 && len(cases) == limit {
			break
		}
	}
	return cases, skipped
}

// TargetRank returns the 0-based rank of scores[t] among scores with ties
// broken against the target: the number of other entries scoring at least as
// much. O(n).
func TargetRank(scores []float64, t int) int {
	r := 0
	for i, s := range scores {
		if i != t && s >= scores[t] {
			r++
		}
	}
	return r
}
