package bench

import (
	"fmt"
	"io"
	"sort"
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
	for _, n := range sizes(r.Wasm.RankMs) {
		k := strconv.Itoa(n)
		row("rank "+k, r.Wasm.RankMs[k], r.Native.RankMs[k], "ms")
		row("rank "+k+" instructed", r.Wasm.RankInstructionMs[k], r.Native.RankInstructionMs[k], "ms")
	}
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
	if len(r.Formats) > 0 {
		line := func(cells ...string) {
			fmt.Fprintf(w, "%-6s %-7s %12s %10s %10s %10s %20s %20s\n", cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7])
		}
		line(formatHeader...)
		r.formatRows(line)
		fmt.Fprintln(w)
	}
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
	r.Workerd.writeText(w)
	r.Chromium.writeText(w)
	if b := r.Before; b != nil {
		fmt.Fprintf(w, "this module over the one before (%s), same run:", b.Wasm)
		for _, k := range sortedKeys(b.AfterOverBefore) {
			fmt.Fprintf(w, " %s %.3g;", k, b.AfterOverBefore[k])
		}
		fmt.Fprint(w, "\n\n")
	}
	for _, path := range r.phasePathNames() {
		for _, h := range phaseHosts {
			b := r.Phases[h][path]
			if b == nil {
				continue
			}
			fmt.Fprintf(w, "phases of %s on %s (µs, medians; sum %.4g):", path, h, b.TotalUs)
			for _, p := range b.Phases {
				fmt.Fprintf(w, " %s %.4g", p.Name, p.MedianUs)
			}
			fmt.Fprintln(w)
		}
	}
	if len(r.Phases) > 0 {
		fmt.Fprintln(w)
	}
	for _, b := range r.Budgets {
		mark := "MISSED"
		if b.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "%-48s %12.4g (budget %g) %s\n", b.Name, b.Measured, b.Limit, mark)
	}
}

// writeText writes the workerd request's CPU and wall time per memory size,
// or its error; nothing when it was not run.
func (wd *Workerd) writeText(w io.Writer) {
	switch {
	case wd == nil:
		return
	case wd.Error != "":
		fmt.Fprintf(w, "workerd: %s\n\n", wd.Error)
		return
	}
	fmt.Fprintf(w, "%s, one stateless request (record + rank 20 + select + state in and out), median / p90:\n", wd.Version)
	for _, n := range sizes(wd.RequestCPUMs) {
		k := strconv.Itoa(n)
		c, p, wall := wd.RequestCPUMs[k], wd.RequestProcessCPUMs[k], wd.RequestWallMs[k]
		fmt.Fprintf(w, "  %5d units: CPU %.4g / %.4g ms (process %.4g ms), wall %.4g ms; state %d bytes, %d gzipped\n",
			n, c.Median, c.P90, p.Median, wall.Median, wd.StateBytes[k], wd.StateGzipBytes[k])
		if b, ok := wd.BinaryRequestCPUMs[k]; ok {
			fmt.Fprintf(w, "  %5s binary: CPU %.4g / %.4g ms, wall %.4g ms; state %d bytes, %d gzipped\n",
				"", b.Median, b.P90, wd.BinaryRequestWallMs[k].Median, wd.BinaryStateBytes[k], wd.BinaryStateGzip[k])
		}
		if h, ok := wd.WarmRequestCPUMs[k]; ok {
			fmt.Fprintf(w, "  %5s binary, warm, deltas: CPU %.4g / %.4g ms, wall %.4g ms; %d of %d served warm\n",
				"", h.Median, h.P90, wd.WarmRequestWallMs[k].Median, wd.WarmHits[k], h.N)
		}
	}
	fmt.Fprintln(w)
}

// writeText writes the Chromium restore per format, or its error; nothing
// when it was not run.
func (c *Chromium) writeText(w io.Writer) {
	switch {
	case c == nil:
		return
	case c.Error != "":
		fmt.Fprintf(w, "chromium: %s\n\n", c.Error)
		return
	}
	fmt.Fprintf(w, "Chromium %s, restore of %d units, median / p90:\n", c.Version, c.Units)
	for _, f := range []string{"json", "binary"} {
		i, r := c.ImportMs[f], c.RestoreMs[f]
		fmt.Fprintf(w, "  %-6s %d bytes: import %.4g / %.4g ms, IndexedDB to a first answer %.4g / %.4g ms\n", f, c.StateBytes[f], i.Median, i.P90, r.Median, r.P90)
	}
	switch f := c.FirstVisit; {
	case f == nil:
	case f.Error != "":
		fmt.Fprintf(w, "  first visit: %s\n", f.Error)
	default:
		fmt.Fprintf(w, "  a first visit to the games page: first recommendations %.4g / %.4g ms, interactive %.4g ms (%d visits)\n",
			f.FirstRecsMs.Median, f.FirstRecsMs.P90, f.ReadyMs.Median, f.FirstRecsMs.N)
	}
	fmt.Fprintln(w)
}

// sortedKeys are m's keys in order.
func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
