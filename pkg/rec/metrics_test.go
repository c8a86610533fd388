package rec

import (
	"math"
	"testing"
)

func TestMetrics(t *testing.T) {
	const eps = 1e-9
	tests := []struct {
		rank              int
		hr1, hr5, n5, n10 float64
	}{
		{0, 1, 1, 1, 1},
		{1, 0, 1, 1 / math.Log2(3), 1 / math.Log2(3)}, // 0.6309
		{2, 0, 1, 0.5, 0.5},                           // 1/log2(4)
		{4, 0, 1, 1 / math.Log2(6), 1 / math.Log2(6)}, // 0.3869
		{5, 0, 0, 0, 1 / math.Log2(7)},                // 0.3562
		{9, 0, 0, 0, 1 / math.Log2(11)},               // 0.2891
		{10, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		got := []float64{HR(1)(tt.rank), HR(5)(tt.rank), NDCG(5)(tt.rank), NDCG(10)(tt.rank)}
		want := []float64{tt.hr1, tt.hr5, tt.n5, tt.n10}
		for i := range got {
			if math.Abs(got[i]-want[i]) > eps {
				t.Errorf("rank %d %s = %v, want %v", tt.rank, MetricNames[i], got[i], want[i])
			}
		}
	}
}

func TestAccumulator(t *testing.T) {
	var a Accumulator
	a.Add(0)
	a.Add(2)
	s := a.Scores()
	// ranks 0 and 2: HR@1 = 1/2, HR@5 = 1, NDCG = (1 + 0.5)/2.
	if s.HR1 != 0.5 || s.HR5 != 1 || s.NDCG5 != 0.75 || s.NDCG10 != 0.75 {
		t.Fatalf("got %+v", s)
	}
	var r Accumulator
	r.AddExpected(10)
	// DESIGN §6: random (expected) 0.100 / 0.500 / 0.295 / 0.454.
	s = r.Scores()
	for i, w := range []float64{0.100, 0.500, 0.295, 0.454} {
		g := []float64{s.HR1, s.HR5, s.NDCG5, s.NDCG10}[i]
		if math.Abs(g-w) > 0.0005 {
			t.Errorf("expected %s = %.4f, want %.3f", MetricNames[i], g, w)
		}
	}
}

func TestTargetRank(t *testing.T) {
	tests := []struct {
		scores []float64
		target int
		want   int
	}{
		{[]float64{3, 1, 2}, 0, 0},
		{[]float64{1, 3, 2}, 0, 2},
		{[]float64{2, 2, 1}, 0, 1}, // a tie counts against the target
		{[]float64{5, 5, 5, 5}, 2, 3},
	}
	for _, tt := range tests {
		if got := TargetRank(tt.scores, tt.target); got != tt.want {
			t.Errorf("TargetRank(%v, %d) = %d, want %d", tt.scores, tt.target, got, tt.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	tests := []struct {
		name    string
		target  int
		history []int
		random  []int
		n       int
		want    []int
	}{
		{"skip history and duplicates", 9, []int{1, 2}, []int{1, 3, 3, 2, 4, 5}, 4, []int{9, 3, 4, 5}},
		{"target listed", 9, nil, []int{1, 9, 2}, 3, nil},
		{"too few", 9, nil, []int{1}, 3, nil},
	}
	for _, tt := range tests {
		got := Candidates(tt.target, tt.history, tt.random, tt.n)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		}
	}
}
