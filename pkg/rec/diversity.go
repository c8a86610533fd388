package rec

import (
	"fmt"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rank"
)

// DiversityReport is what the cap on one series (rank.Ranker.SeriesCap)
// does, measured natively on each case's memory built as the run builds it
// retrospectively: the 1 + 9 candidates ranked with and without it (what
// it costs in HR@1 and NDCG@10) and the user's pool (Control's) with and
// without it (what it changes in the top TopK).
type DiversityReport struct {
	Users   int              `json:"users"`
	Cap     int              `json:"series_cap"`
	With    DiversityFigures `json:"with_cap"`
	Without DiversityFigures `json:"without_cap"`
	// HeldOut is the same on the held-out fifth.
	HeldOut *DiversityReport `json:"heldout,omitempty"`
}

// DiversityFigures: HR@1 and NDCG@10 on the candidates; over the pools'
// top TopK, the mean largest number of items of one series, the share of
// users with more than the cap of one series, and the mean intra-list
// diversity (rank.Ranker.Diversity).
type DiversityFigures struct {
	HR1       float64 `json:"hr@1"`
	NDCG10    float64 `json:"ndcg@10"`
	MaxSeries float64 `json:"max_one_series"`
	OverCap   float64 `json:"users_over_cap"`
	ILD       float64 `json:"intra_list_diversity"`
}

// divCase is one case's outcome with or without the cap.
type divCase struct {
	rank, maxSeries int
	ild             float64
}

// Diversity measures DiversityReport over cases under the catalog cat.
// O(cases × (memory lifecycle + 2 rankings of the pool)).
func Diversity(d *dataset.RecBole, cat *catalog.Catalog, cases []Case, eventCap int) (DiversityReport, error) {
	with, without := rank.New(cat), rank.New(cat)
	without.SeriesCap = -1
	ctl := Control{Data: d}
	var w, wo []divCase
	for _, c := range cases {
		m, err := Retrospective(d, c, eventCap)
		if err != nil {
			return DiversityReport{}, fmt.Errorf("rec: user %s: %w", c.User, err)
		}
		u := rank.FromMemory(m)
		pool := ctl.pool(c)
		series := map[string]string{}
		preq := rank.Request{}
		for _, it := range pool {
			id := cat.IDs[it]
			series[id] = memory.SeriesKey(metaOf(d, it))
			preq.Candidates = append(preq.Candidates, rank.Candidate{ID: id})
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
			preq.K = TopK
			top, err := x.r.Rank(u, preq)
			if err != nil {
				return DiversityReport{}, err
			}
			count := map[string]int{}
			var ids []string
			for _, r := range top {
				ids = append(ids, r.ID)
				if s := series[r.ID]; s != "" {
					count[s]++
					dc.maxSeries = max(dc.maxSeries, count[s])
				}
			}
			dc.ild = x.r.Diversity(ids)
			*x.out = append(*x.out, dc)
		}
	}
	return newDiversityReport(cases, w, wo), nil
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
				x.f.MaxSeries += float64(dc.maxSeries)
				if dc.maxSeries > rank.DefaultSeriesCap {
					x.f.OverCap++
				}
				x.f.ILD += dc.ild
			}
			r.Users = acc.N()
			s := acc.Scores()
			x.f.HR1, x.f.NDCG10 = s.HR1, s.NDCG10
			if n := float64(acc.N()); n > 0 {
				x.f.MaxSeries /= n
				x.f.OverCap /= n
				x.f.ILD /= n
			}
		}
		return r
	}
	r := sum(func(Case) bool { return true })
	h := sum(func(c Case) bool { return HeldOut(c.User) })
	r.HeldOut = &h
	return r
}
