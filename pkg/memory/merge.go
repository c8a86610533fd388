package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Duplicates is the LLM-free merge detector. Within each category and
// polarity it compares chunks by the terms of their keys and aliases (stop
// words removed): two chunks are near-duplicates when one's terms contain the
// other's ("mario" and "super mario") or when their Jaccard overlap is at
// least Config.MergeJaccard. The strongest chunk of a group (then the oldest)
// survives and absorbs its near-duplicates. It returns one merge op per group,
// survivor first, with its reason. Cost O(c²) term-set comparisons for c
// chunks in one category.
func Duplicates(s *State) []Op {
	type group struct{ cat, pol string }
	var groups []group
	for _, c := range s.Chunks {
		if c.Stated {
			continue // the user's own words: never merged away
		}
		if g := (group{c.Category, c.Polarity}); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	var ops []Op
	for _, g := range groups {
		var cs []Chunk
		for _, c := range s.Chunks {
			if c.Category == g.cat && c.Polarity == g.pol && !c.Stated {
				cs = append(cs, c)
			}
		}
		slices.SortStableFunc(cs, func(a, b Chunk) int {
			if c := cmp.Compare(b.Strength, a.Strength); c != 0 {
				return c
			}
			if c := cmp.Compare(a.FirstSeen, b.FirstSeen); c != 0 {
				return c
			}
			return idNumber(a.ID, 'c') - idNumber(b.ID, 'c')
		})
		absorbed := map[string]bool{}
		for i, a := range cs {
			if absorbed[a.ID] {
				continue
			}
			ids := []string{a.ID}
			var why []string
			for _, b := range cs[i+1:] {
				if absorbed[b.ID] {
					continue
				}
				if how := similar(a, b, s.Config.MergeJaccard); how != "" {
					ids = append(ids, b.ID)
					absorbed[b.ID] = true
					why = append(why, fmt.Sprintf("%q (%s)", b.Key, how))
				}
			}
			if len(ids) > 1 {
				ops = append(ops, Op{Op: "merge", Chunks: ids, Reason: fmt.Sprintf(
					"near-duplicates in %s (%d/%d chunks): %q absorbs %s",
					g.cat, s.categoryCount(g.cat), s.Config.KCat, a.Key, strings.Join(why, ", "))})
			}
		}
	}
	return ops
}

// similar says why a and b are near-duplicates, or "" when they are not.
func similar(a, b Chunk, threshold float64) string {
	ta, tb := chunkTerms(a), chunkTerms(b)
	if len(ta) == 0 || len(tb) == 0 {
		return ""
	}
	inter := 0
	for w := range ta {
		if tb[w] {
			inter++
		}
	}
	switch j := float64(inter) / float64(len(ta)+len(tb)-inter); {
	case inter == len(ta) || inter == len(tb):
		return "one contains the other"
	case j >= threshold:
		return fmt.Sprintf("term overlap %.2f, threshold %s", j, fmtStrength(threshold))
	}
	return ""
}

func chunkTerms(c Chunk) map[string]bool {
	return termSet(strings.Join(append([]string{c.Key}, c.Aliases...), " "))
}

// Forgettable returns a forget op, with its reason, for every chunk that
// meets the forget rule (strength at or below Config.ForgetThreshold with at
// least Config.ForgetMinEvidence evidence), in chunk order. Cost O(c).
func Forgettable(s *State) []Op {
	var ops []Op
	for _, c := range s.Chunks {
		if ok, rule := forgetRule(c, s.Config); ok && !c.Stated {
			ops = append(ops, Op{Op: "forget", Chunk: c.ID, Reason: rule})
		}
	}
	return ops
}
