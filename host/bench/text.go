package bench

import (
	"fmt"
	"io"
	"strconv"
)

// WriteText writes the report for a reader at a terminal: the module, each
// path's plugin and native medians with the plugin's p90 and their ratio, the
// peers, recmem's slate completeness, and each budget met or missed.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "recmem bench on %v (%v cpus, %v)\n\n", r.Machine["cpu"], r.Machine["cpus"], r.Machine["go"])
	fmt.Fprintf(w, "plugin: %d bytes, %d gzipped; warm start to first answer %.1f ms (compile %.1f ms without cache, %.1f ms with)\n\n",
		r.WasmBytes, r.WasmGzipBytes, r.WarmStartMs, r.ColdStart["compile_nocache_ms"], r.ColdStart["compile_warm_cache_ms"])
	fmt.Fprintf(w, "%-22s %14s %14s %14s %8s\n", "path (median / p90)", "plugin", "native", "p90 plugin", "ratio")
	row := func(name string, a, b Stat, unit string) {
		ratio := 0.0
		if b.Median > 0 {
			ratio = a.Median / b.Median
		}
		fmt.Fprintf(w, "%-22s %11.4g %-2s %11.4g %-2s %11.4g %-2s %7.1fx\n", name, a.Median, unit, b.Median, unit, a.P90, unit, ratio)
	}
	row("record signal", r.Wasm.SignalUs, r.Native.SignalUs, "us")
	row("add unit", r.Wasm.AddUnitUs, r.Native.AddUnitUs, "us")
	row("rank 10", r.Wasm.Rank10Ms, r.Native.Rank10Ms, "ms")
	keys := sizes(r.Wasm.SelectMs)
	for _, n := range keys {
		k := strconv.Itoa(n)
		row("select "+k+" units", r.Wasm.SelectMs[k], r.Native.SelectMs[k], "ms")
	}
	for _, n := range keys {
		k := strconv.Itoa(n)
		row("export "+k+" units", r.Wasm.ExportMs[k], r.Native.ExportMs[k], "ms")
		row("import "+k+" units", r.Wasm.ImportMs[k], r.Native.ImportMs[k], "ms")
	}
	fmt.Fprintln(w)
	for _, name := range []string{"bleve", "orama"} {
		p, _ := r.Peers[name].(map[string]any)
		if p == nil {
			continue
		}
		if e, ok := p["error"]; ok {
			fmt.Fprintf(w, "%s: %v\n", name, e)
			continue
		}
		fmt.Fprintf(w, "%s: r_slate %v;", name, p["r_slate"])
		for _, n := range keys {
			fmt.Fprintf(w, " %d units %.4g ms;", n, peerSelect(p, strconv.Itoa(n)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "recmem: r_slate %v at B=2000 (embedded model)\n\n", r.Quality["r_slate"])
	for _, b := range r.Budgets {
		mark := "MISSED"
		if b.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "%-48s %12.4g (budget %g) %s\n", b.Name, b.Measured, b.Limit, mark)
	}
}
