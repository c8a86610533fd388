package rec

import (
	"fmt"
	"slices"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rank"
)

// PopularPool is how many of the catalog's most popular items, less the
// user's history, the diversity measure ranks besides the random pool: the
// list a page shows is ranked from the popular items (the games page ranks
// its 1,000 most popular), where one series repeats as random items do not.
const PopularPool = 200

// DiversityReport is what the cap on one series (rank.Ranker.SeriesCap)
// does, measured natively on each case's memory built as the run builds it
// retrospectively: the 1 + 9 candidates ranked with and without it (what
// it costs in HR@1 and NDCG@10), and two lists ranked with and without it
// (what it changes in their top TopK): the user's random pool (Control's)
// and the PopularPool most popular items not in the history.
type DiversityReport struct {
	Users   int              `json:"users"`
	Cap     int              `json:"series_cap"`
	With    DiversityFigures `json:"with_cap"`
	Without DiversityFigures `json:"without_cap"`
	// HeldOut is the same on the held-out fifth.
	HeldOut *DiversityReport `json:"heldout,omitempty"`
}

// DiversityFigures: HR@1 and NDCG@10 on the candidates, and the top TopK
// of the random pool and of the popular items.
type DiversityFigures struct {
	HR1     float64 `json:"hr@1"`
	NDCG10  float64 `json:"ndcg@10"`
	Pool    ListMix `json:"pool"`
	Popular ListMix `json:"popular"`
}

// ListMix is what a top TopK holds, over users: the mean largest number of
// items of one series, the share of users with more than the cap of one
// series, and the mean intra-list diversity (rank.Ranker.Diversity).
type ListMix struct {
	MaxSeries float64 `json:"max_one_series"`
	OverCap   float64 `json:"users_over_cap"`
	ILD       float64 `json:"intra_list_diversity"`
}

// divCase is one case's outcome with or without the cap.
type divCase struct {
	rank          int
	pool, popular listCase
}

// listCase is one top TopK's largest count of one series and diversity.
type listCase struct {
	maxSeries int
	ild       float64
}

// Diversity measures DiversityReport over cases under the catalog cat.
// O(cases × (memory lifecycle + 4 rankings of a pool)).
func Diversity(d *dataset.RecBole, cat *catalog.Catalog, cases []Case, eventCap int) (DiversityReport, error) {
	with, without := rank.New(cat), rank.New(cat)
	without.SeriesCap = -1
	ctl := Control{Data: d}
	popular := make([]int, cat.Len())
	for i := range popular {
		popular[i] = i
	}
	slices.SortStableFunc(popular, func(a, b int) int {
		switch {
		case cat.Pop[a] > cat.Pop[b]:
			return -1
		case cat.Pop[a] < cat.Pop[b]:
			return 1
		}
		return 0
	})
	series := make(map[int]string, cat.Len())
	seriesOf := func(it int) string {
		s, ok := series[it]
		if !ok {
			s = memory.SeriesKey(metaOf(d, it))
			series[it] = s
		}
		return s
	}
	var w, wo []divCase
	for _, c := range cases {
		m, err := Retrospective(d, c, eventCap)
		if err != nil {
			return DiversityReport{}, fmt.Errorf("rec: user %s: %w", c.User, err)
		}
		u := rank.FromMemory(m)
		seen := map[int]bool{c.Target: true}
		for _, it := range c.History {
			seen[it] = true
		}
		var pop []int
		for _, it := range popular {
			if len(pop) == PopularPool {
				break
			}
			if !seen[it] {
				pop = append(pop, it)
			}
		}
		for _, x := range []struct {
			r   *rank.Ranker
			out *[]divCase
		}{{with, &w}, {without, &wo}} {
			ranked, err := x.r.Rank(u, RequestOf(cat, c.Candidates))
			if err != nil {
				return DiversityReport{}, err
			}
			dc := divCase{}
			for k, r := range ranked {
				if r.ID == cat.IDs[c.Candidates[0]] {
					dc.rank = k
				}
			}
			// Ties broken against the target, as TargetRank does.
			for k := dc.rank + 1; k < len(ranked) && ranked[k].Score == ranked[dc.rank].Score; k++ {
				dc.rank = k
			}
			if dc.pool, err = topMix(x.r, cat, u, ctl.pool(c), seriesOf); err != nil {
				return DiversityReport{}, err
			}
			if dc.popular, err = topMix(x.r, cat, u, pop, seriesOf); err != nil {
				return DiversityReport{}, err
			}
			*x.out = append(*x.out, dc)
		}
	}
	return newDiversityReport(cases, w, wo), nil
}

// topMix ranks items for u with r and reads its top TopK.
func topMix(r *rank.Ranker, cat *catalog.Catalog, u rank.User, items []int, seriesOf func(int) string) (listCase, error) {
	req := RequestOf(cat, items)
	req.K = TopK
	top, err := r.Rank(u, req)
	if err != nil {
		return listCase{}, err
	}
	at := make(map[string]int, len(items))
	for _, it := range items {
		at[cat.IDs[it]] = it
	}
	var lc listCase
	count := map[string]int{}
	var ids []string
	for _, x := range top {
		ids = append(ids, x.ID)
		if s := seriesOf(at[x.ID]); s != "" {
			count[s]++
			lc.maxSeries = max(lc.maxSeries, count[s])
		}
	}
	lc.ild = r.Diversity(ids)
	return lc, nil
}

func newDiversityReport(cases []Case, w, wo []divCase) DiversityReport {
	sum := func(keep func(Case) bool) DiversityReport {
		r := DiversityReport{Cap: rank.DefaultSeriesCap}
		for _, x := range []struct {
			cs []divCase
			f  *DiversityFigures
		}{{w, &r.With}, {wo, &r.Without}} {
			var acc Accumulator
			for i, c := range cases {
				if !keep(c) {
					continue
				}
				dc := x.cs[i]
				acc.Add(dc.rank)
				x.f.Pool.add(dc.pool)
				x.f.Popular.add(dc.popular)
			}
			r.Users = acc.N()
			s := acc.Scores()
			x.f.HR1, x.f.NDCG10 = s.HR1, s.NDCG10
			x.f.Pool.mean(acc.N())
			x.f.Popular.mean(acc.N())
		}
		return r
	}
	r := sum(func(Case) bool { return true })
	h := sum(func(c Case) bool { return HeldOut(c.User) })
	r.HeldOut = &h
	return r
}

func (m *ListMix) add(lc listCase) {
	m.MaxSeries += float64(lc.maxSeries)
	if lc.maxSeries > rank.DefaultSeriesCap {
		m.OverCap++
	}
	m.ILD += lc.ild
}

func (m *ListMix) mean(n int) {
	if n > 0 {
		m.MaxSeries /= float64(n)
		m.OverCap /= float64(n)
		m.ILD /= float64(n)
	}
}
