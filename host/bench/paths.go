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

// side is one host under test, by name ("wasm" or "native"), and how to open
// a fresh caller on it with the function that releases it.
type side struct {
	name  string
	fresh func() (engine.Caller, func(), error)
}

// hosts are the plugin on rt and the native engine, in that order.
func hosts(ctx context.Context, rt *host.Runtime) []side {
	return []side{
		{"wasm", func() (engine.Caller, func(), error) {
			in, err := rt.NewInstance(ctx)
			if err != nil {
				return nil, nil, err
			}
			return in, func() { in.Close(ctx) }, nil
		}},
		{"native", func() (engine.Caller, func(), error) { return engine.New(), func() {}, nil }},
	}
}

// paths times every hot path on one host into p: record a signal, rank 10
// candidates (when there is a catalog), add a unit to a memory of 500, and at
// each memory size select a slate, export the state and import it back.
func (r *runner) paths(h side, p *Paths, mem *workload.Memory, cat *catalog.Catalog, catBytes []byte) error {
	p.SelectMs, p.ExportMs, p.ImportMs, p.StateBytes = map[string]Stat{}, map[string]Stat{}, map[string]Stat{}, map[string]int{}
	p.MemoryBytes = map[string]int{}
	var err error
	if p.SignalUs, err = r.timeFresh(h, "signal", time.Microsecond, nil, func(c engine.Caller, i int) error {
		_, err := c.Call("record", workload.RecordSignal(i))
		return err
	}); err != nil {
		return err
	}
	if cat != nil {
		if p.Rank10Ms, err = r.timeFresh(h, "rank10", time.Millisecond, func(c engine.Caller) error {
			if _, err := c.Call("load_catalog", catBytes); err != nil {
				return err
			}
			for _, in := range workload.RankMemory(cat, 20) { // a user with 20 purchases
				if _, err := c.Call("record", in); err != nil {
					return err
				}
			}
			return nil
		}, func(c engine.Caller, i int) error {
			_, err := c.Call("rank", workload.Rank10(cat, i))
			return err
		}); err != nil {
			return err
		}
	}
	if p.AddUnitUs, err = r.timeFresh(h, "add_unit", time.Microsecond, func(c engine.Caller) error {
		_, err := c.Call("add_units", mem.AddUnits(0, 500))
		return err
	}, func(c engine.Caller, i int) error {
		_, err := c.Call("add_units", mem.AddCopy(i))
		return err
	}); err != nil {
		return err
	}
	for _, n := range r.Sizes {
		if err := r.memoryPaths(h, p, mem, n); err != nil {
			return err
		}
	}
	return nil
}

// memoryPaths times, on a fresh caller holding n units, select_slate,
// export_state and import_state, and records the state's size and the memory
// the units took.
func (r *runner) memoryPaths(h side, p *Paths, mem *workload.Memory, n int) error {
	k := strconv.Itoa(n)
	c, done, err := h.fresh()
	if err != nil {
		return err
	}
	heap0 := 0
	if h.name == "native" {
		heap0 = liveHeap() // the empty engine is already in it
	}
	defer done()
	if _, err := c.Call("add_units", mem.AddUnits(0, n)); err != nil {
		return err
	}
	if in, ok := c.(*host.Instance); ok {
		p.MemoryBytes[k] = in.MemoryBytes()
	} else {
		p.MemoryBytes[k] = max(0, liveHeap()-heap0)
		runtime.KeepAlive(c)
	}
	if p.SelectMs[k], err = r.measure(fmt.Sprintf("%s select %d units", h.name, n), time.Millisecond, func(i int) error {
		_, err := c.Call("select_slate", mem.Select(i, budget, ""))
		return err
	}); err != nil {
		return err
	}
	var state []byte
	if p.ExportMs[k], err = r.measure(fmt.Sprintf("%s export %d units", h.name, n), time.Millisecond, func(int) error {
		var err error
		state, err = c.Call("export_state", nil)
		return err
	}); err != nil {
		return err
	}
	p.StateBytes[k] = len(state)
	p.ImportMs[k], err = r.measure(fmt.Sprintf("%s import %d units", h.name, n), time.Millisecond, func(int) error {
		_, err := c.Call("import_state", state)
		return err
	})
	return err
}

// timeFresh times call on a fresh caller that setup (if any) prepared.
func (r *runner) timeFresh(h side, label string, unit time.Duration, setup func(engine.Caller) error,
	call func(c engine.Caller, i int) error) (Stat, error) {
	c, done, err := h.fresh()
	if err != nil {
		return Stat{}, err
	}
	defer done()
	if setup != nil {
		if err := setup(c); err != nil {
			return Stat{}, fmt.Errorf("%s %s: %w", h.name, label, err)
		}
	}
	return r.measure(h.name+" "+label, unit, func(i int) error { return call(c, i) })
}

// liveHeap is the Go heap in use after a collection.
func liveHeap() int {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int(m.HeapAlloc)
}
