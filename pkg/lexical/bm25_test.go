package lexical

import (
	"math"
	"testing"
)

// corpus is three documents:
//
//	0: cat sat mat      (length 3)
//	1: cat cat dog      (length 3)
//	2: dog bird         (length 2)
//
// N = 3, avgdl = 8/3. idf(cat) = ln(1 + (3-2+0.5)/(2+0.5)) = ln 1.6;
// idf(dog) = ln 1.6; idf(bird) = ln(1 + 2.5/1.5) = ln(8/3).
func corpus() *Index {
	ix := New(Config{})
	ix.Add(0, []string{"cat", "sat", "mat"})
	ix.Add(1, []string{"cat", "cat"})
	ix.Add(1, []string{"dog"})
	ix.Add(2, []string{"dog", "bird"})
	return ix
}

// bm25 computes one term's contribution by hand from the formula.
func bm25(idf, tf, dl, avg float64) float64 {
	return idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*dl/avg))
}

func TestScoreByHand(t *testing.T) {
	ix := corpus()
	avg := 8.0 / 3
	ln16, ln83 := math.Log(1.6), math.Log(8.0/3)
	cases := []struct {
		query []string
		want  []Hit
	}{
		{[]string{"cat"}, []Hit{{1, bm25(ln16, 2, 3, avg)}, {0, bm25(ln16, 1, 3, avg)}}},
		{[]string{"bird", "cat", "bird"}, []Hit{
			{2, bm25(ln83, 1, 2, avg)},
			{1, bm25(ln16, 2, 3, avg)},
			{0, bm25(ln16, 1, 3, avg)},
		}},
		{[]string{"dog", "cat"}, []Hit{
			{1, bm25(ln16, 1, 3, avg) + bm25(ln16, 2, 3, avg)},
			{2, bm25(ln16, 1, 2, avg)},
			{0, bm25(ln16, 1, 3, avg)},
		}},
		{[]string{"fish"}, []Hit{}},
	}
	for _, c := range cases {
		got := ix.Score(c.query)
		if len(got) != len(c.want) {
			t.Fatalf("Score(%q) = %v, want %v", c.query, got, c.want)
		}
		for i := range got {
			if got[i].Doc != c.want[i].Doc || math.Abs(got[i].Score-c.want[i].Score) > 1e-12 {
				t.Errorf("Score(%q)[%d] = %v, want %v", c.query, i, got[i], c.want[i])
			}
		}
	}
	// By hand: cat in doc 1 is ln 1.6 · 4.4/(2 + 1.2·(0.25 + 0.75·1.125)) = 0.470004 · 1.328302 = 0.624307.
	if v := ix.Score([]string{"cat"})[0].Score; math.Abs(v-0.624307) > 1e-6 {
		t.Errorf("cat in doc 1 = %v, want 0.624307", v)
	}
}

func TestRemoveRestoresStatistics(t *testing.T) {
	ix := corpus()
	ix.Add(3, []string{"cat", "zebra"})
	if err := ix.Remove(3, []string{"zebra", "cat"}); err != nil {
		t.Fatal(err)
	}
	want := corpus()
	for _, q := range [][]string{{"cat"}, {"dog", "bird"}, {"zebra"}} {
		a, b := ix.Score(q), want.Score(q)
		if len(a) != len(b) {
			t.Fatalf("%q: %v vs %v", q, a, b)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%q: %v vs %v", q, a, b)
			}
		}
	}
	if ix.DF("zebra") != 0 || ix.Len() != 3 {
		t.Fatalf("trace left: df(zebra)=%d len=%d", ix.DF("zebra"), ix.Len())
	}
	if err := ix.Remove(0, []string{"cat", "cat"}); err == nil {
		t.Fatal("removing a term twice from doc 0 succeeded")
	}
	if ix.DF("cat") != 2 {
		t.Fatal("failed Remove changed the index")
	}
}

func TestLogMatchesMath(t *testing.T) {
	for _, x := range []float64{1e-300, 0.1, 0.5, 1, 1.6, 2, 8.0 / 3, 10, 12345.678, 1e300} {
		if got, want := Log(x), math.Log(x); math.Abs(got-want) > 1e-15*math.Abs(want)+1e-300 {
			t.Errorf("Log(%g) = %v, want %v", x, got, want)
		}
	}
	if !math.IsInf(Log(0), -1) || !math.IsNaN(Log(-1)) {
		t.Error("special cases")
	}
}

// TestAddInAnyOrder builds the same documents in two orders (a session index
// grows earlier documents) and expects the same statistics and scores.
func TestAddInAnyOrder(t *testing.T) {
	a := New(Config{})
	a.Add(5, []string{"cat", "dog"})
	a.Add(2, []string{"cat"})
	a.Add(9, []string{"bird"})
	a.Add(2, []string{"dog", "cat"})
	a.Add(5, []string{"cat"})
	b := New(Config{})
	b.Add(2, []string{"cat", "dog", "cat"})
	b.Add(5, []string{"cat", "dog", "cat"})
	b.Add(9, []string{"bird"})
	if a.Len() != 3 || a.DF("cat") != 2 || a.tf("cat", 2) != 2 || a.tf("cat", 5) != 2 || a.tf("dog", 9) != 0 {
		t.Fatalf("len %d df(cat) %d tf %d %d", a.Len(), a.DF("cat"), a.tf("cat", 2), a.tf("cat", 5))
	}
	for _, q := range [][]string{{"cat"}, {"dog", "bird"}, {"cat", "dog", "cat"}} {
		x, y := a.Score(q), b.Score(q)
		if len(x) != len(y) {
			t.Fatalf("%q: %v vs %v", q, x, y)
		}
		for i := range x {
			if x[i] != y[i] {
				t.Fatalf("%q: %v vs %v", q, x, y)
			}
		}
	}
	// Docs 2 and 5 tie on "cat": the smaller doc first.
	if h := a.Score([]string{"cat"}); h[0].Doc != 2 || h[1].Doc != 5 {
		t.Fatalf("tie order %v", h)
	}
	if err := a.Remove(5, []string{"cat", "dog", "cat"}); err != nil || a.DF("dog") != 1 || a.Len() != 2 {
		t.Fatalf("remove: %v, df(dog) %d, len %d", err, a.DF("dog"), a.Len())
	}
}

// TestScoreTop checks that the k first hits of ScoreTop are Score's first k,
// in order, and that every hit is returned, on an index with many ties.
func TestScoreTop(t *testing.T) {
	ix := New(Config{})
	for d := 0; d < 200; d++ {
		terms := []string{"a"}
		for r := 0; r < d%4; r++ {
			terms = append(terms, "b")
		}
		if d%7 == 0 {
			terms = append(terms, "c")
		}
		ix.Add(d, terms)
	}
	q := []string{"b", "c"}
	full := ix.Score(q)
	for _, k := range []int{0, 1, 5, 13, 50, len(full) - 1, len(full), len(full) + 10} {
		top := ix.ScoreTop(q, k)
		if len(top) != len(full) {
			t.Fatalf("k=%d: %d hits, want %d", k, len(top), len(full))
		}
		for i := 0; i < min(k, len(full)); i++ {
			if top[i] != full[i] {
				t.Fatalf("k=%d: hit %d is %v, want %v", k, i, top[i], full[i])
			}
		}
		seen := map[int]bool{}
		for _, h := range top {
			seen[h.Doc] = true
		}
		if len(seen) != len(full) {
			t.Fatalf("k=%d: %d distinct docs, want %d", k, len(seen), len(full))
		}
	}
}

func TestScoreTopWeightedByHand(t *testing.T) {
	ix := corpus()
	avg := 8.0 / 3
	ln16, ln83 := math.Log(1.6), math.Log(8.0/3)
	cases := []struct {
		query   []string
		weights []float64
		want    []Hit
	}{
		// Weight 1 everywhere is ScoreTop.
		{[]string{"dog", "cat"}, []float64{1, 1}, []Hit{
			{1, bm25(ln16, 1, 3, avg) + bm25(ln16, 2, 3, avg)},
			{2, bm25(ln16, 1, 2, avg)},
			{0, bm25(ln16, 1, 3, avg)},
		}},
		// cat at a quarter: doc 0's cat falls from 0.45 to 0.11, below doc 2's dog (0.52).
		{[]string{"dog", "cat"}, []float64{1, 0.25}, []Hit{
			{1, bm25(ln16, 1, 3, avg) + 0.25*bm25(ln16, 2, 3, avg)},
			{2, bm25(ln16, 1, 2, avg)},
			{0, 0.25 * bm25(ln16, 1, 3, avg)},
		}},
		// A repeated term keeps its first weight: bird at a half (1.09 to 0.55) falls below doc 1's cats (0.62).
		{[]string{"bird", "cat", "bird"}, []float64{0.5, 1, 3}, []Hit{
			{1, bm25(ln16, 2, 3, avg)},
			{2, 0.5 * bm25(ln83, 1, 2, avg)},
			{0, bm25(ln16, 1, 3, avg)},
		}},
	}
	for _, c := range cases {
		got := ix.ScoreTopWeighted(c.query, c.weights, 10)
		if len(got) != len(c.want) {
			t.Fatalf("ScoreTopWeighted(%q, %v) = %v, want %v", c.query, c.weights, got, c.want)
		}
		for i := range got {
			if got[i].Doc != c.want[i].Doc || math.Abs(got[i].Score-c.want[i].Score) > 1e-12 {
				t.Errorf("ScoreTopWeighted(%q, %v)[%d] = %v, want %v", c.query, c.weights, i, got[i], c.want[i])
			}
		}
	}
}
