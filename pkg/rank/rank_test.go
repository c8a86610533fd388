package rank

import (
	"errors"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

func tiny(t *testing.T) *catalog.Catalog {
	t.Helper()
	b, err := os.ReadFile("../../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func feature(name string) int { return slices.Index(Features, name) }

// TestFeaturesByHand checks the features of a user who bought "a" against
// the values computed by hand from testdata/catalog/tiny.json.
func TestFeaturesByHand(t *testing.T) {
	r := New(tiny(t))
	u := User{Events: []Event{{Item: "a"}}}
	v, err := r.Vectors(u, Request{Candidates: []Candidate{{ID: "b"}, {ID: "c"}, {ID: "d"}}, Instruction: "something farm-like"})
	if err != nil {
		t.Fatal(err)
	}
	// BM25 of b's text against a's: idf(space|shooter|action) = ln 2.4, avgdl
	// 21/5, dl(b) = 4, so norm = 1.2(0.25 + 0.75·4/4.2) = 1.157143; shooter has
	// query weight 2 and tf 2: ln2.4·(2·1.019868 + 2·2·2.2/3.157143) ≈ 4.22594.
	bm25b := math.Log(2.4) * (2*2.2/(1+1.2*(0.25+0.75*4/4.2)) + 2*2*2.2/(2+1.2*(0.25+0.75*4/4.2)))
	// instruction "farm" against c: idf ln 4, tf 1.
	bm25c := math.Log(4) * 2.2 / (1 + 1.2*(0.25+0.75*4/4.2))
	tests := []struct {
		cand    int
		feature string
		want    float64
	}{
		{0, "transition", 0.75},
		{1, "transition", 0.25},
		{2, "transition", 0},
		{0, "transition_log", math.Log(751)},
		{0, "cooccurrence", 0.5},
		{1, "cooccurrence", 0},
		{0, "cooccurrence_log", math.Log(51)},
		{0, "popularity", math.Log(7)},
		{1, "popularity", math.Log(9)},
		{0, "sequential", 1 + float64(float32(0.2))}, // <[1,0],[1,0]> + b_b
		{1, "sequential", 0.5},                       // <[1,0],[.5,.5]>
		{0, "novelty", 1},
		{0, "recent_popularity", 0},
		{1, "recent_popularity", math.Log(4)}, // recent 3 in the fixture
		{0, "history_text", bm25b},
		{1, "history_text", 0},
		{1, "instruction", bm25c},
		{0, "instruction", 0},
		{0, "memory_text", 0},
	}
	for _, tt := range tests {
		if got := v[tt.cand][feature(tt.feature)]; math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("candidate %d %s = %v, want %v", tt.cand, tt.feature, got, tt.want)
		}
	}
	// Dense: b's title is nearer a's than d's is; the instruction's words
	// are nearer c (a farm game) than b (a shooter).
	hd, id := feature("history_dense"), feature("instruction_dense")
	if !(v[0][hd] > v[2][hd] && v[0][hd] > 0.5 && v[0][hd] <= 1) || !(v[1][id] > v[0][id]) {
		t.Errorf("dense features: history %v %v, instruction %v %v", v[0][hd], v[2][hd], v[1][id], v[0][id])
	}
	if math.Abs(bm25b-4.22594) > 1e-5 {
		t.Errorf("hand value drifted: %v", bm25b)
	}
}

func TestRank(t *testing.T) {
	r := New(tiny(t))
	u := User{Events: []Event{{Item: "a"}}, Chunks: []Chunk{{Text: "racing games", Strength: 0.8}}}
	req := Request{Candidates: []Candidate{{ID: "e"}, {ID: "d"}, {ID: "b"}, {ID: "new", Text: "Kart Racing Arena"}}}
	got, err := r.Rank(u, req)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].ID != "b" || got[0].Rank != 1 || len(got) != 4 {
		t.Fatalf("ranking %+v", got)
	}
	for k := 1; k < len(got); k++ {
		if got[k].Score > got[k-1].Score || got[k].Rank != k+1 {
			t.Fatalf("not sorted: %+v", got)
		}
	}
	// The explanation's children add up to the score.
	for _, g := range got {
		sum := 0.0
		for _, c := range g.Explanation.Children {
			sum += c.Value
		}
		if math.Abs(sum-g.Score) > 1e-5 {
			t.Errorf("%s: children sum %v, score %v", g.ID, sum, g.Score)
		}
	}
	// The cold item "new" matches the chunk and history nothing else: its
	// memory_text is positive.
	v, _ := r.Vectors(u, req)
	if v[3][feature("memory_text")] <= 0 || v[3][feature("collaborative")] != 0 {
		t.Errorf("cold item features %v", v[3])
	}
	top, _ := r.Rank(u, Request{Candidates: req.Candidates, K: 2})
	if len(top) != 2 || top[0].ID != got[0].ID {
		t.Errorf("K=2 gave %+v", top)
	}
	if _, err := r.Rank(u, Request{Candidates: []Candidate{{ID: "b"}, {ID: "zz"}}}); !errors.Is(err, ErrUnknownItem) ||
		err.Error() != `candidates[1]: unknown item "zz"` {
		t.Errorf("unknown item: %v", err)
	}
	// Ties keep the input order.
	tie, _ := New(tiny(t)).Rank(User{}, Request{Candidates: []Candidate{{ID: "x1", Text: "q"}, {ID: "x2", Text: "q"}}})
	if tie[0].ID != "x1" || tie[0].Score != tie[1].Score {
		t.Errorf("tie %+v", tie)
	}
}

func TestLearn(t *testing.T) {
	// Feature 0 (collaborative) separates the target; feature 2 is constant;
	// feature 3 (popularity) favours the negatives.
	mk := func(a, pop float64) []float64 {
		v := make([]float64, len(Features))
		v[0], v[2], v[3] = a, 7, pop
		return v
	}
	var cases [][][]float64
	for i := range 50 {
		x := float64(i % 5)
		cases = append(cases, [][]float64{mk(x+1, 0), mk(x, 1), mk(x-1, 2)})
	}
	w, s := Learn(cases, LearnConfig{})
	if w["collaborative"] <= 0 || w["popularity"] >= 0 {
		t.Errorf("weights %v", w)
	}
	if _, ok := w["cooccurrence"]; ok {
		t.Errorf("a constant feature got a weight: %v", w)
	}
	if s["collaborative"] <= 0 {
		t.Errorf("scales %v", s)
	}
}

// BenchmarkRank ranks 5 candidates for a 3-event user on the tiny catalog;
// BenchmarkPopularity is the naive baseline (sort by popularity alone).
func BenchmarkRank(b *testing.B) {
	c, _ := catalog.Parse(mustRead(b, "../../testdata/catalog/tiny.json"))
	r := New(c)
	u := User{Events: []Event{{Item: "a"}, {Item: "b"}, {Item: "c"}}}
	req := Request{Candidates: []Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Rank(u, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPopularity(b *testing.B) {
	c, _ := catalog.Parse(mustRead(b, "../../testdata/catalog/tiny.json"))
	ids := []string{"a", "b", "c", "d", "e"}
	b.ReportAllocs()
	for b.Loop() {
		s := slices.Clone(ids)
		slices.SortFunc(s, func(x, y string) int {
			i, _ := c.Lookup(x)
			j, _ := c.Lookup(y)
			return int(c.Pop[j] - c.Pop[i])
		})
	}
}

func mustRead(b *testing.B, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
