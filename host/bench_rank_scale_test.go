package host_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/workload"
)

// BenchmarkRankInstructionFirstWasm is the first rank request with an
// instruction through the .wasm, on a new instance that has just loaded a
// synthetic catalog of 1,682 or 64,000 items (workload.ScaledCatalog; 300
// candidates), for each of workload.ScaledInstructions (facet values only,
// title words, a typo): what a visitor of a big catalog waits for. Each
// iteration is a cold instance; the instance's start and load_catalog are
// not timed but reported (load-ms), with the first request's phases (the
// module's `phases`, in ms), the median of the 10 requests after it
// (median-ms) and the instance's memory after the first request (MiB).
func BenchmarkRankInstructionFirstWasm(b *testing.B) {
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, Phases: true,
		CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-"+runtime.GOARCH)})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close(ctx)
	for _, n := range []int{1682, 64000} {
		cat, err := workload.ScaledCatalog(n)
		if err != nil {
			b.Fatal(err)
		}
		raw := cat.Encode()
		for _, ins := range workload.ScaledInstructions {
			in := workload.ScaledRank(n, 300, ins.Text)
			b.Run(strconv.Itoa(n)+"/"+ins.Name, func(b *testing.B) { benchFirstWasm(b, rt, raw, in) })
		}
	}
}

func benchFirstWasm(b *testing.B, rt *host.Runtime, raw, in []byte) {
	ctx := context.Background()
	var load, median, mem float64
	phases := map[string]float64{}
	runs := 0
	for b.Loop() {
		b.StopTimer()
		inst, err := rt.NewInstance(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inst.Call("exports", nil); err != nil { // the runtime's start
			b.Fatal(err)
		}
		t0 := time.Now()
		if _, err := inst.Call("load_catalog", raw); err != nil {
			b.Fatal(err)
		}
		load += float64(time.Since(t0).Nanoseconds()) / 1e6
		b.StartTimer()
		if _, err := inst.Call("rank", in); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ph, err := engine.Phases.Call(inst, struct{}{})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range ph.Phases {
			phases[p.Name] += float64(p.Ns) / 1e6
		}
		mem += float64(inst.MemoryBytes()) / (1 << 20)
		var later []float64
		for range 10 {
			t := time.Now()
			if _, err := inst.Call("rank", in); err != nil {
				b.Fatal(err)
			}
			later = append(later, float64(time.Since(t).Nanoseconds())/1e6)
		}
		slices.Sort(later)
		median += later[len(later)/2]
		inst.Close(ctx)
		runs++
		b.StartTimer()
	}
	r := float64(runs)
	b.ReportMetric(load/r, "load-ms")
	b.ReportMetric(median/r, "median-ms")
	b.ReportMetric(mem/r, "MiB")
	for _, p := range []string{"intent", "score"} {
		b.ReportMetric(phases[p]/r, p+"-ms")
	}
}
