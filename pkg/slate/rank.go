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
// ranking. Cost O(m) expected for m positions (topk.Floats).
func rankOrder(score []float64, subset []int32, k int) []int32 {
	if subset == nil {
		return topk.Floats(score, nil, k)
	}
	vals := make([]float64, len(subset))
	for i, p := range subset {
		vals[i] = score[p]
	}
	out := topk.Floats(vals, subset, k)
	for i, q := range out {
		out[i] = subset[q]
	}
	return out
}
