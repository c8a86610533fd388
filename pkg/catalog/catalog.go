// Package catalog is the collaborative asset recmem ranks with: everything
// learned offline from many users' interaction logs that one user's plugin
// needs, shipped once per instance and never per call.
//
// A Catalog holds, per item: its id, its metadata (text columns), its
// popularity (overall and recency-weighted), its BPR factor (int8-quantized with one scale per item) and
// bias, its top transition successors P(next | item) and its top co-occurrence
// neighbours (cosine); and the ranker's feature weights learned on the
// validation split. It is stored in a compact versioned binary form
// (binary.go) or, for small fixtures, in JSON (json.go).
package catalog

import (
	"errors"
	"fmt"
	"math"

	"github.com/recmem/recmem/pkg/intent"
)

// Version is the current format version; Decode refuses newer ones. Version
// 2 added the facet types and the intent table to the binary form; version 1
// files still load (their facets inferred, no table).
const Version = 2

// Neighbor is one sparse item-item entry.
type Neighbor struct {
	Item   int32
	Weight float32
}

// Catalog is a loaded catalog. Build it with New or Decode; it is read-only
// afterwards and safe to share.
type Catalog struct {
	Dataset   string
	MetaNames []string // metadata columns, e.g. ["title"]
	// Facets types each column (text, list, number), aligned with
	// MetaNames; inferred from the values when the catalog declares none.
	Facets []Facet
	IDs    []string
	// Meta holds per item one string per MetaNames entry: a list's
	// values joined by ListSep, a number as written ("1995").
	Meta    [][]string
	Pop     []float32 // interaction counts in the training logs
	Recent  []float32 // recency-weighted counts (rec.RecentPopularity, window 10, decay 0.8)
	Dim     int
	Factors []float32 // Items × Dim, dequantized at load
	Bias    []float32
	SeqDim  int          // dimension of the factorised transition model (0 = none)
	SeqCtx  []float32    // Items × SeqDim: C_i, the item as the previous item
	SeqItem []float32    // Items × SeqDim: W_j, the item as the next item
	SeqBias []float32    // Items (empty when SeqDim is 0)
	Trans   [][]Neighbor // top successors, by weight
	CoOc    [][]Neighbor // top co-occurrence neighbours, by weight
	Weights map[string]float64
	Scales  map[string]float64 // feature standardization (1/std) used with Weights
	// Intent is the domain's table for the instruction interpreter
	// (aliases, filler words, title facets); nil when the catalog ships
	// none (the JSON form's "intent").
	Intent *intent.Table

	index map[string]int
}

// Len is the number of items.
func (c *Catalog) Len() int { return len(c.IDs) }

// Lookup returns an item's index. O(1).
func (c *Catalog) Lookup(id string) (int, bool) {
	i, ok := c.index[id]
	return i, ok
}

// Factor returns item i's factor (nil when the catalog has none).
func (c *Catalog) Factor(i int) []float32 {
	if c.Dim == 0 {
		return nil
	}
	return c.Factors[i*c.Dim : (i+1)*c.Dim]
}

// SeqScore is the factorised transition score <C_i, W_j> without the bias
// (0 without a transition model). O(SeqDim).
func (c *Catalog) SeqScore(i, j int) float64 {
	if c.SeqDim == 0 {
		return 0
	}
	d := c.SeqDim
	a, b := c.SeqCtx[i*d:(i+1)*d], c.SeqItem[j*d:(j+1)*d]
	s := float32(0)
	for k := range a {
		s += float32(a[k] * b[k]) // no fused multiply-add: same bits on every host
	}
	return float64(s)
}

// MetaText returns item i's metadata joined by spaces.
func (c *Catalog) MetaText(i int) string {
	s := ""
	for _, m := range c.Meta[i] {
		if m == "" {
			continue
		}
		if s != "" {
			s += " "
		}
		s += m
	}
	return s
}

// Title returns the "title" metadata of item i, or its first metadata value.
func (c *Catalog) Title(i int) string {
	for k, n := range c.MetaNames {
		if n == "title" {
			return c.Meta[i][k]
		}
	}
	if len(c.Meta[i]) > 0 {
		return c.Meta[i][0]
	}
	return ""
}

// Lookup helpers for sparse rows: the weight of j in row, or 0. O(len(row)).
func weight(row []Neighbor, j int) float64 {
	for _, n := range row {
		if int(n.Item) == j {
			return float64(n.Weight)
		}
	}
	return 0
}

// Transition returns P(j | i) if j is among i's kept successors, else 0.
func (c *Catalog) Transition(i, j int) float64 { return weight(c.Trans[i], j) }

// Similarity returns the co-occurrence cosine of i and j if kept, else 0.
func (c *Catalog) Similarity(i, j int) float64 { return weight(c.CoOc[i], j) }

// ErrFormat is wrapped by every decoding error.
var ErrFormat = errors.New("catalog: bad format")

// Finish checks a catalog filled field by field (offline training builds
// one so, rec.BuildCatalog) and indexes its ids: call it once, before the
// catalog is used. Decode and Parse call it themselves. O(items).
func (c *Catalog) Finish() error { return c.finish() }

// finish builds the index and checks the shapes.
func (c *Catalog) finish() error {
	n := len(c.IDs)
	switch {
	case len(c.Meta) != n || len(c.Pop) != n || len(c.Recent) != n || len(c.Bias) != n || len(c.Trans) != n || len(c.CoOc) != n:
		return fmt.Errorf("%w: per-item sections disagree on the item count %d", ErrFormat, n)
	case c.Dim < 0 || len(c.Factors) != n*c.Dim:
		return fmt.Errorf("%w: factors hold %d values, want %d×%d", ErrFormat, len(c.Factors), n, c.Dim)
	case c.SeqDim < 0 || len(c.SeqCtx) != n*c.SeqDim || len(c.SeqItem) != n*c.SeqDim:
		return fmt.Errorf("%w: transition factors disagree with %d×%d", ErrFormat, n, c.SeqDim)
	case c.SeqDim > 0 && len(c.SeqBias) != n:
		return fmt.Errorf("%w: transition biases hold %d values, want %d", ErrFormat, len(c.SeqBias), n)
	}
	c.index = make(map[string]int, n)
	for i, id := range c.IDs {
		if id == "" {
			return fmt.Errorf("%w: items[%d]: empty id", ErrFormat, i)
		}
		if _, dup := c.index[id]; dup {
			return fmt.Errorf("%w: items[%d]: duplicate id %q", ErrFormat, i, id)
		}
		if len(c.Meta[i]) != len(c.MetaNames) {
			return fmt.Errorf("%w: items[%d]: %d metadata values, want %d", ErrFormat, i, len(c.Meta[i]), len(c.MetaNames))
		}
		c.index[id] = i
	}
	for _, rows := range [][][]Neighbor{c.Trans, c.CoOc} {
		for i, row := range rows {
			for _, nb := range row {
				if nb.Item < 0 || int(nb.Item) >= n || math.IsNaN(float64(nb.Weight)) {
					return fmt.Errorf("%w: items[%d]: neighbour %d out of range", ErrFormat, i, nb.Item)
				}
			}
		}
	}
	if err := c.checkFacets(); err != nil {
		return err
	}
	if c.Weights == nil {
		c.Weights = map[string]float64{}
	}
	if c.Scales == nil {
		c.Scales = map[string]float64{}
	}
	return nil
}

// MetaMap returns item i's metadata as memory signals carry it: field name
// to its values (each value of a list facet apart), empty fields left out.
// O(fields).
func (c *Catalog) MetaMap(i int) map[string][]string {
	m := make(map[string][]string, len(c.MetaNames))
	for k, n := range c.MetaNames {
		if vs := c.Values(i, k); len(vs) > 0 {
			m[n] = vs
		}
	}
	return m
}
