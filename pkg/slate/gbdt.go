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
// children side by side. Cost O(nodes).
func (m *Model) flatten() {
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
