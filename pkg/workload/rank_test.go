package workload

import (
	"os"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

func TestRankN(t *testing.T) {
	b, err := os.ReadFile("../../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(b) // items a, b, c, d, e
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		got, want string
	}{
		// ((i·n + j)·13 + 5) mod 5 for i = 1, n = 3: 44, 57, 70 → 4, 2, 0.
		{string(RankN(cat, 1, 3)), `{"candidates":["e","c","a"]}`},
		// Rank10 is RankN with n = 10: (j·13 + 5) mod 5 for j = 0..9.
		{string(Rank10(cat, 0)), `{"candidates":["a","d","b","e","c","a","d","b","e","c"]}`},
		// RankN's candidates, (9·2 + j)·13 + 5 = 239, 252 → 4, 2, with
		// instruction 9 mod 8 = 1.
		{string(RankInstructed(cat, 9, 2)), `{"candidates":["e","c"],"instruction":"games for the PlayStation 4"}`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}
