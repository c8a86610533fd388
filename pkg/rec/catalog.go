package rec

import (
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
)

// RecentWindow and RecentDecay set the recency-weighted popularity, chosen on
// the Games-6k validation split (window 10, decay 0.8 beat windows 1 and 3
// and no decay).
const (
	RecentWindow = 10
	RecentDecay  = 0.8
)

// DefaultNeighbors is how many transition successors and co-occurrence
// neighbours are kept per item.
const DefaultNeighbors = 50

// BuildCatalog assembles a catalog from a data set's items, the training histories
// (item indices of d), a BPR model over the same items and, when seq is not
// nil, a factorised transition model (TrainBPR over Successors: its user
// rows are the items as predecessors). It keeps the top k
// transitions and co-occurrence neighbours of each item (k ≤ 0 means
// DefaultNeighbors). Weights are left empty (LearnWeights).
// O(Σ |s|² + items · k log k).
func BuildCatalog(d *dataset.RecBole, histories [][]int, model, seq *BPR, k int) *catalog.Catalog {
	if k <= 0 {
		k = DefaultNeighbors
	}
	n := len(d.Items)
	c := &catalog.Catalog{Dataset: d.Name, MetaNames: d.MetaNames, Dim: model.Dim,
		IDs: make([]string, n), Meta: make([][]string, n), Trans: make([][]catalog.Neighbor, n), CoOc: make([][]catalog.Neighbor, n)}
	for i, it := range d.Items {
		c.IDs[i] = it.ID
		c.Meta[i] = make([]string, len(d.MetaNames))
		for m, name := range d.MetaNames {
			c.Meta[i][m] = it.Meta[name]
		}
	}
	c.Facets = catalog.InferFacets(c.MetaNames, c.Meta)
	for m, typ := range d.MetaTypes {
		switch f := &c.Facets[m]; {
		case f.Name == "title":
		case dataset.ListColumn(f.Name, typ):
			f.Type, f.Unit = catalog.TypeList, ""
		case typ == "float":
			f.Type, f.Unit = catalog.TypeNumber, catalog.UnitOf(f.Name)
		}
	}
	pop := Popularity(histories, n)
	c.Pop = make([]float32, n)
	for i, p := range pop {
		c.Pop[i] = float32(p)
	}
	c.Recent = make([]float32, n)
	for i, p := range RecentPopularity(histories, n, RecentWindow, RecentDecay) {
		c.Recent[i] = float32(p)
	}
	c.Factors = append([]float32(nil), model.Item...)
	c.Bias = append([]float32(nil), model.ItemBias...)
	if seq != nil {
		c.SeqDim = seq.Dim
		c.SeqCtx = append([]float32(nil), seq.User...)
		c.SeqItem = append([]float32(nil), seq.Item...)
		c.SeqBias = append([]float32(nil), seq.ItemBias...)
	}
	tr, co := Transitions(histories, n), CoOccurrence(histories, n)
	for i := range n {
		c.Trans[i] = top(tr, i, k)
		c.CoOc[i] = top(co, i, k)
	}
	if err := c.Finish(); err != nil {
		panic("rec: BuildCatalog produced an inconsistent catalog: " + err.Error())
	}
	return c
}

func top(m *Sparse, i, k int) []catalog.Neighbor {
	nb := m.Top(i, k)
	out := make([]catalog.Neighbor, len(nb))
	for x, e := range nb {
		out[x] = catalog.Neighbor{Item: int32(e.Item), Weight: float32(e.Weight)}
	}
	return out
}
