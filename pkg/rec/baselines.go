package rec

import (
	"math/rand/v2"

	"github.com/recmem/recmem/pkg/cf"
	"github.com/recmem/recmem/pkg/dataset"
)

// Scorer scores a case's candidates, in candidate order; higher is better.
type Scorer func(c Case) []float64

// Evaluate averages the metrics of s over cases. O(cases · cost of s).
func Evaluate(cases []Case, s Scorer) Scores {
	var a Accumulator
	for _, c := range cases {
		a.Add(TargetRank(s(c), 0))
	}
	return a.Scores()
}

// Expected is the expected score of a uniformly random order of the
// candidates (computed analytically, not sampled).
func Expected(cases []Case) Scores {
	var a Accumulator
	for _, c := range cases {
		a.AddExpected(len(c.Candidates))
	}
	return a.Scores()
}

// Histories returns the histories of seqs, the training data of every model
// (the held-out targets are never in them), without negative ratings (1 or
// 2): a collaborative model learns what users take to, and the memory, not
// the models, reads what they turned down. A 3 stays (a film watched).
func Histories(seqs []dataset.Sequence) [][]int {
	h := make([][]int, len(seqs))
	for i, s := range seqs {
		h[i] = Case{History: s.History, Ratings: s.Ratings}.Positive()
	}
	return h
}

// KNNDecay is the recency decay of the item-kNN baseline (DESIGN §6).
const KNNDecay = 0.9

// Baselines are the collaborative reference scorers, trained on one split's
// histories.
type Baselines struct {
	Pop  []float64
	KNN  *Sparse
	BPR  *BPR
	user map[string]int // user -> BPR row
}

// TrainBaselines fits popularity, item-kNN and BPR-MF to the histories of
// seqs. O(BPR training).
func TrainBaselines(seqs []dataset.Sequence, nItems int, bpr BPRConfig, rng *rand.Rand) *Baselines {
	h := Histories(seqs)
	b := &Baselines{Pop: Popularity(h, nItems), KNN: CoOccurrence(h, nItems), user: map[string]int{}}
	for i, s := range seqs {
		b.user[s.User] = i
	}
	b.BPR = TrainBPR(h, nItems, bpr, rng)
	return b
}

// Scorers returns the baseline scorers keyed as in the eval report: pop,
// itemknn and bpr.
func (b *Baselines) Scorers() map[string]Scorer {
	return map[string]Scorer{
		"pop": func(c Case) []float64 {
			return mapScores(c, func(i int) float64 { return b.Pop[i] })
		},
		"itemknn": func(c Case) []float64 {
			pos := c.Positive()
			return mapScores(c, func(i int) float64 { return cf.RecencyScore(b.KNN.At, pos, i, KNNDecay, 0) })
		},
		"bpr": func(c Case) []float64 {
			u, ok := b.user[c.User]
			return mapScores(c, func(i int) float64 {
				if !ok {
					return b.Pop[i]
				}
				return b.BPR.Score(u, i)
			})
		},
	}
}

func mapScores(c Case, f func(int) float64) []float64 {
	s := make([]float64, len(c.Candidates))
	for k, i := range c.Candidates {
		s[k] = f(i)
	}
	return s
}
