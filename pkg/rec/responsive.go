package rec

import (
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/dataset"
)

// Responsiveness measures whether the memory reacts to negative feedback:
// when a user's real low ratings on a genre G are streamed in, the share of G
// in their top 10 should drop.
//
// For each test user with at least MinLow ratings of 1 or 2 on one genre
// (G: the genre with the most, ties to the first name), the memory is built
// from the history without those ratings, a pool of the user's .random items
// (the first PoolSize not in the history) is ranked and the share of G in
// the top 10 noted; then the low ratings are streamed in (in their order,
// one minute apart after the last signal, as the run records: all at once
// and maintained, or one at a time with the scheduler) and the pool ranked
// again. The report is the mean drop of the share over these users.
const (
	MinLow   = 2
	PoolSize = 100
	TopK     = 10
)

// Probe is one user's responsiveness case.
type Probe struct {
	User  string
	Genre string
	Rest  Case  // the history without the low ratings on Genre
	Low   Case  // the low ratings on Genre, times after Rest's last
	Pool  []int // items to rank, with HasGenre
	InG   []bool
}

// GenreField returns the data set's genre metadata column, or "".
func GenreField(d *dataset.RecBole) string {
	for _, n := range d.MetaNames {
		if n == "genre" || n == "genres" {
			return n
		}
	}
	return ""
}

func genres(d *dataset.RecBole, field string, i int) []string {
	return strings.FieldsFunc(d.Items[i].Meta[field], func(r rune) bool { return r == '|' || r == ';' })
}

// NewProbe builds c's probe, or reports false when c has no genre with
// MinLow low ratings (or no ratings, or too small a pool). O(history + pool).
func NewProbe(d *dataset.RecBole, c Case, random []int) (Probe, bool) {
	field := GenreField(d)
	if field == "" || c.Ratings == nil {
		return Probe{}, false
	}
	count := map[string]int{}
	for k, it := range c.History {
		if c.Ratings[k] <= 2 {
			for _, g := range genres(d, field, it) {
				count[g]++
			}
		}
	}
	best := ""
	for g, n := range count {
		if n >= MinLow && (best == "" || n > count[best] || n == count[best] && g < best) {
			best = g
		}
	}
	if best == "" {
		return Probe{}, false
	}
	p := Probe{User: c.User, Genre: best, Rest: Case{User: c.User}, Low: Case{User: c.User}}
	var last int64
	for k, it := range c.History {
		var t int64
		if c.Times != nil {
			t = c.Times[k]
		}
		if c.Ratings[k] <= 2 && slices.Contains(genres(d, field, it), best) {
			p.Low.History = append(p.Low.History, it)
			p.Low.Ratings = append(p.Low.Ratings, c.Ratings[k])
			continue
		}
		p.Rest.History = append(p.Rest.History, it)
		p.Rest.Ratings = append(p.Rest.Ratings, c.Ratings[k])
		if c.Times != nil {
			p.Rest.Times = append(p.Rest.Times, t)
		}
		last = max(last, t)
	}
	if c.Times == nil {
		last = Epoch + int64(len(p.Rest.History))*86400
	}
	for k := range p.Low.History {
		p.Low.Times = append(p.Low.Times, last+60*int64(k+1))
	}
	seen := map[int]bool{c.Target: true}
	for _, it := range c.History {
		seen[it] = true
	}
	for _, it := range random {
		if len(p.Pool) == PoolSize {
			break
		}
		if !seen[it] {
			seen[it] = true
			p.Pool = append(p.Pool, it)
			p.InG = append(p.InG, slices.Contains(genres(d, field, it), best))
		}
	}
	if len(p.Pool) < 2*TopK {
		return Probe{}, false
	}
	return p, true
}

// Share is the share of G among the TopK best-scored pool items (score
// order, ties in pool order, as the rank export orders them).
func (p Probe) Share(scores []float64) float64 {
	idx := make([]int, len(p.Pool))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	n := 0
	for _, i := range idx[:TopK] {
		if p.InG[i] {
			n++
		}
	}
	return float64(n) / TopK
}
