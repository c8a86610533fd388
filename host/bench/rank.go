package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/intentlab"
	"github.com/recmem/recmem/pkg/workload"
)

// demoCatalogName names the page's catalog in the report.
const demoCatalogName = "web/catalog/games-demo.json, as the page builds it"

// rankSet finds what the rank paths rank with: the trained catalog of
// Options.Catalog for rank10 when it can be read, and the page's demo
// catalog (web/catalog/games-demo.json with its ranker spec and intent table,
// committed, so a fresh checkout has it) for rank10 otherwise and for the
// rank paths of workload.RankSizes. What cannot be found is said in
// rep.Skipped; rep.RankCatalog names rank10's catalog.
func (r *runner) rankSet(rep *Report) *rankSet {
	rs := &rankSet{}
	raw, err := os.ReadFile(r.Catalog)
	var cat *catalog.Catalog
	if err == nil {
		cat, err = catalog.Parse(raw)
	}
	if err == nil {
		rs.cat10, rs.cat10Bytes, rep.RankCatalog = cat, raw, r.Catalog
	}
	if r.Root == "" {
		rep.Skipped = append(rep.Skipped, "rank: web/catalog not found: run recmem bench from the repository")
	} else {
		pc, err := intentlab.ReadPageCatalog(filepath.Join(r.Root, "web", "catalog", "games-demo.json"), "", "")
		var b []byte
		if err == nil {
			b, err = pc.JSON()
		}
		var demo *catalog.Catalog
		if err == nil {
			demo, err = catalog.Parse(b)
		}
		if err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("rank: the page's catalog: %v", err))
		} else {
			rs.demo, rs.demoBytes, rs.withRankers = demo, b, true
			if rs.cat10 == nil {
				rs.cat10, rs.cat10Bytes, rep.RankCatalog = demo, b, demoCatalogName
			}
		}
	}
	if rs.cat10 == nil {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("rank10: catalog %s: no trained catalog and no page catalog (pass --catalog)", r.Catalog))
	}
	return rs
}

// before reads the module of Options.Before into rep.Before (its size and
// its own cold and warm start, as coldStart times them) and returns it
// compiled, for its plugin paths.
func (r *runner) before(ctx context.Context, cacheDir string, rep *Report) (*host.Runtime, error) {
	b, err := os.ReadFile(r.Before)
	if err != nil {
		return nil, err
	}
	tmp := &Report{ColdStart: map[string]float64{}}
	rt, err := coldStart(ctx, b, cacheDir, tmp)
	if err != nil {
		return nil, err
	}
	rep.Before = &Before{Wasm: r.Before, WasmBytes: len(b), WasmGzipBytes: gzipSize(b), WarmStartMs: tmp.WarmStartMs, ColdStart: tmp.ColdStart}
	return rt, nil
}

// phaseBreakdowns breaks the phase paths down (phases.go) on the plugin
// compiled with a clock (Options.Phases), natively with one, and on the
// module before when there is one, into rep.Phases. The clock is the calling
// thread's CPU time where it can be read (Linux), so that each phase counts
// the call's own work on a machine other processes load; else the wall
// clock. rep.PhasesClock says which.
func (r *runner) phaseBreakdowns(ctx context.Context, wasm []byte, cacheDir string, mem *workload.Memory, rs *rankSet, rep *Report) error {
	start := time.Now()
	clock := func() int64 { return int64(time.Since(start)) }
	rep.PhasesClock = "wall"
	if haveThreadCPU && selfCPU() >= 0 {
		clock, rep.PhasesClock = selfCPU, "thread CPU"
	}
	rt, err := host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir, Phases: true, Nanotime: clock})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	sides := []side{wasmSide(ctx, "wasm", rt), nativeSide(clock)}
	if r.Before != "" {
		rtb, err := host.Open(ctx, host.Options{WasmPath: r.Before, CacheDir: cacheDir, Phases: true, Nanotime: clock})
		if err != nil {
			return err
		}
		defer rtb.Close(ctx)
		sides = append(sides, wasmSide(ctx, "before", rtb))
	}
	phases, skipped, err := r.phases(sides, r.phasePaths(mem, rs))
	if err != nil {
		return err
	}
	rep.Phases = phases
	rep.Skipped = append(rep.Skipped, skipped...)
	return nil
}
