package lexical

import (
	"math"
	"testing"
)

func TestStatsByHand(t *testing.T) {
	s := NewStats(Config{}, [][]string{{"a", "b"}, {"a"}, {"c"}})
	// N = 3, avgdl = 4/3; idf(a) = ln(1 + 1.5/2.5) = ln 1.6, idf(c) = ln(1 + 2.5/1.5).
	d := s.Prepare([]string{"a", "b"})
	norm := 1.2 * (0.25 + 0.75*2/(4.0/3))
	tests := []struct {
		name string
		q    Query
		want float64
	}{
		{"one term", Query{"a": 1}, math.Log(1.6) * 2.2 / (1 + norm)},
		{"weighted", Query{"a": 2}, 2 * math.Log(1.6) * 2.2 / (1 + norm)},
		{"absent term", Query{"c": 1}, 0},
		{"empty query", Query{}, 0},
	}
	for _, tt := range tests {
		if got := s.Score(tt.q, &d); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: Score = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got, want := s.IDF("c"), math.Log(1+2.5/1.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("IDF(c) = %v, want %v", got, want)
	}
	// Index and Stats share one IDF: the same corpus gives the same bits.
	ix := New(Config{})
	ix.Add(0, []string{"a", "b"})
	ix.Add(1, []string{"a"})
	ix.Add(2, []string{"c"})
	for _, term := range []string{"a", "b", "c", "z"} {
		if ix.IDF(term) != s.IDF(term) {
			t.Errorf("IDF(%q): Index %v, Stats %v", term, ix.IDF(term), s.IDF(term))
		}
	}
	empty := s.Prepare(nil)
	if empty.Len() != 0 || s.Score(Query{"a": 1}, &empty) != 0 {
		t.Error("an empty document scores")
	}
}
