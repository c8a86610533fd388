package slate

import (
	"math"
	"slices"
	"testing"

	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/topk"
	"github.com/recmem/recmem/pkg/vector"
)

func TestRankOrderByHand(t *testing.T) {
	score := []float64{0.5, 0.9, 0.5, 0.1, 0.9, 0.7}
	for _, c := range []struct {
		subset []int32
		k      int
		want   []int32
	}{
		// By score, ties in store order: 1 and 4 (0.9), 5 (0.7), 0 and 2 (0.5), 3.
		{nil, 6, []int32{1, 4, 5, 0, 2, 3}},
		{nil, 10, []int32{1, 4, 5, 0, 2, 3}},
		{nil, 3, []int32{1, 4, 5}},
		{nil, 4, []int32{1, 4, 5, 0}},
		{nil, 0, []int32{}},
		{[]int32{0, 2, 3}, 2, []int32{0, 2}},
		{[]int32{3, 2, 4}, 5, []int32{4, 2, 3}},
	} {
		if got := rankOrder(score, c.subset, c.k); !slices.Equal(got, c.want) {
			t.Errorf("rankOrder(%v, %d) = %v, want %v", c.subset, c.k, got, c.want)
		}
	}
}

// TestRankOrderMatchesSort checks the partial selection against a full sort
// on lists with many ties, sorted and reversed inputs, at every depth.
func TestRankOrderMatchesSort(t *testing.T) {
	x := uint64(1)
	next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	for n := 1; n < 300; n += 7 {
		for kind := 0; kind < 4; kind++ {
			score := make([]float64, n)
			for i := range score {
				switch kind {
				case 0:
					score[i] = float64(next() % 1000)
				case 1:
					score[i] = float64(next() % 3) // many ties
				case 2:
					score[i] = float64(i) // ascending: worst first
				case 3:
					score[i] = float64(n - i)
				}
			}
			full := rankOrder(score, nil, n)
			ref := make([]int32, n)
			for i := range ref {
				ref[i] = int32(i)
			}
			slices.SortStableFunc(ref, func(a, b int32) int {
				switch {
				case score[a] > score[b]:
					return -1
				case score[a] < score[b]:
					return 1
				}
				return 0
			})
			if !slices.Equal(full, ref) {
				t.Fatalf("n=%d kind=%d: full ranking differs", n, kind)
			}
			for _, k := range []int{0, 1, 2, n / 3, n / 2, n - 1, n} {
				if k > n {
					continue
				}
				if got := rankOrder(score, nil, k); !slices.Equal(got, ref[:k]) {
					t.Fatalf("n=%d kind=%d k=%d: %v, want %v", n, kind, k, got, ref[:k])
				}
			}
		}
	}
}

// TestMaxSimsMatchesMaxSim checks the vocabulary-table alignment against
// vector.MaxSim over each unit's word vectors, bit for bit.
func TestMaxSimsMatchesMaxSim(t *testing.T) {
	s := NewStore()
	if err := s.Add(units()); err != nil {
		t.Fatal(err)
	}
	for _, qs := range []string{"Which day is Ann's pottery class now?", "pasta pasta recipe", "zzqx Bob", "the", "pottery class pasta recipe tomato basil Thursdays Tuesdays unwind lovely"} {
		q := analyse(s, qs, 0)
		got, _ := s.maxSims(q)
		var qv [][]float32
		var ws []float64
		for _, w := range q.content {
			v, _ := s.table.Word(w)
			qv = append(qv, v)
			ws = append(ws, s.units.IDF(text.Stem(w))+0.1)
		}
		for p, e := range s.entries {
			var uv [][]float32
			for _, id := range e.toks {
				if w := s.lex.tokWord[id]; w >= 0 {
					v, _ := s.table.Word(s.lex.word[w])
					uv = append(uv, v)
				}
			}
			if want := vector.MaxSim(qv, uv, ws); got[p] != want {
				t.Errorf("%q, unit %s: %v, want %v", qs, e.u.ID, got[p], want)
			}
		}
	}
}

func TestMaxSimsByHand(t *testing.T) {
	// cat = (1, 0), dog = (0.8, 0.6), tax = (0, 1).
	raw := []byte("RMWV\x01\x02\x03\x00\x00\x00\x0b\x00\x00\x00cat\ndog\ntax")
	raw = append(raw, 127, 0, 100, 75, 0, 127)
	tb, err := vector.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStoreWithTable(tb)
	if err := s.Add([]Unit{{ID: "1", Session: "S", Speaker: "Ann", Text: "cat tax"}, {ID: "2", Session: "S", Speaker: "Tax", Text: "dog"}}); err != nil {
		t.Fatal(err)
	}
	// Both query words have IDF ln 2 (df 1 of N 2), so equal weights:
	// unit 1: dog -> 0.8 (cat), tax -> 1; unit 2: dog -> 1, tax -> 0.6.
	ms, _ := s.maxSims(analyse(s, "dog tax", 0))
	for i, want := range []float64{0.9, 0.8} {
		if math.Abs(ms[i]-want) > 1e-6 {
			t.Errorf("unit %d: maxsim %v, want %v", i+1, ms[i], want)
		}
	}
}

func TestSortByBefore(t *testing.T) {
	mk := func(v ...float64) []scored {
		xs := make([]scored, len(v))
		for i, s := range v {
			xs[i] = scored{s, int32(i)}
		}
		return xs
	}
	{
		xs := mk(3, 1, 3, 2, 5, 1, 0, 4, 2, 2, 9, 7, 3, 3, 8, 6, 1)
		topk.Sort(xs, before)
		// 9 (10), 8 (14), 7 (11), 6 (15), 5 (4), 4 (7), the 3s by position
		// (0, 2, 12, 13), the 2s (3, 8, 9), the 1s (1, 5, 16), 0 (6).
		want := []int32{10, 14, 11, 15, 4, 7, 0, 2, 12, 13, 3, 8, 9, 1, 5, 16, 6}
		got := make([]int32, len(xs))
		for i, x := range xs {
			got[i] = x.pos
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v, want %v", got, want)
		}
	}
}

func TestLarger(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct{ a, b, want float64 }{
		{1, 2, 2}, {2, 1, 2}, {-1, -2, -1}, {-inf, 0.5, 0.5}, {0.5, -inf, 0.5}, {-inf, -inf, -inf}, {0, 0, 0},
	} {
		if got := larger(c.a, c.b); got != c.want {
			t.Errorf("larger(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestSignalWordsCoverFeatures: every feature is said in words.
func TestSignalWordsCoverFeatures(t *testing.T) {
	for _, f := range FeatureNames {
		if signalWords[f] == "" {
			t.Errorf("feature %s has no words in signalWords", f)
		}
	}
	if len(signalWords) != len(FeatureNames) {
		t.Errorf("signalWords has %d entries, FeatureNames %d", len(signalWords), len(FeatureNames))
	}
}
