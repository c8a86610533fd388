package slate

import "github.com/recmem/recmem/pkg/topk"

// rankDepth is how deep a ranked list goes: the fused lists and the rank
// features see the rankDepth best units of each list (or the pool size when
// larger), and a unit below that is unranked in it (no fusion term, rank
// feature 0). Every LoCoMo conversation is shorter, so training sees whole
// lists; a larger store ranks in O(units) plus O(depth · log depth) instead of
// sorting every list.
const rankDepth = 1024

// scored is a unit position with a score, for ranking.
type scored struct {
	score float64
	pos   int32
}

// before reports whether a ranks above b: by score, best first, ties in store
// order (insertion): a strict total order, since positions are unique.
func before(a, b scored) bool {
	return a.score > b.score || (a.score == b.score && a.pos < b.pos)
}

// rankOrder returns the positions of the k best scores among subset (every
// unit when nil), best first, ties in store order: the first k of the full
// ranking. Cost O(m + k log k) expected for m positions, O(m log m) at worst.
func rankOrder(score []float64, subset []int32, k int) []int32 {
	var xs []scored
	if subset == nil {
		xs = make([]scored, len(score))
		for i, v := range score {
			xs[i] = scored{v, int32(i)}
		}
	} else {
		xs = make([]scored, len(subset))
		for i, p := range subset {
			xs[i] = scored{score[p], p}
		}
	}
	if k < len(xs) {
		topk.Select(xs, k, before)
		xs = xs[:k]
	}
	topk.Sort(xs, before)
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = x.pos
	}
	return out
}
