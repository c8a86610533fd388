package slatelab

import (
	"errors"
	"fmt"
	"math"

	"github.com/recmem/recmem/pkg/slate"
)

// Group is the pool of one training question with its labels.
type Group struct {
	Cands []slate.Candidate
	Gold  map[string]bool
}

// TrainOptions configure training. Zero fields mean the documented defaults.
type TrainOptions struct {
	Features []string // subset of slate.FeatureNames (default: all)
	L2       float64  // ridge penalty on standardized weights (default 1)
	Pairwise bool     // fit on (evidence, non-evidence) pairs of one question instead of pointwise labels
	Iters    int      // Newton iterations (default 25)
}

// Train fits a linear slate.Model by Newton's method (iteratively reweighted least
// squares) on standardized features: a pointwise logistic regression of "the
// candidate is evidence", or with Pairwise a logistic regression on the
// feature differences of evidence and non-evidence pairs within a question
// (RankNet with a linear scorer). It is deterministic. Cost O(iters · rows ·
// features²).
func Train(groups []Group, o TrainOptions) (*slate.Model, error) {
	feats := o.Features
	if len(feats) == 0 {
		feats = slate.FeatureNames
	}
	l2, iters := o.L2, o.Iters
	if l2 == 0 {
		l2 = 1
	}
	if iters == 0 {
		iters = 25
	}
	m := &slate.Model{Kind: "linear", Features: append([]string(nil), feats...)}
	m.Mean = make([]float64, len(feats))
	m.Scale = make([]float64, len(feats))
	m.Weights = make([]float64, len(feats))
	for i := range m.Scale {
		m.Scale[i] = 1
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	idx, err := slate.FeatureIndex(m.Features)
	if err != nil {
		return nil, err
	}
	clear(m.Scale)
	// Standardization from all candidates.
	var rows int
	for _, g := range groups {
		for _, c := range g.Cands {
			rows++
			for i, j := range idx {
				m.Mean[i] += c.X[j]
			}
		}
	}
	if rows == 0 {
		return nil, errors.New("slate: no training candidates")
	}
	for i := range m.Mean {
		m.Mean[i] /= float64(rows)
	}
	for _, g := range groups {
		for _, c := range g.Cands {
			for i, j := range idx {
				d := c.X[j] - m.Mean[i]
				m.Scale[i] += d * d
			}
		}
	}
	for i := range m.Scale {
		m.Scale[i] = math.Sqrt(m.Scale[i] / float64(rows))
		if m.Scale[i] < 1e-9 {
			m.Scale[i] = 1
		}
	}
	z := func(c slate.Candidate) []float64 {
		v := make([]float64, len(idx)+1)
		for i, j := range idx {
			v[i] = (c.X[j] - m.Mean[i]) / m.Scale[i]
		}
		v[len(idx)] = 1
		return v
	}
	var xs [][]float64
	var ys []float64
	for _, g := range groups {
		if o.Pairwise {
			var pos, neg [][]float64
			for _, c := range g.Cands {
				if g.Gold[c.ID] {
					pos = append(pos, z(c))
				} else {
					neg = append(neg, z(c))
				}
			}
			for _, p := range pos {
				for _, n := range neg {
					d := make([]float64, len(p))
					for k := range p[:len(p)-1] {
						d[k] = p[k] - n[k]
					}
					xs = append(xs, d)
					ys = append(ys, 1)
				}
			}
			continue
		}
		for _, c := range g.Cands {
			xs = append(xs, z(c))
			if g.Gold[c.ID] {
				ys = append(ys, 1)
			} else {
				ys = append(ys, 0)
			}
		}
	}
	if len(xs) == 0 {
		return nil, errors.New("slate: no training pairs")
	}
	w, err := newton(xs, ys, l2, iters, o.Pairwise)
	if err != nil {
		return nil, err
	}
	copy(m.Weights, w[:len(idx)])
	if !o.Pairwise {
		m.Bias = w[len(idx)]
	}
	return m, nil
}

// newton maximizes the L2-penalized logistic log-likelihood. The last column
// is the intercept, not penalized (and fixed at 0 when noBias).
func newton(xs [][]float64, ys []float64, l2 float64, iters int, noBias bool) ([]float64, error) {
	d := len(xs[0])
	w := make([]float64, d)
	for it := 0; it < iters; it++ {
		g := make([]float64, d)
		h := make([][]float64, d)
		for i := range h {
			h[i] = make([]float64, d)
		}
		for r, x := range xs {
			var t float64
			for k, v := range x {
				t += w[k] * v
			}
			p := 1 / (1 + math.Exp(-t))
			ww := p * (1 - p)
			for a, va := range x {
				g[a] += (ys[r] - p) * va
				if va == 0 {
					continue
				}
				row := h[a]
				for b := a; b < d; b++ {
					row[b] += ww * va * x[b]
				}
			}
		}
		for a := 0; a < d; a++ {
			for b := 0; b < a; b++ {
				h[a][b] = h[b][a]
			}
		}
		for a := 0; a < d-1; a++ {
			g[a] -= l2 * w[a]
			h[a][a] += l2
		}
		if noBias {
			g[d-1] = 0
			for a := 0; a < d; a++ {
				h[a][d-1], h[d-1][a] = 0, 0
			}
			h[d-1][d-1] = 1
		} else {
			h[d-1][d-1] += 1e-9
		}
		step, err := solve(h, g)
		if err != nil {
			return nil, err
		}
		var norm float64
		for k := range w {
			w[k] += step[k]
			norm += step[k] * step[k]
		}
		if norm < 1e-16 {
			break
		}
	}
	return w, nil
}

// solve returns x with a·x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return nil, fmt.Errorf("slate: singular system at column %d", c)
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for k := r + 1; k < n; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x, nil
}
