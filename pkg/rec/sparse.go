package rec

import (
	"cmp"
	"slices"
)

// Neighbor is one weighted entry of a sparse item-item row.
type Neighbor struct {
	Item   int
	Weight float64
}

// Sparse is an item-item matrix stored as one map per row, for building and
// lookups. Rows are created on demand.
type Sparse struct {
	rows []map[int]float64
}

// NewSparse returns an empty n×n matrix.
func NewSparse(n int) *Sparse { return &Sparse{rows: make([]map[int]float64, n)} }

// Add adds w to entry (i, j). O(1) amortised.
func (s *Sparse) Add(i, j int, w float64) {
	if s.rows[i] == nil {
		s.rows[i] = map[int]float64{}
	}
	s.rows[i][j] += w
}

// At returns entry (i, j). O(1).
func (s *Sparse) At(i, j int) float64 { return s.rows[i][j] }

// Row returns row i's map; the caller must not change it.
func (s *Sparse) Row(i int) map[int]float64 { return s.rows[i] }

// Len is the matrix size n.
func (s *Sparse) Len() int { return len(s.rows) }

// Top returns row i's k largest entries, by weight then item id. O(r log r)
// for a row of r entries.
func (s *Sparse) Top(i, k int) []Neighbor {
	out := make([]Neighbor, 0, len(s.rows[i]))
	for j, w := range s.rows[i] {
		out = append(out, Neighbor{j, w})
	}
	slices.SortFunc(out, func(a, b Neighbor) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return cmp.Compare(a.Item, b.Item)
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}
