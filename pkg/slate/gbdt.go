package slate

import (
	"errors"
	"fmt"
)

// Tree is one regression tree of a boosted model. Nodes are stored in an
// array; node i is a split on Feature < Threshold going to Left or Right, or a
// leaf when Feature is -1.
type Tree struct {
	Feature   []int     `json:"feature"` // index into Model.Features, -1 for a leaf
	Threshold []float64 `json:"threshold"`
	Left      []int     `json:"left"`
	Right     []int     `json:"right"`
	Value     []float64 `json:"value"` // leaf value (0 for splits)
}

func (t *Tree) validate(nf int) error {
	n := len(t.Feature)
	if n == 0 || len(t.Threshold) != n || len(t.Left) != n || len(t.Right) != n || len(t.Value) != n {
		return errors.New("arrays of unequal or zero length")
	}
	for i := 0; i < n; i++ {
		f := t.Feature[i]
		if f == -1 {
			continue
		}
		if f < 0 || f >= nf {
			return fmt.Errorf("node %d: feature %d out of range", i, f)
		}
		// Children come after their parent, so evaluation always ends.
		if t.Left[i] <= i || t.Right[i] <= i || t.Left[i] >= n || t.Right[i] >= n {
			return fmt.Errorf("node %d: bad children", i)
		}
	}
	return nil
}

func (t *Tree) eval(m *Model, x []float64) float64 {
	i := 0
	for t.Feature[i] >= 0 {
		if x[m.idx[t.Feature[i]]] < t.Threshold[i] {
			i = t.Left[i]
		} else {
			i = t.Right[i]
		}
	}
	return t.Value[i]
}

// node is one node of a flattened tree: a split on x[feat] < thr going to
// kids (when true) or kids+1 (when not), indices into Model.nodes, or a leaf
// of value thr when feat is -1. The feature is already an index into
// FeatureNames and siblings are adjacent, so evaluation reads one array and
// picks a child without a branch.
type node struct {
	feat int32
	kids int32
	thr  float64
}

// flatten lays a validated gbdt's trees out in one node array, each split's
// children side by side, and, when no tree is deeper than maxHeapDepth, as
// perfect trees too (heapTrees). Cost O(nodes).
func (m *Model) flatten() {
	m.heap = newHeapTrees(m)
	m.nodes, m.roots = nil, nil
	for ti := range m.Trees {
		t := &m.Trees[ti]
		m.roots = append(m.roots, int32(len(m.nodes)))
		// Breadth first: from[i] is the tree node placed at nodes[base+i].
		base := len(m.nodes)
		from := []int{0}
		for i := 0; i < len(from); i++ {
			j := from[i]
			if t.Feature[j] < 0 {
				m.nodes = append(m.nodes, node{feat: -1, thr: t.Value[j]})
				continue
			}
			m.nodes = append(m.nodes, node{feat: int32(m.idx[t.Feature[j]]), kids: int32(base + len(from)), thr: t.Threshold[j]})
			from = append(from, t.Left[j], t.Right[j])
		}
	}
}

// evalFlat is Tree.eval on the flattened tree rooted at r.
func (m *Model) evalFlat(r int32, x []float64) float64 {
	ns := m.nodes
	n := ns[r]
	for n.feat >= 0 {
		n = ns[n.kids+b2i(!(x[n.feat] < n.thr))]
	}
	return n.thr
}

// b2i is 1 for true and 0 for false; the compiler makes it a flag set, not a
// branch, so that a tree walk does not depend on predicting its comparisons.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// maxHeapDepth bounds the depth of trees laid out as perfect trees: a
// shallow leaf is copied to every leaf below it, 2^depth leaves a tree.
const maxHeapDepth = 6

// heapTrees are a gbdt's trees laid out as perfect binary trees of one depth
// d, in heap order: node i's children are 2i+1 (when x[feature] <
// threshold) and 2i+2, so a walk is d steps of arithmetic without a branch
// or a loop per level (d = 3, the trained models' depth, is written out).
// A leaf shallower than d becomes a split whose every descendant leaf holds
// its value, whatever the comparisons say, so every walk ends at the leaf
// Tree.eval reaches.
type heapTrees struct {
	depth int
	feat  []int32   // per tree, 2^d - 1 splits: the feature's position in FeatureNames
	thr   []float64 // the splits' thresholds
	leaf  []float64 // per tree, 2^d leaf values
}

// newHeapTrees lays out m's trees, or returns nil when one is deeper than
// maxHeapDepth. Cost O(trees · 2^depth).
func newHeapTrees(m *Model) *heapTrees {
	d := 0
	for ti := range m.Trees {
		d = max(d, m.Trees[ti].depth(0))
	}
	if d > maxHeapDepth {
		return nil
	}
	inner, leaves := 1<<d-1, 1<<d
	h := &heapTrees{depth: d, feat: make([]int32, inner*len(m.Trees)), thr: make([]float64, inner*len(m.Trees)),
		leaf: make([]float64, leaves*len(m.Trees))}
	for ti := range m.Trees {
		h.place(m, &m.Trees[ti], 0, 0, ti*inner, ti*leaves)
	}
	return h
}

// depth is the depth of the subtree at node i (0 for a leaf).
func (t *Tree) depth(i int) int {
	if t.Feature[i] < 0 {
		return 0
	}
	return 1 + max(t.depth(t.Left[i]), t.depth(t.Right[i]))
}

// place lays tree node j at heap node i of the tree whose splits start at
// base and leaves at lbase.
func (h *heapTrees) place(m *Model, t *Tree, j, i, base, lbase int) {
	inner := 1<<h.depth - 1
	if i >= inner { // a leaf of the perfect tree
		h.leaf[lbase+i-inner] = t.Value[j]
		return
	}
	if t.Feature[j] < 0 {
		// A leaf above the bottom: both sides lead to its value.
		h.feat[base+i], h.thr[base+i] = 0, 0
		h.place(m, t, j, 2*i+1, base, lbase)
		h.place(m, t, j, 2*i+2, base, lbase)
		return
	}
	h.feat[base+i], h.thr[base+i] = int32(m.idx[t.Feature[j]]), t.Threshold[j]
	h.place(m, t, t.Left[j], 2*i+1, base, lbase)
	h.place(m, t, t.Right[j], 2*i+2, base, lbase)
}

// addAll adds every tree's value to out[k] for each feature vector xs[k],
// tree by tree in order (each sum in the order of Score). Cost O(trees ·
// len(xs) · depth).
func (h *heapTrees) addAll(xs [][]float64, out []float64) {
	inner, leaves := 1<<h.depth-1, 1<<h.depth
	trees := len(h.leaf) / leaves
	for t := 0; t < trees; t++ {
		f := h.feat[t*inner : (t+1)*inner : (t+1)*inner]
		th := h.thr[t*inner : (t+1)*inner : (t+1)*inner]
		lv := h.leaf[t*leaves : (t+1)*leaves : (t+1)*leaves]
		if h.depth == 3 {
			f3, t3, l3 := (*[7]int32)(f), (*[7]float64)(th), (*[8]float64)(lv)
			for k, x := range xs {
				i := 1 + b2i(!(x[f3[0]] < t3[0]))
				i = 2*i + 1 + b2i(!(x[f3[i]] < t3[i]))
				i = 2*i + 1 + b2i(!(x[f3[i]] < t3[i]))
				out[k] += l3[i-7]
			}
			continue
		}
		for k, x := range xs {
			i := int32(0)
			for range h.depth {
				i = 2*i + 1 + b2i(!(x[f[i]] < th[i]))
			}
			out[k] += lv[int(i)-inner]
		}
	}
}
