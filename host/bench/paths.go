package bench

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/workload"
)

// side is one host under test, by name ("wasm", "native" or "before"), and
// how to open a fresh caller on it with the function that releases it.
type side struct {
	name  string
	fresh func() (engine.Caller, func(), error)
}

// wasmSide is the plugin compiled in rt, under name.
func wasmSide(ctx context.Context, name string, rt *host.Runtime) side {
	return side{name, func() (engine.Caller, func(), error) {
		in, err := rt.NewInstance(ctx)
		if err != nil {
			return nil, nil, err
		}
		return in, func() { in.Close(ctx) }, nil
	}}
}

// nativeSide is the engine called in-process; with a clock it times its
// phases (phases.go).
func nativeSide(clock func() int64) side {
	return side{"native", func() (engine.Caller, func(), error) {
		e := engine.New()
		e.SetClock(clock)
		return e, func() {}, nil
	}}
}

// rankSet is what the rank paths rank with: the catalog rank10 uses (the
// trained one when there is one, else the page's) and the page's demo
// catalog, which every checkout has, for the candidate counts of
// workload.RankSizes, with and without an instruction.
type rankSet struct {
	cat10       *catalog.Catalog
	cat10Bytes  []byte
	demo        *catalog.Catalog
	demoBytes   []byte
	withRankers bool // rank paths beyond rank10 are measured
}

// callers holds one fresh caller per side, released together.
type callers struct {
	cs    []engine.Caller
	dones []func()
}

func (c *callers) close() {
	for _, d := range c.dones {
		d()
	}
}

// open opens a fresh caller on every side and runs setup on each (the
// native side first when heap is set: it gets what setup added to the live
// heap, before the other sides allocate).
func open(sides []side, setup func(i int, c engine.Caller) error) (*callers, error) {
	out := &callers{}
	for i, s := range sides {
		c, done, err := s.fresh()
		if err != nil {
			out.close()
			return nil, err
		}
		out.cs, out.dones = append(out.cs, c), append(out.dones, done)
		if setup != nil {
			if err := setup(i, c); err != nil {
				out.close()
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	return out, nil
}

// paths times every hot path on every side, the sides' calls alternating so
// that a machine whose speed drifts slows them alike: record a signal, rank
// (10 candidates; and 20, 200 and 1,000, with and without an instruction),
// add a unit to a memory of 500, and at each memory size select a slate,
// export the state and import it back. results[i] gets side i's figures.
func (r *runner) paths(sides []side, results []*Paths, mem *workload.Memory, rs *rankSet) error {
	for _, p := range results {
		p.SelectMs, p.ExportMs, p.ImportMs, p.StateBytes = map[string]Stat{}, map[string]Stat{}, map[string]Stat{}, map[string]int{}
		p.MemoryBytes = map[string]int{}
		if rs.withRankers {
			p.RankMs, p.RankInstructionMs = map[string]Stat{}, map[string]Stat{}
		}
	}
	set := func(st []Stat, field func(p *Paths) *Stat) {
		for i, s := range st {
			*field(results[i]) = s
		}
	}
	st, err := r.timeFresh(sides, "signal", time.Microsecond, nil, func(c engine.Caller, i int) error {
		_, err := c.Call("record", workload.RecordSignal(i))
		return err
	})
	if err != nil {
		return err
	}
	set(st, func(p *Paths) *Stat { return &p.SignalUs })
	if rs.cat10 != nil {
		if err := r.rankPaths(sides, results, rs); err != nil {
			return err
		}
	}
	st, err = r.timeFresh(sides, "add_unit", time.Microsecond, func(c engine.Caller) error {
		_, err := c.Call("add_units", mem.AddUnits(0, 500))
		return err
	}, func(c engine.Caller, i int) error {
		_, err := c.Call("add_units", mem.AddCopy(i))
		return err
	})
	if err != nil {
		return err
	}
	set(st, func(p *Paths) *Stat { return &p.AddUnitUs })
	for _, n := range r.Sizes {
		if err := r.memoryPaths(sides, results, mem, n); err != nil {
			return err
		}
	}
	return nil
}

// rankSetup loads a catalog and the purchases of a user with
// workload.RankSetup of them.
func rankSetup(c engine.Caller, cat *catalog.Catalog, raw []byte) error {
	if _, err := c.Call("load_catalog", raw); err != nil {
		return err
	}
	for _, in := range workload.RankMemory(cat, workload.RankSetup) {
		if _, err := c.Call("record", in); err != nil {
			return err
		}
	}
	return nil
}

// rankPaths times rank10, and rank of each of workload.RankSizes candidates
// from the page's catalog with and without an instruction, on one caller
// per side (rank changes no state).
func (r *runner) rankPaths(sides []side, results []*Paths, rs *rankSet) error {
	cs, err := open(sides, func(_ int, c engine.Caller) error { return rankSetup(c, rs.cat10, rs.cat10Bytes) })
	if err != nil {
		return fmt.Errorf("rank10: %w", err)
	}
	st, err := r.timeOn(sides, cs.cs, "rank10", time.Millisecond, func(c engine.Caller, i int) error {
		_, err := c.Call("rank", workload.Rank10(rs.cat10, i))
		return err
	})
	cs.close()
	if err != nil {
		return err
	}
	for i, s := range st {
		results[i].Rank10Ms = s
	}
	if !rs.withRankers {
		return nil
	}
	cs, err = open(sides, func(_ int, c engine.Caller) error { return rankSetup(c, rs.demo, rs.demoBytes) })
	if err != nil {
		return fmt.Errorf("rank: %w", err)
	}
	defer cs.close()
	for _, n := range workload.RankSizes {
		k := strconv.Itoa(n)
		for _, instructed := range []bool{false, true} {
			label, input := "rank "+k, workload.RankN
			if instructed {
				label, input = "rank "+k+" with an instruction", workload.RankInstructed
			}
			st, err := r.timeOn(sides, cs.cs, label, time.Millisecond, func(c engine.Caller, i int) error {
				_, err := c.Call("rank", input(rs.demo, i, n))
				return err
			})
			if err != nil {
				return err
			}
			for i, s := range st {
				if instructed {
					results[i].RankInstructionMs[k] = s
				} else {
					results[i].RankMs[k] = s
				}
			}
		}
	}
	return nil
}

// memoryPaths times, on fresh callers holding n units, select_slate,
// export_state and import_state, and records the state's size and the memory
// the units took.
func (r *runner) memoryPaths(sides []side, results []*Paths, mem *workload.Memory, n int) error {
	k := strconv.Itoa(n)
	// The native side loads first, alone, so that what loading the units
	// added to the live heap is its own.
	order := make([]int, 0, len(sides))
	for i, s := range sides {
		if s.name == "native" {
			order = append([]int{i}, order...)
		} else {
			order = append(order, i)
		}
	}
	cs := &callers{cs: make([]engine.Caller, len(sides)), dones: make([]func(), len(sides))}
	defer cs.close()
	for _, i := range order {
		c, done, err := sides[i].fresh()
		if err != nil {
			return err
		}
		cs.cs[i], cs.dones[i] = c, done
		heap0 := 0
		if sides[i].name == "native" {
			heap0 = liveHeap() // the empty engine is already in it
		}
		if _, err := c.Call("add_units", mem.AddUnits(0, n)); err != nil {
			return fmt.Errorf("%s: %w", sides[i].name, err)
		}
		if in, ok := c.(*host.Instance); ok {
			results[i].MemoryBytes[k] = in.MemoryBytes()
		} else {
			results[i].MemoryBytes[k] = max(0, liveHeap()-heap0)
			runtime.KeepAlive(c)
		}
	}
	st, err := r.timeOn(sides, cs.cs, "select "+k+" units", time.Millisecond, func(c engine.Caller, i int) error {
		_, err := c.Call("select_slate", mem.Select(i, budget, ""))
		return err
	})
	if err != nil {
		return err
	}
	for i, s := range st {
		results[i].SelectMs[k] = s
	}
	states := make(map[engine.Caller][]byte, len(sides))
	st, err = r.timeOn(sides, cs.cs, "export "+k+" units", time.Millisecond, func(c engine.Caller, _ int) error {
		b, err := c.Call("export_state", nil)
		states[c] = b
		return err
	})
	if err != nil {
		return err
	}
	for i, s := range st {
		results[i].ExportMs[k] = s
		results[i].StateBytes[k] = len(states[cs.cs[i]])
	}
	st, err = r.timeOn(sides, cs.cs, "import "+k+" units", time.Millisecond, func(c engine.Caller, _ int) error {
		_, err := c.Call("import_state", states[c])
		return err
	})
	if err != nil {
		return err
	}
	for i, s := range st {
		results[i].ImportMs[k] = s
	}
	return nil
}

// timeFresh times call on a fresh caller per side that setup (if any)
// prepared.
func (r *runner) timeFresh(sides []side, label string, unit time.Duration, setup func(engine.Caller) error,
	call func(c engine.Caller, i int) error) ([]Stat, error) {
	cs, err := open(sides, func(_ int, c engine.Caller) error {
		if setup == nil {
			return nil
		}
		return setup(c)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	defer cs.close()
	return r.timeOn(sides, cs.cs, label, unit, call)
}

// timeOn times call on each side's caller, alternating (measureEach).
func (r *runner) timeOn(sides []side, cs []engine.Caller, label string, unit time.Duration, call func(c engine.Caller, i int) error) ([]Stat, error) {
	names := make([]string, len(sides))
	for i, s := range sides {
		names[i] = s.name + " " + label
	}
	return r.measureEach(names, unit, func(s, i int) error { return call(cs[s], i) })
}

// liveHeap is the Go heap in use after a collection.
func liveHeap() int {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int(m.HeapAlloc)
}
