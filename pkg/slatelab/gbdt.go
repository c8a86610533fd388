package slatelab

import (
	"errors"
	"math"
	"sort"

	"github.com/recmem/recmem/pkg/slate"
)

// GBDTOptions configure TrainGBDT. Zero fields mean the defaults.
type GBDTOptions struct {
	Features []string // default slate.FeatureNames
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
func TrainGBDT(groups []Group, o GBDTOptions) (*slate.Model, error) {
	feats := o.Features
	if len(feats) == 0 {
		feats = slate.FeatureNames
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
	m := &slate.Model{Kind: "gbdt", Features: append([]string(nil), feats...)}
	idx, err := slate.FeatureIndex(m.Features)
	if err != nil {
		return nil, err
	}
	nf := len(feats)
	var xs [][]float64
	var ys []float64
	for _, g := range groups {
		for _, c := range g.Cands {
			row := make([]float64, nf)
			for i, j := range idx {
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
		tr := &slate.Tree{}
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
	// Validate binds the features and flattens the trees for scoring.
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// grow adds the node for rows to tr and returns its index.
func grow(tr *slate.Tree, rows []int, depth int, o GBDTOptions, cuts [][]float64, bins [][]uint8, g, h []float64) int {
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
// ensemble (slate.Model.ScoreAll).
func TrainEnsemble(groups []Group, o TrainOptions, g GBDTOptions) (*slate.Model, error) {
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
	m := &slate.Model{Kind: "ensemble", Parts: []slate.Model{*lin, *gb}}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}
