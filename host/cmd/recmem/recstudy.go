package main

import (
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/rec"
)

// Responsiveness is what eval rec reports about negative feedback (see
// rec.Probe): the mean drop of the genre's share in the top 10 ("responsiveness"),
// over Users users, with the mean shares before and after.
type Responsiveness struct {
	Users  int     `json:"users"`
	Before float64 `json:"share_before"`
	After  float64 `json:"share_after"`
	Drop   float64 `json:"drop"`
	Rose   int     `json:"users_share_rose"`
	Fell   int     `json:"users_share_fell"`
}

// probe measures one user's responsiveness on instance c: the pool ranked
// with the memory of the history without the low ratings on the genre, then
// again once they are streamed in. It returns the shares before and after.
func (u userRun) probe(c engine.Caller, p rec.Probe) (before, after float64, err error) {
	ids := make([]string, len(p.Pool))
	for i, it := range p.Pool {
		ids[i] = u.d.Items[it].ID
	}
	// The probe is a measurement apart from the run: its lifecycle ops and
	// LLM outcomes are not counted in the report.
	ops, tally := map[string]int{}, outcomeTally{}
	share := func() (float64, error) {
		m, err := rankScores(c, ids, tally)
		if err != nil {
			return 0, err
		}
		sc := make([]float64, len(ids))
		for i, id := range ids {
			sc[i] = m[id]
		}
		return p.Share(sc), nil
	}
	if err := u.replay(c, p.User, recSignals(u.d, p.Rest), ops, tally); err != nil {
		return 0, 0, err
	}
	if before, err = share(); err != nil {
		return 0, 0, err
	}
	if err := u.stream(c, recSignals(u.d, p.Low), ops, tally); err != nil {
		return 0, 0, err
	}
	after, err = share()
	return before, after, err
}

// summarizeProbes averages the probes' shares (NaN-free: a zero report when no
// user qualifies).
func summarizeProbes(before, after []float64) Responsiveness {
	r := Responsiveness{Users: len(before)}
	if r.Users == 0 {
		return r
	}
	for i := range before {
		r.Before += before[i]
		r.After += after[i]
		switch {
		case after[i] > before[i]:
			r.Rose++
		case after[i] < before[i]:
			r.Fell++
		}
	}
	r.Before /= float64(r.Users)
	r.After /= float64(r.Users)
	r.Drop = r.Before - r.After
	return r
}
