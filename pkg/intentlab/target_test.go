package intentlab

import (
	"testing"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/rank"
)

func TestTargetInstruction(t *testing.T) {
	both := map[string]string{"platform": "Nintendo Wii", "series": "Zelda"}
	for _, tt := range []struct {
		user   string
		fields map[string]string
		want   string
	}{
		// FNV-1a 32 of "A1" is 0x9bd5d047: odd, so the platform; (x/2) mod 6 = 5.
		{"A1", both, "I'm gaming on the Nintendo Wii these days"},
		// "A2" is 0x9cd5d1da: even, so the series; (x/2) mod 6 = 5.
		{"A2", both, "got any Zelda?"},
		// "A3" is 0x9dd5d36d: odd, but no platform, so the series; template 4.
		{"A3", map[string]string{"series": "Halo"}, "I want to play Halo"},
		// "A4" is 0x96d5c868: even, but no series, so the platform; template 2.
		{"A4", map[string]string{"platform": "PSP", "kind": "game"}, "PSP games please"},
		// "user7": neither facet, no instruction.
		{"user7", map[string]string{"title": "Untitled", "kind": "game"}, ""},
	} {
		got, ok := TargetInstruction(tt.user, tt.fields)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("TargetInstruction(%s) = %q, %v; want %q", tt.user, got, ok, tt.want)
		}
	}
}

func TestTargetFirst(t *testing.T) {
	ranking := func(idScores ...any) engine.RankOutput {
		var o engine.RankOutput
		for i := 0; i < len(idScores); i += 2 {
			o.Ranking = append(o.Ranking, rank.Ranked{ID: idScores[i].(string), Score: idScores[i+1].(float64)})
		}
		return o
	}
	for _, tt := range []struct {
		name string
		o    engine.RankOutput
		want bool
	}{
		{"first", ranking("t", 0.9, "a", 0.5, "b", 0.1), true},
		{"second", ranking("a", 0.9, "t", 0.5), false},
		{"tied for first counts against it", ranking("a", 0.7, "t", 0.7), false},
		{"tied, listed first", ranking("t", 0.7, "a", 0.7), false},
		{"alone", ranking("t", 0.0), true},
		{"filtered out by the instruction", ranking("a", 0.9, "b", 0.5), false},
		{"empty", ranking(), false},
	} {
		if got := TargetFirst(tt.o, "t"); got != tt.want {
			t.Errorf("%s: TargetFirst = %v, want %v", tt.name, got, tt.want)
		}
	}
}
