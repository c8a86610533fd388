package rec

import (
	"math"

	"github.com/recmem/recmem/pkg/rank"
)

// Sign fixes the sign of some features' weights, so that the memory moves
// the ranking the way it says: a liking the memory holds (its chunks, its
// profile) never counts against an item (weight at or above 0), and what the
// user turned down (disliked_text) never counts for one (at or below 0).
// Left free, logs pull the other way: a dislike of a drama often goes with
// more dramas watched, and the chunks and the profile that repeats them are
// collinear, so one of the two may take a negative weight. LearnWeights projects
// these weights onto their sign after every step.
var Sign = map[string]float64{
	"disliked_text": -1,
	"memory_text":   1, "memory_dense": 1, "preference": 1, "profile_text": 1, "profile_dense": 1,
}

// LearnConfig sets the pairwise logistic regression of LearnWeights. Zero fields mean
// the defaults.
type LearnConfig struct {
	Iterations int     // full-batch gradient steps (default 400)
	LR         float64 // step size on standardized features (default 1)
	L2         float64 // L2 penalty (default 1e-4)
}

// LearnWeights fits the feature weights by pairwise logistic regression (RankNet
// with a linear scorer): over every case (a list of feature vectors, the
// target first) and every negative j, minimise
// ln(1 + exp(-w·(x_target - x_j))) + L2/2·|w|², on features standardized by
// their standard deviation over all candidates. It returns the weights and
// the scales (1/std). rank.Features that never vary are left out, so the ranker
// uses rank.DefaultWeights for them; text features left out get their default weight
// and history_text's scale, which has the same BM25 units. The weights of the
// features in Sign keep their sign (projected gradient). Deterministic;
// O(iterations · pairs · features).
func LearnWeights(cases [][][]float64, cfg LearnConfig) (weights, scales map[string]float64) {
	if cfg.Iterations == 0 {
		cfg.Iterations = 400
	}
	if cfg.LR == 0 {
		cfg.LR = 1
	}
	if cfg.L2 == 0 {
		cfg.L2 = 1e-4
	}
	nf := len(rank.Features)
	sum, sq := make([]float64, nf), make([]float64, nf)
	n := 0.0
	for _, c := range cases {
		for _, v := range c {
			for f := range nf {
				sum[f] += v[f]
				sq[f] += v[f] * v[f]
			}
			n++
		}
	}
	scale := make([]float64, nf)
	active := make([]bool, nf)
	for f := range nf {
		if n == 0 {
			break
		}
		mean := sum[f] / n
		if v := sq[f]/n - mean*mean; v > 1e-12 {
			scale[f], active[f] = 1/math.Sqrt(v), true
		}
	}
	var diffs [][]float64
	for _, c := range cases {
		for j := 1; j < len(c); j++ {
			d := make([]float64, nf)
			for f := range nf {
				d[f] = (c[0][f] - c[j][f]) * scale[f]
			}
			diffs = append(diffs, d)
		}
	}
	w := make([]float64, nf)
	grad := make([]float64, nf)
	for range cfg.Iterations {
		clear(grad)
		for _, d := range diffs {
			z := 0.0
			for f := range nf {
				z += w[f] * d[f]
			}
			g := -1 / (1 + math.Exp(z)) // d/dz ln(1+e^-z)
			for f := range nf {
				grad[f] += g * d[f]
			}
		}
		for f, name := range rank.Features {
			if active[f] {
				w[f] -= cfg.LR * (grad[f]/float64(max(1, len(diffs))) + cfg.L2*w[f])
				if Sign[name]*w[f] < 0 {
					w[f] = 0
				}
			}
		}
	}
	weights, scales = map[string]float64{}, map[string]float64{}
	for f, name := range rank.Features {
		if active[f] {
			weights[name], scales[name] = w[f], scale[f]
		}
	}
	if s, ok := scales["history_text"]; ok {
		for _, name := range []string{"memory_text", "instruction"} {
			if _, ok := scales[name]; !ok {
				weights[name], scales[name] = rank.DefaultWeights[name], s
			}
		}
	}
	return weights, scales
}
