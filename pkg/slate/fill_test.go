package slate

import (
	"slices"
	"testing"
)

func TestGreedy(t *testing.T) {
	for _, c := range []struct {
		name   string
		tokens []int
		lines  []uint64 // each unit's line key (nil: all differ)
		budget int
		taken  []int
		used   int
	}{
		{"all fit", []int{3, 4}, nil, 10, []int{0, 1}, 7},
		{"a unit too big is skipped, smaller ones after it still fit", []int{6, 5, 4}, nil, 10, []int{0, 2}, 10},
		{"exactly the budget", []int{10}, nil, 10, []int{0}, 10},
		{"nothing fits", []int{11, 12}, nil, 10, nil, 0},
		{"zero-token units always fit", []int{10, 0}, nil, 10, []int{0, 1}, 10},
		{"empty", nil, nil, 10, nil, 0},
		{"a line already taken is skipped", []int{3, 3, 3}, []uint64{7, 7, 8}, 10, []int{0, 2}, 6},
		{"a line that did not fit does not count as taken", []int{12, 3, 3}, []uint64{7, 7, 7}, 10, []int{1}, 3},
		{"line 0 is unknown, never a duplicate", []int{3, 3}, []uint64{0, 0}, 10, []int{0, 1}, 6},
	} {
		line := func(i int) uint64 { return uint64(i + 1) }
		if c.lines != nil {
			line = func(i int) uint64 { return c.lines[i] }
		}
		taken, used := greedy(c.tokens, line, c.budget)
		if !slices.Equal(taken, c.taken) || used != c.used {
			t.Errorf("%s: greedy(%v, %v, %d) = %v, %d; want %v, %d", c.name, c.tokens, c.lines, c.budget, taken, used, c.taken, c.used)
		}
	}
}

// TestLineKey: units that render the same line share a key; a different
// date, speaker or text gives another.
func TestLineKey(t *testing.T) {
	s := NewStore()
	us := []Unit{
		{ID: "a", Session: "S1", Date: "8 May 2023", Speaker: "Ann", Text: "Same words."},
		{ID: "b", Session: "S2", Date: "8 May 2023", Speaker: "Ann", Text: "Same words."},
		{ID: "c", Session: "S1", Date: "9 May 2023", Speaker: "Ann", Text: "Same words."},
		{ID: "d", Session: "S1", Date: "8 May 2023", Speaker: "Bob", Text: "Same words."},
		{ID: "e", Session: "S1", Date: "8 May 2023", Speaker: "Ann", Text: "Same words!"},
		{ID: "f", Session: "S1", Time: "2023-05-08", Speaker: "Ann", Text: "Same words."},
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	k := func(id string) uint64 { return lineKey(s.byID[id]) }
	if k("a") != k("b") {
		t.Error("the same line in two sessions has two keys")
	}
	for _, id := range []string{"c", "d", "e", "f"} {
		if k(id) == k("a") {
			t.Errorf("unit %s (%q) shares a's key", id, s.byID[id].u.Render())
		}
	}
}
