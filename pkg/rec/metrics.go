// Package rec holds the offline evaluation protocol of sequential
// recommendation: leave-one-out candidates, the rank of the held-out item
// among them, and the ranking metrics over that rank.
//
// Every metric takes the 0-based rank of the single relevant item among the
// candidates, with ties broken against it: an item that scores the same as the
// target is counted as ranked above it (TargetRank). A scorer that gives every
// candidate the same score thus gets the worst rank, never the best.
package rec

import "math"

// Metric scores one ranking from the 0-based rank of its single relevant item.
type Metric func(rank int) float64

// HR returns hit ratio at k: 1 if rank < k, else 0.
func HR(k int) Metric {
	return func(rank int) float64 {
		if rank < k {
			return 1
		}
		return 0
	}
}

// NDCG returns normalised discounted cumulative gain at k for one relevant
// item: 1/log2(rank+2) if rank < k, else 0 (the ideal DCG is 1).
func NDCG(k int) Metric {
	return func(rank int) float64 {
		if rank < k {
			return 1 / math.Log2(float64(rank)+2)
		}
		return 0
	}
}

// MetricNames are the reported metrics, in report order.
var MetricNames = []string{"hr@1", "hr@5", "ndcg@5", "ndcg@10"}

// metrics maps MetricNames to their functions.
var metrics = []Metric{HR(1), HR(5), NDCG(5), NDCG(10)}

// Scores holds the four reported metrics, averaged over users.
type Scores struct {
	HR1    float64 `json:"hr@1"`
	HR5    float64 `json:"hr@5"`
	NDCG5  float64 `json:"ndcg@5"`
	NDCG10 float64 `json:"ndcg@10"`
}

// Accumulator averages the reported metrics over rankings. Its zero value is
// ready to use.
type Accumulator struct {
	n   int
	sum [4]float64
}

// Add records one ranking by the rank of its target. O(1).
func (a *Accumulator) Add(rank int) {
	a.n++
	for i, m := range metrics {
		a.sum[i] += m(rank)
	}
}

// AddExpected records the expected metrics of a uniformly random order of n
// candidates: the mean of each metric over ranks 0..n-1. O(n).
func (a *Accumulator) AddExpected(n int) {
	a.n++
	for i, m := range metrics {
		s := 0.0
		for r := range n {
			s += m(r)
		}
		a.sum[i] += s / float64(n)
	}
}

// N is the number of rankings added.
func (a *Accumulator) N() int { return a.n }

// Scores returns the averages (zeros when nothing was added).
func (a *Accumulator) Scores() Scores {
	if a.n == 0 {
		return Scores{}
	}
	f := float64(a.n)
	return Scores{HR1: a.sum[0] / f, HR5: a.sum[1] / f, NDCG5: a.sum[2] / f, NDCG10: a.sum[3] / f}
}

// RankScores averages the reported metrics over target ranks. O(len(ranks)).
func RankScores(ranks []int) Scores {
	var a Accumulator
	for _, r := range ranks {
		a.Add(r)
	}
	return a.Scores()
}
