package slate

import (
	"slices"
	"testing"
)

func TestGreedy(t *testing.T) {
	for _, c := range []struct {
		name   string
		tokens []int
		budget int
		taken  []int
		used   int
	}{
		{"all fit", []int{3, 4}, 10, []int{0, 1}, 7},
		{"a unit too big is skipped, smaller ones after it still fit", []int{6, 5, 4}, 10, []int{0, 2}, 10},
		{"exactly the budget", []int{10}, 10, []int{0}, 10},
		{"nothing fits", []int{11, 12}, 10, nil, 0},
		{"zero-token units always fit", []int{10, 0}, 10, []int{0, 1}, 10},
		{"empty", nil, 10, nil, 0},
	} {
		taken, used := greedy(c.tokens, c.budget)
		if !slices.Equal(taken, c.taken) || used != c.used {
			t.Errorf("%s: greedy(%v, %d) = %v, %d; want %v, %d", c.name, c.tokens, c.budget, taken, used, c.taken, c.used)
		}
	}
}
