package slate

import (
	"errors"
	"fmt"
	"math"
	"sort"
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

// GBDTOptions configure TrainGBDT. Zero fields mean the defaults.
type GBDTOptions struct {
	Features []string // default FeatureNames
	Trees    int      // default 120
	Depth    int      // default 3
	Rate     float64  // shrinkage, default 0.1
	Lambda   float64  // L2 on leaf values, default 1
	Bins     int      // quantile bins per feature, default 32
}

// TrainGBDT fits gradient-boosted regression trees to the logistic loss of
// "the candidate is evidence" (Newton leaf values, histogram splits on
// quantile bins; Friedman 2001, Chen and Guestrin 2016). It is deterministic.
// Cost O(trees · depth · rows · features).
func TrainGBDT(groups []Group, o GBDTOptions) (*Model, error) {
	feats := o.Features
	if len(feats) == 0 {
		feats = FeatureNames
	}
	if o.Trees == 0 {
		o.Trees = 120
	}
	if o.Depth == 0 {
		o.Depth = 3
	}
	if o.Rate == 0 {
		o.Rate = 0.1
	}
	if o.Lambda == 0 {
		o.Lambda = 1
	}
	if o.Bins == 0 {
		o.Bins = 32
	}
	m := &Model{Kind: "gbdt", Features: append([]string(nil), feats...)}
	if err := m.bind(); err != nil {
		return nil, err
	}
	nf := len(feats)
	var xs [][]float64
	var ys []float64
	for _, g := range groups {
		for _, c := range g.Cands {
			row := make([]float64, nf)
			for i, j := range m.idx {
				row[i] = c.X[j]
			}
			xs = append(xs, row)
			if g.Gold[c.ID] {
				ys = append(ys, 1)
			} else {
				ys = append(ys, 0)
			}
		}
	}
	n := len(xs)
	if n == 0 {
		return nil, errors.New("slate: no training candidates")
	}
	// Quantile thresholds and binned rows.
	cuts := make([][]float64, nf)
	bins := make([][]uint8, nf)
	for f := 0; f < nf; f++ {
		vals := make([]float64, n)
		for i := range xs {
			vals[i] = xs[i][f]
		}
		sort.Float64s(vals)
		var c []float64
		for b := 1; b < o.Bins; b++ {
			v := vals[b*n/o.Bins]
			if v > vals[0] && (len(c) == 0 || v > c[len(c)-1]) {
				c = append(c, v)
			}
		}
		cuts[f] = c
		bins[f] = make([]uint8, n)
		for i := range xs {
			bins[f][i] = uint8(sort.Search(len(c), func(k int) bool { return c[k] > xs[i][f] }))
		}
	}
	var pos float64
	for _, y := range ys {
		pos += y
	}
	p0 := (pos + 1) / (float64(n) + 2)
	m.Bias = math.Log(p0 / (1 - p0))
	f := make([]float64, n)
	for i := range f {
		f[i] = m.Bias
	}
	g := make([]float64, n)
	h := make([]float64, n)
	for t := 0; t < o.Trees; t++ {
		for i := range f {
			p := 1 / (1 + math.Exp(-f[i]))
			g[i] = p - ys[i]
			h[i] = max(p*(1-p), 1e-6)
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		tr := &Tree{}
		grow(tr, rows, 0, o, cuts, bins, g, h)
		for i := range tr.Value {
			tr.Value[i] *= o.Rate
		}
		for i := range xs {
			j := 0
			for tr.Feature[j] >= 0 {
				if xs[i][tr.Feature[j]] < tr.Threshold[j] {
					j = tr.Left[j]
				} else {
					j = tr.Right[j]
				}
			}
			f[i] += tr.Value[j]
		}
		m.Trees = append(m.Trees, *tr)
	}
	return m, nil
}

// grow adds the node for rows to tr and returns its index.
func grow(tr *Tree, rows []int, depth int, o GBDTOptions, cuts [][]float64, bins [][]uint8, g, h []float64) int {
	id := len(tr.Feature)
	tr.Feature = append(tr.Feature, -1)
	tr.Threshold = append(tr.Threshold, 0)
	tr.Left = append(tr.Left, 0)
	tr.Right = append(tr.Right, 0)
	var G, H float64
	for _, i := range rows {
		G += g[i]
		H += h[i]
	}
	tr.Value = append(tr.Value, -G/(H+o.Lambda))
	if depth >= o.Depth || len(rows) < 40 {
		return id
	}
	bestGain, bestF, bestB := 1e-6, -1, 0
	parent := G * G / (H + o.Lambda)
	hg := make([]float64, o.Bins+1)
	hh := make([]float64, o.Bins+1)
	for f := range cuts {
		if len(cuts[f]) == 0 {
			continue
		}
		clear(hg)
		clear(hh)
		bf := bins[f]
		for _, i := range rows {
			hg[bf[i]] += g[i]
			hh[bf[i]] += h[i]
		}
		var gl, hl float64
		for b := 0; b < len(cuts[f]); b++ {
			gl += hg[b]
			hl += hh[b]
			gr, hr := G-gl, H-hl
			if hl < 1 || hr < 1 {
				continue
			}
			if gain := gl*gl/(hl+o.Lambda) + gr*gr/(hr+o.Lambda) - parent; gain > bestGain {
				bestGain, bestF, bestB = gain, f, b
			}
		}
	}
	if bestF < 0 {
		return id
	}
	var left, right []int
	for _, i := range rows {
		if int(bins[bestF][i]) <= bestB {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	tr.Feature[id] = bestF
	tr.Threshold[id] = cuts[bestF][bestB]
	tr.Value[id] = 0
	l := grow(tr, left, depth+1, o, cuts, bins, g, h)
	r := grow(tr, right, depth+1, o, cuts, bins, g, h)
	tr.Left[id], tr.Right[id] = l, r
	return id
}

// TrainEnsemble fits the pairwise (or pointwise) linear model of o and
// boosted trees of g on the same groups and returns their rank-fusion
// ensemble (Model.ScoreAll).
func TrainEnsemble(groups []Group, o TrainOptions, g GBDTOptions) (*Model, error) {
	lin, err := Train(groups, o)
	if err != nil {
		return nil, err
	}
	if len(g.Features) == 0 {
		g.Features = o.Features
	}
	gb, err := TrainGBDT(groups, g)
	if err != nil {
		return nil, err
	}
	m := &Model{Kind: "ensemble", Parts: []Model{*lin, *gb}}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}
