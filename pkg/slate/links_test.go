package slate

import (
	"math"
	"testing"
)

// TestLinks: a unit's ties to the first pass's best units, by hand. Five
// units; the question "beach" holds none of the link words; the top units
// are t0 ("biscuit beach", S1), t1 ("violin garden", S2) and t2 ("kayak",
// S3). The candidate c ("biscuit violin", S1, two turns after t0) shares
// biscuit with t0 and violin with t1: with IDF = ln(1 + (N - df + 0.5) /
// (df + 0.5)) and N = 5, biscuit and violin have df 2, garden df 1, so
// top_words = max(idf2/idf2, idf2/(idf2+idf1)) = 1, top_link = max(1 ·
// 10/10, ...) = 1, top_turns = 1/(1+2). t0 is never tied to itself: it shares nothing with t1 or t2 and
// has no other top unit in its session. "filler", one turn from t0, shares
// no word: only top_turns = 1/2.
func TestLinks(t *testing.T) {
	s := NewStore()
	us := []Unit{
		{ID: "t0", Session: "S1", Text: "biscuit beach"},
		{ID: "filler", Session: "S1", Text: "weather"},
		{ID: "c", Session: "S1", Text: "biscuit violin"},
		{ID: "t1", Session: "S2", Text: "violin garden"},
		{ID: "t2", Session: "S3", Text: "kayak"},
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	idf := func(df float64) float64 { return math.Log(1 + (5-df+0.5)/(df+0.5)) }
	r := &retrieval{q: analyse(s, "beach", 0), fused: []*entry{s.byID["t0"], s.byID["t1"], s.byID["t2"], s.byID["c"], s.byID["filler"]}}
	s.prepareLinks(r)
	if want := []float64{idf(2), idf(2) + idf(1), idf(1)}; !near(r.links.mass, want) {
		t.Fatalf("top units' mass %v, want %v", r.links.mass, want)
	}
	at := func(name string) int {
		for i, f := range FeatureNames {
			if f == name {
				return i
			}
		}
		t.Fatalf("no feature %s", name)
		return -1
	}
	for _, tc := range []struct {
		id   string
		want map[string]float64
	}{
		{"c", map[string]float64{"top_words": 1, "top_link": 1, "top_turns": 1.0 / 3}},
		{"t0", map[string]float64{"top_words": 0, "top_link": 0, "top_turns": 0}},
		{"filler", map[string]float64{"top_words": 0, "top_link": 0, "top_turns": 0.5}},
	} {
		c := &candidate{e: s.byID[tc.id], x: make([]float64, len(FeatureNames))}
		s.links(r, c)
		for name, want := range tc.want {
			if got := c.x[at(name)]; math.Abs(got-want) > 1e-12 {
				t.Errorf("%s: %s = %v, want %v", tc.id, name, got, want)
			}
		}
	}
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}
