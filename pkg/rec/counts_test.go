package rec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/recmem/recmem/pkg/cf"
)

const eps = 1e-9

// seqs is a toy log over items 0..3.
var seqs = [][]int{{0, 1, 2}, {0, 1}, {1, 2, 2}, {3}}

func TestPopularity(t *testing.T) {
	if got, want := Popularity(seqs, 4), []float64{2, 3, 3, 1}; !slices.Equal(got, want) {
		t.Fatalf("Popularity = %v, want %v", got, want)
	}
}

func TestRecentPopularity(t *testing.T) {
	// window 2, decay 0.5: {0,1,2} gives 2:1, 1:0.5; {0,1} gives 1:1, 0:0.5;
	// {1,2,2} gives 2:1+0.5; {3} gives 3:1.
	if got, want := RecentPopularity(seqs, 4, 2, 0.5), []float64{0.5, 1.5, 2.5, 1}; !slices.Equal(got, want) {
		t.Fatalf("RecentPopularity = %v, want %v", got, want)
	}
	if got := RecentPopularity(seqs, 4, 0, 1); !slices.Equal(got, Popularity(seqs, 4)) {
		t.Fatalf("no window, no decay should be popularity: %v", got)
	}
}

func TestCoOccurrence(t *testing.T) {
	m := CoOccurrence(seqs, 4)
	// sequences holding each item once: c(0)=2, c(1)=3, c(2)=2, c(3)=1;
	// c(0,1)=2, c(1,2)=2, c(0,2)=1.
	tests := []struct {
		i, j int
		want float64
	}{
		{0, 1, 2 / math.Sqrt(2*3)},
		{1, 2, 2 / math.Sqrt(3*2)},
		{0, 2, 1 / math.Sqrt(2*2)},
		{2, 0, 0.5},
		{0, 3, 0},
		{0, 0, 0},
	}
	for _, tt := range tests {
		if got := m.At(tt.i, tt.j); math.Abs(got-tt.want) > eps {
			t.Errorf("sim(%d,%d) = %v, want %v", tt.i, tt.j, got, tt.want)
		}
	}
	top := m.Top(1, 5)
	// row 1: 0 and 2 tie at 2/sqrt(6); the lower id comes first.
	if len(top) != 2 || top[0].Item != 0 || top[1].Item != 2 {
		t.Errorf("Top(1) = %v", top)
	}
}

func TestTransitions(t *testing.T) {
	m := Transitions(seqs, 4)
	// pairs: 0→1 twice, 1→2 twice, 2→2 ignored (a repeat).
	if m.At(0, 1) != 1 || m.At(1, 2) != 1 || m.At(2, 2) != 0 || m.At(1, 0) != 0 {
		t.Fatalf("transitions %v %v %v", m.At(0, 1), m.At(1, 2), m.At(2, 2))
	}
	m = Transitions([][]int{{0, 1}, {0, 2}, {0, 1}}, 3)
	if math.Abs(m.At(0, 1)-2.0/3) > eps || math.Abs(m.At(0, 2)-1.0/3) > eps {
		t.Fatalf("P(1|0) = %v, P(2|0) = %v", m.At(0, 1), m.At(0, 2))
	}
}

func TestSuccessors(t *testing.T) {
	got := Successors([][]int{{0, 1, 2, 0}}, 3, 2)
	want := [][]int{{1, 2}, {2, 0}, {0}}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("Successors = %v, want %v", got, want)
		}
	}
}

// TestBPRLearns checks that BPR ranks a user's co-consumed item above the
// others on a log with two clear groups, and that a seed fixes the result.
func TestBPRLearns(t *testing.T) {
	var log [][]int
	for range 20 {
		log = append(log, []int{0, 1, 2}, []int{3, 4, 5})
	}
	log = append(log, []int{0, 1}) // this user should like 2, not 3, 4 or 5
	cfg := BPRConfig{Dim: 8, Epochs: 30, LR: 0.1, Reg: 0.01}
	m := TrainBPR(log, 6, cfg, rand.New(rand.NewPCG(7, 7)))
	u := len(log) - 1
	for _, j := range []int{3, 4, 5} {
		if m.Score(u, 2) <= m.Score(u, j) {
			t.Errorf("score(u,2) = %v <= score(u,%d) = %v", m.Score(u, 2), j, m.Score(u, j))
		}
	}
	m2 := TrainBPR(log, 6, cfg, rand.New(rand.NewPCG(7, 7)))
	if !slices.Equal(m.Item, m2.Item) {
		t.Error("same seed, different factors")
	}
	// The folded-in user prefers the same group.
	f := cf.FoldIn([]int{0, 1}, m.Item, m.ItemBias, m.Dim, cf.FoldInConfig{})
	s := func(i int) float64 { return cf.Dot(f, m.ItemVec(i)) + float64(m.ItemBias[i]) }
	if s(2) <= s(3) || s(2) <= s(5) {
		t.Errorf("fold-in: s(2) = %v, s(3) = %v, s(5) = %v", s(2), s(3), s(5))
	}
	if g := cf.FoldIn([]int{0, 1}, m.Item, m.ItemBias, m.Dim, cf.FoldInConfig{}); !slices.Equal(f, g) {
		t.Error("fold-in is not deterministic")
	}
	if z := cf.FoldIn(nil, m.Item, m.ItemBias, m.Dim, cf.FoldInConfig{}); slices.ContainsFunc(z, func(x float32) bool { return x != 0 }) {
		t.Error("empty history should fold to zero")
	}
}
