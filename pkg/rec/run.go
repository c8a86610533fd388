package rec

import (
	"fmt"
	"sync"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
)

// Opener opens one caller of the exports (a native engine, or an instance of
// the .wasm module) and the function that releases it.
type Opener func() (engine.Caller, func(), error)

// RunResult is what a replay of many users gave.
type RunResult struct {
	Ranks          []int          // the target's rank, per case
	Ops            map[string]int // lifecycle operations over all users
	WithProfile    int            // users ranked with a profile
	Responsiveness Responsiveness // over the probed users
	LLM            Outcomes       // what became of the LLM's answers
	Quality        llm.Quality    // the users' memories, judged (llm.MemoryQuality)
}

// Scores is the metrics over the run's ranks.
func (r RunResult) Scores() Scores { return RankScores(r.Ranks) }

// OpsShare is each operation's share of all operations.
func (r RunResult) OpsShare() map[string]float64 {
	total := 0
	for _, n := range r.Ops {
		total += n
	}
	out := make(map[string]float64, len(r.Ops))
	for op, n := range r.Ops {
		out[op] = float64(n) / float64(max(1, total))
	}
	return out
}

// OpsPerUser is each operation's mean count per user.
func (r RunResult) OpsPerUser() map[string]float64 {
	out := make(map[string]float64, len(r.Ops))
	for op, n := range r.Ops {
		out[op] = float64(n) / float64(max(1, len(r.Ranks)))
	}
	return out
}

// ProgressEvery is how many users a run finishes between progress lines.
const ProgressEvery = 500

// Run replays every case (Replay.User) on workers callers from open, each
// loading catalog once, and measures the probe of each case that has one
// (probes are keyed by case index) on the same caller, after its case.
// Results are in case order whatever the workers' interleaving: the same
// cases give the same RunResult. progress (may be nil) hears every
// ProgressEvery users. Cost: the users' replays, spread over workers.
func (r Replay) Run(cases []Case, probes map[int]Probe, catalog []byte, open Opener, workers int, progress func(string)) (RunResult, error) {
	if err := r.check(); err != nil {
		return RunResult{}, err
	}
	users := make([]UserResult, len(cases))
	before, after := make([]float64, len(cases)), make([]float64, len(cases))
	err := eachCase(len(cases), catalog, open, workers, progress, "", func(c engine.Caller, i int) error {
		var err error
		if users[i], err = r.User(c, cases[i]); err != nil {
			return fmt.Errorf("user %s: %w", cases[i].User, err)
		}
		if p, ok := probes[i]; ok {
			if before[i], after[i], err = r.Probe(c, p); err != nil {
				return fmt.Errorf("user %s: responsiveness: %w", cases[i].User, err)
			}
		}
		return nil
	})
	if err != nil {
		return RunResult{}, err
	}
	return gather(users, probes, before, after), nil
}

// eachCase calls each(c, i) for i in 0..n-1, on workers callers from open,
// each having loaded catalog once, every i once, in any order across
// callers (each writes its own slot of the caller's results). progress
// (may be nil) hears every ProgressEvery cases, with label before the
// count. The first error of any worker stops that worker and is returned.
func eachCase(n int, catalog []byte, open Opener, workers int, progress func(string), label string, each func(c engine.Caller, i int) error) error {
	errs := make([]error, max(1, workers))
	var next, done int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range errs {
		wg.Go(func() {
			c, release, err := open()
			if err != nil {
				errs[w] = err
				return
			}
			defer release()
			if _, err := engine.LoadCatalog.Call(c, engine.Raw(catalog)); err != nil {
				errs[w] = err
				return
			}
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				if errs[w] = each(c, i); errs[w] != nil {
					return
				}
				mu.Lock()
				done++
				if done%ProgressEvery == 0 && progress != nil {
					progress(fmt.Sprintf("%s%d/%d users", label, done, n))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// gather sums the users' results in case order.
func gather(users []UserResult, probes map[int]Probe, before, after []float64) RunResult {
	res := RunResult{Ranks: make([]int, len(users)), Ops: map[string]int{}, LLM: Outcomes{}}
	var b, a []float64
	for i, u := range users {
		res.Ranks[i] = u.Rank
		for op, n := range u.Ops {
			res.Ops[op] += n
		}
		if u.Profile {
			res.WithProfile++
		}
		res.LLM.Merge(u.LLM)
		res.Quality.Add(u.Quality)
		if _, ok := probes[i]; ok {
			b, a = append(b, before[i]), append(a, after[i])
		}
	}
	res.Responsiveness = NewResponsiveness(b, a)
	return res
}

// Responsiveness is what a run reports about negative feedback (see Probe):
// the mean drop of the genre's share in the top TopK ("drop"), over Users
// users, with the mean shares before and after and how many users' share
// rose or fell.
type Responsiveness struct {
	Users  int     `json:"users"`
	Before float64 `json:"share_before"`
	After  float64 `json:"share_after"`
	Drop   float64 `json:"drop"`
	Rose   int     `json:"users_share_rose"`
	Fell   int     `json:"users_share_fell"`
}

// NewResponsiveness averages the probes' shares before and after (aligned),
// in order; with no probe, every figure is 0 (never NaN). O(len(before)).
func NewResponsiveness(before, after []float64) Responsiveness {
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
