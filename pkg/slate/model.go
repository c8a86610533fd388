package slate

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/recmem/recmem/pkg/topk"
)

// Model is a linear ranker over named features, each standardized:
//
//	score(x) = bias + Σ_i weight_i · (x_i - mean_i) / scale_i
//
// Training fits it as a logistic regression of "the unit is evidence"
// (TrainLogistic), so the score is a log-odds; selection only needs its order.
// A model names its features, so a model trained on a subset (an ablation)
// runs unchanged.
type Model struct {
	Kind     string    `json:"kind"` // "linear"
	Features []string  `json:"features"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"`
	Weights  []float64 `json:"weights"`
	Bias     float64   `json:"bias"`
	Trees    []Tree    `json:"trees,omitempty"` // kind "gbdt": score = bias + Σ trees
	Parts    []Model   `json:"parts,omitempty"` // kind "ensemble": rank fusion of linear and gbdt parts
	Note     string    `json:"note,omitempty"`
	idx      []int
	byName   []int   // positions in Features, in order of name (explanations list them so)
	nodes    []node  // a gbdt's trees flattened by Validate (nil: use Trees)
	roots    []int32 // each tree's root in nodes
	heap     *heapTrees
}

// Validate checks the model's shape and binds its features to FeatureNames.
func (m *Model) Validate() error {
	switch m.Kind {
	case "linear":
	case "ensemble":
		if len(m.Parts) == 0 {
			return errors.New("parts: none")
		}
		for i := range m.Parts {
			if m.Parts[i].Kind == "ensemble" {
				return fmt.Errorf("parts[%d]: an ensemble cannot nest", i)
			}
			if err := m.Parts[i].Validate(); err != nil {
				return fmt.Errorf("parts[%d].%w", i, err)
			}
		}
		return nil
	case "gbdt":
		if err := m.bind(); err != nil {
			return err
		}
		if len(m.Trees) == 0 {
			return errors.New("trees: none")
		}
		for i := range m.Trees {
			if err := m.Trees[i].validate(len(m.Features)); err != nil {
				return fmt.Errorf("trees[%d]: %w", i, err)
			}
		}
		m.flatten()
		return nil
	default:
		return fmt.Errorf("kind: want \"linear\", \"gbdt\" or \"ensemble\", got %q", m.Kind)
	}
	n := len(m.Features)
	if len(m.Mean) != n || len(m.Scale) != n || len(m.Weights) != n {
		return fmt.Errorf("features: %d names, %d means, %d scales, %d weights", n, len(m.Mean), len(m.Scale), len(m.Weights))
	}
	pos := map[string]int{}
	for i, f := range FeatureNames {
		pos[f] = i
	}
	idx := make([]int, n)
	for i, f := range m.Features {
		j, ok := pos[f]
		if !ok {
			return fmt.Errorf("features[%d]: unknown feature %q", i, f)
		}
		if m.Scale[i] <= 0 || math.IsNaN(m.Scale[i]) || math.IsInf(m.Weights[i], 0) || math.IsNaN(m.Weights[i]) {
			return fmt.Errorf("features[%d]: scale must be positive and weight finite", i)
		}
		idx[i] = j
	}
	m.idx = idx
	m.sortByName()
	return nil
}

// sortByName lists the positions of the model's features in order of name.
func (m *Model) sortByName() {
	m.byName = make([]int, len(m.Features))
	for i := range m.byName {
		m.byName[i] = i
	}
	slices.SortFunc(m.byName, func(a, b int) int { return strings.Compare(m.Features[a], m.Features[b]) })
}

// bind maps the model's feature names to positions in FeatureNames.
func (m *Model) bind() error {
	idx, err := FeatureIndex(m.Features)
	if err != nil {
		return err
	}
	m.idx = idx
	m.sortByName()
	return nil
}

// FeatureIndex returns the position in FeatureNames of each name, or an
// error naming the first unknown one. O(len(FeatureNames) + len(names)).
func FeatureIndex(names []string) ([]int, error) {
	pos := make(map[string]int, len(FeatureNames))
	for i, f := range FeatureNames {
		pos[f] = i
	}
	idx := make([]int, len(names))
	for i, f := range names {
		j, ok := pos[f]
		if !ok {
			return nil, fmt.Errorf("features[%d]: unknown feature %q", i, f)
		}
		idx[i] = j
	}
	return idx, nil
}

// Score is the model's score for a full feature vector (ordered as
// FeatureNames). Validate must have succeeded. Cost O(features).
func (m *Model) Score(x []float64) float64 {
	s := m.Bias
	if m.Kind == "gbdt" {
		if m.nodes != nil {
			for _, r := range m.roots {
				s += m.evalFlat(r, x)
			}
			return s
		}
		for i := range m.Trees {
			s += m.Trees[i].eval(m, x)
		}
		return s
	}
	// Four terms per loop iteration (Go's WebAssembly pays a dispatch per
	// iteration), summed in the same order.
	idx, w, mean, scale := m.idx, m.Weights, m.Mean, m.Scale
	i := 0
	for ; i+4 <= len(idx); i += 4 {
		s += w[i] * (x[idx[i]] - mean[i]) / scale[i]
		s += w[i+1] * (x[idx[i+1]] - mean[i+1]) / scale[i+1]
		s += w[i+2] * (x[idx[i+2]] - mean[i+2]) / scale[i+2]
		s += w[i+3] * (x[idx[i+3]] - mean[i+3]) / scale[i+3]
	}
	for ; i < len(idx); i++ {
		s += w[i] * (x[idx[i]] - mean[i]) / scale[i]
	}
	return s
}

// ScoreAll scores the candidates of one request, whose insertion keys break
// ties. A linear or gbdt model scores each alone; an ensemble ranks the
// candidates by each part (score descending, then key) and sums
// 1 / (10 + rank) over the parts (reciprocal rank fusion). Cost
// O(parts · n log n) plus the parts' scoring.
func (m *Model) ScoreAll(xs [][]float64, keys []int) []float64 {
	out := make([]float64, len(xs))
	if m.Kind == "gbdt" && m.heap != nil {
		for i := range out {
			out[i] = m.Bias
		}
		m.heap.addAll(xs, out)
		return out
	}
	if m.Kind == "gbdt" && m.nodes != nil {
		// Tree by tree over all candidates (each candidate's sum in tree
		// order, as Score), so that candidates' walks overlap in the CPU.
		for i := range out {
			out[i] = m.Bias
		}
		for _, r := range m.roots {
			for i, x := range xs {
				out[i] += m.evalFlat(r, x)
			}
		}
		return out
	}
	if m.Kind != "ensemble" {
		for i, x := range xs {
			out[i] = m.Score(x)
		}
		return out
	}
	out, _ = m.scoreParts(xs, keys)
	return out
}

// scoreParts is ScoreAll that also returns an ensemble's part scores (nil
// for a single model), each part scored once.
func (m *Model) scoreParts(xs [][]float64, keys []int) ([]float64, [][]float64) {
	if m.Kind != "ensemble" {
		return m.ScoreAll(xs, keys), nil
	}
	out := make([]float64, len(xs))
	parts := make([][]float64, len(m.Parts))
	ties := make([]int32, len(keys))
	for i, k := range keys {
		ties[i] = int32(k)
	}
	for pi := range m.Parts {
		sc := m.Parts[pi].ScoreAll(xs, keys)
		parts[pi] = sc
		// By score, best first, ties by key.
		for r, i := range topk.Floats(sc, ties, len(sc)) {
			out[i] += 1 / float64(10+r)
		}
	}
	return out, parts
}

// Contributions returns each feature's term of the score, by name.
func (m *Model) Contributions(x []float64) map[string]float64 {
	out := make(map[string]float64, len(m.idx))
	for i, j := range m.idx {
		out[m.Features[i]] = m.Weights[i] * (x[j] - m.Mean[i]) / m.Scale[i]
	}
	return out
}

//go:embed model.json
var modelJSON []byte

var (
	defaultModelOnce sync.Once
	defaultModel     *Model
	defaultModelErr  error
)

// DefaultModel returns the embedded model, trained by `recmem train slate` on
// all LoCoMo conversations.
func DefaultModel() (*Model, error) {
	defaultModelOnce.Do(func() {
		m, err := parseModelFast(modelJSON)
		if err != nil {
			defaultModelErr = fmt.Errorf("slate: embedded model: %w", err)
			return
		}
		if err := m.Validate(); err != nil {
			defaultModelErr = fmt.Errorf("slate: embedded model: %w", err)
			return
		}
		defaultModel = m
	})
	return defaultModel, defaultModelErr
}

// ErrNoModel is returned when the learned ranker is asked for and no model is
// available.
var ErrNoModel = errors.New("slate: no model")
