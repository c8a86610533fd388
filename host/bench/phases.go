package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/workload"
)

// PhaseBreakdown is where one path's time goes inside the module: the
// median of each phase over the calls timed (the phases export,
// docs/phases.md), in the order the phases first ended, and the median of
// the calls' sums. A phase a call did not run counts 0 for it.
type PhaseBreakdown struct {
	N       int     `json:"n"`
	TotalUs float64 `json:"total_us"`
	Phases  []Phase `json:"phases"`
}

// Phase is one phase's median in microseconds.
type Phase struct {
	Name     string  `json:"name"`
	MedianUs float64 `json:"median_us"`
}

// phaseIters bounds the calls broken down per path and host (fewer with a
// smaller Options.Iters).
const phaseIters = 40

// phasePath is one path broken down into phases: how to prepare a fresh
// caller and the call, by index.
type phasePath struct {
	name  string
	setup func(c engine.Caller) error
	call  func(c engine.Caller, i int) error
}

// phasePaths are the paths broken down: recording a signal, adding a unit
// to 500, ranking 200 candidates with and without an instruction (when the
// page's catalog was found), and selecting at every memory size.
func (r *runner) phasePaths(mem *workload.Memory, rs *rankSet) []phasePath {
	ps := []phasePath{
		{"signal", nil, func(c engine.Caller, i int) error {
			_, err := c.Call("record", workload.RecordSignal(i))
			return err
		}},
		{"add_unit", func(c engine.Caller) error {
			_, err := c.Call("add_units", mem.AddUnits(0, 500))
			return err
		}, func(c engine.Caller, i int) error {
			_, err := c.Call("add_units", mem.AddCopy(i))
			return err
		}},
	}
	if rs.withRankers {
		setup := func(c engine.Caller) error { return rankSetup(c, rs.demo, rs.demoBytes) }
		ps = append(ps, phasePath{"rank_200", setup, func(c engine.Caller, i int) error {
			_, err := c.Call("rank", workload.RankN(rs.demo, i, 200))
			return err
		}}, phasePath{"rank_200_instruction", setup, func(c engine.Caller, i int) error {
			_, err := c.Call("rank", workload.RankInstructed(rs.demo, i, 200))
			return err
		}})
	}
	for _, n := range r.Sizes {
		ps = append(ps, phasePath{"select_" + strconv.Itoa(n), func(c engine.Caller) error {
			_, err := c.Call("add_units", mem.AddUnits(0, n))
			return err
		}, func(c engine.Caller, i int) error {
			_, err := c.Call("select_slate", mem.Select(i, budget, ""))
			return err
		}})
	}
	return ps
}

// phases breaks every phase path down on every side whose module times its
// phases (a side that has no phases export is skipped, and the second result
// says so). The sides are the plugin opened with Options.Phases and the
// native engine with a clock.
func (r *runner) phases(sides []side, paths []phasePath) (map[string]map[string]*PhaseBreakdown, []string, error) {
	out := map[string]map[string]*PhaseBreakdown{}
	var skipped []string
	for _, s := range sides {
		byPath := map[string]*PhaseBreakdown{}
		for _, p := range paths {
			r.progress("bench: phases of %s on %s", p.name, s.name)
			b, err := r.breakdown(s, p)
			if err != nil {
				if errorsIsUnknownExport(err) {
					skipped = append(skipped, fmt.Sprintf("phases on %s: the module has no phases export", s.name))
					byPath = nil
					break
				}
				return nil, nil, fmt.Errorf("phases of %s on %s: %w", p.name, s.name, err)
			}
			byPath[p.name] = b
		}
		if byPath != nil {
			out[s.name] = byPath
		}
	}
	return out, skipped, nil
}

// breakdown times path p on a fresh caller of side s, asking the phases
// export after every call. The caller lives on one thread, locked, so that a
// clock of the thread's CPU time never goes back for it.
func (r *runner) breakdown(s side, p phasePath) (*PhaseBreakdown, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, done, err := s.fresh()
	if err != nil {
		return nil, err
	}
	defer done()
	if p.setup != nil {
		if err := p.setup(c); err != nil {
			return nil, err
		}
	}
	var order []string
	samples := map[string][]float64{}
	var totals []float64
	n := min(r.Iters, phaseIters)
	start := time.Now()
	for i := 0; i < warmup+n && (i < 2*warmup || time.Since(start) < r.MaxTime); i++ {
		if err := p.call(c, i); err != nil {
			return nil, err
		}
		got, err := engine.Phases.Call(c, struct{}{})
		if err != nil {
			return nil, err
		}
		if i < warmup {
			continue
		}
		k := len(totals)
		var sum float64
		for _, ph := range got.Phases {
			us := float64(ph.Ns) / 1e3
			if _, ok := samples[ph.Name]; !ok {
				order = append(order, ph.Name)
				samples[ph.Name] = make([]float64, k) // 0 in the calls before
			}
			samples[ph.Name] = append(samples[ph.Name], us)
			sum += us
		}
		totals = append(totals, sum)
		for name, xs := range samples {
			if len(xs) == k { // not run by this call
				samples[name] = append(xs, 0)
			}
		}
	}
	b := &PhaseBreakdown{N: len(totals), TotalUs: median(totals)}
	for _, name := range order {
		b.Phases = append(b.Phases, Phase{name, sig4(median(samples[name]))})
	}
	b.TotalUs = sig4(b.TotalUs)
	return b, nil
}

// median is the middle of xs (the mean of the two middles for an even
// count), 0 for none. O(n log n).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// errorsIsUnknownExport reports whether err says the module has no such
// export (a module built before the export existed): engine.ErrUnknownExport
// natively, the same message from the Go host.
func errorsIsUnknownExport(err error) bool {
	return errors.Is(err, engine.ErrUnknownExport) || strings.Contains(err.Error(), "engine: unknown export")
}

// nodePhases reads the Node runner's phases (web/bench/lib.mjs benchPhases,
// timed with the WASI clock of @extism/extism: wall time) into breakdowns,
// nil when it has none.
func nodePhases(node map[string]any) map[string]*PhaseBreakdown {
	raw, ok := node["phases"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var out map[string]*PhaseBreakdown
	if json.Unmarshal(b, &out) != nil || len(out) == 0 {
		return nil
	}
	return out
}
