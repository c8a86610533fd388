package bench

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// WriteMarkdown writes the report as Markdown tables (for BENCHMARKS.md):
// the hot paths, the scaling of selection and state, the peers' slate
// completeness, cold start and the budgets. Numbers have 4 significant
// digits; "–" marks what was not measured.
func (r *Report) WriteMarkdown(w io.Writer) {
	ns := sizes(r.SelectMs)
	ks := make([]string, len(ns))
	for i, n := range ns {
		ks[i] = strconv.Itoa(n)
	}
	num := func(x float64) string { return strconv.FormatFloat(sig4(x), 'g', -1, 64) }
	ratio := func(a, b float64) string {
		if b == 0 {
			return "–"
		}
		return num(a/b) + "x"
	}
	fmt.Fprintf(w, "Machine: %v, %v logical CPUs (GOMAXPROCS %v), %v, %v/%v.\n\n", r.Machine["cpu"], r.Machine["cpus"], r.Machine["gomaxprocs"], r.Machine["go"], r.Machine["goos"], r.Machine["goarch"])
	fmt.Fprintln(w, "| path | plugin (Go host) median | p90 | native median | p90 | plugin / native |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	row := func(name, unit string, a, b Stat) {
		fmt.Fprintf(w, "| %s | %s %s | %s %s | %s %s | %s %s | %s |\n", name, num(a.Median), unit, num(a.P90), unit, num(b.Median), unit, num(b.P90), unit, ratio(a.Median, b.Median))
	}
	row("record a signal + LLM-free maintenance", "µs", r.Wasm.SignalUs, r.Native.SignalUs)
	row("add one unit (memory of 500)", "µs", r.Wasm.AddUnitUs, r.Native.AddUnitUs)
	row("rank 10 candidates", "ms", r.Wasm.Rank10Ms, r.Native.Rank10Ms)
	for _, n := range sizes(r.Wasm.RankMs) {
		k := strconv.Itoa(n)
		row("rank "+k+" candidates (demo catalog)", "ms", r.Wasm.RankMs[k], r.Native.RankMs[k])
		row("rank "+k+" candidates with an instruction", "ms", r.Wasm.RankInstructionMs[k], r.Native.RankInstructionMs[k])
	}
	for _, k := range ks {
		row("select a slate, B=2000, "+k+" units", "ms", r.Wasm.SelectMs[k], r.Native.SelectMs[k])
	}
	for _, k := range ks {
		row("export_state, "+k+" units", "ms", r.Wasm.ExportMs[k], r.Native.ExportMs[k])
		row("import_state, "+k+" units", "ms", r.Wasm.ImportMs[k], r.Native.ImportMs[k])
	}
	fmt.Fprintln(w)
	r.writeCPUMarkdown(w, num)
	fmt.Fprintln(w, "| units | state bytes | plugin memory | native heap | select plugin ms | select native ms | select JS host ms | bleve ms | Orama ms |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	peer := func(name, k string) string {
		p, ok := r.Peers[name].(map[string]any)
		if !ok {
			return "–"
		}
		if v := peerSelect(p, k); v > 0 {
			return num(v)
		}
		return "–"
	}
	for _, k := range ks {
		js := "–"
		if r.Node != nil {
			if v := peerSelect(r.Node, k); v > 0 {
				js = num(v)
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %s | %s | %s | %s |\n", k, r.Wasm.StateBytes[k], r.Wasm.MemoryBytes[k], r.Native.MemoryBytes[k],
			num(r.Wasm.SelectMs[k].Median), num(r.Native.SelectMs[k].Median), js, peer("bleve", k), peer("orama", k))
	}
	fmt.Fprintln(w)
	if len(r.Formats) > 0 {
		fmt.Fprintln(w, "| "+strings.Join(formatHeader, " | ")+" |")
		fmt.Fprintln(w, "|"+strings.Repeat("---|", len(formatHeader)))
		r.formatRows(func(cells ...string) { fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |") })
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "| ranker | r_slate (B=2000, per conversation) | r_slate_k2 | questions |")
	fmt.Fprintln(w, "|---|---|---|---|")
	fmt.Fprintf(w, "| recmem (embedded model, trained on these conversations) | %v | %v | %v |\n", r.Quality["r_slate"], r.Quality["r_slate_k2"], r.Quality["questions"])
	for _, name := range []string{"bleve", "orama"} {
		if p, ok := r.Peers[name].(map[string]any); ok {
			if e, bad := p["error"]; bad {
				fmt.Fprintf(w, "| %s | error: %v | | |\n", name, e)
				continue
			}
			fmt.Fprintf(w, "| %s | %v | %v | %v |\n", name, p["r_slate"], p["r_slate_k2"], p["questions"])
		}
	}
	fmt.Fprintln(w)
	r.Workerd.writeMarkdown(w, num)
	r.Chromium.writeMarkdown(w, num)
	fmt.Fprintf(w, "Cold start (Go host): compile without cache %s ms, with a warm cache %s ms, instantiate %s ms, first answer (a unit added and a slate selected) %s ms; warm start to first answer %s ms.",
		num(r.ColdStart["compile_nocache_ms"]), num(r.ColdStart["compile_warm_cache_ms"]), num(r.ColdStart["instantiate_ms"]), num(r.ColdStart["first_answer_ms"]), num(r.WarmStartMs))
	fmt.Fprintf(w, " Module: %d bytes, %d gzipped.\n\n", r.WasmBytes, r.WasmGzipBytes)
	r.Before.writeMarkdown(w, r, num)
	r.writePhasesMarkdown(w, num)
	fmt.Fprintln(w, "| budget | limit | measured | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, b := range r.Budgets {
		mark := "missed"
		if b.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", b.Name, num(b.Limit), num(b.Measured), mark)
	}
}

// writeMarkdown writes the workerd request's table, or its error; nothing
// when it was not run.
func (wd *Workerd) writeMarkdown(w io.Writer, num func(float64) string) {
	switch {
	case wd == nil:
		return
	case wd.Error != "":
		fmt.Fprintf(w, "workerd: %s\n\n", wd.Error)
		return
	}
	fmt.Fprintf(w, "One stateless request in %s (record + rank 20 + select + state in and out; CPU of the isolate's thread):\n\n", wd.Version)
	fmt.Fprintln(w, "| units | CPU median | p90 | process CPU median | wall median | state bytes | gzipped |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, n := range sizes(wd.RequestCPUMs) {
		k := strconv.Itoa(n)
		fmt.Fprintf(w, "| %d | %s ms | %s ms | %s ms | %s ms | %d | %d |\n", n, num(wd.RequestCPUMs[k].Median), num(wd.RequestCPUMs[k].P90),
			num(wd.RequestProcessCPUMs[k].Median), num(wd.RequestWallMs[k].Median), wd.StateBytes[k], wd.StateGzipBytes[k])
	}
	fmt.Fprintln(w)
	if len(wd.BinaryRequestCPUMs) == 0 {
		return
	}
	fmt.Fprintln(w, "The same request with the binary state, imported every time, and carried from request to request with deltas on warm instances:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| units | binary CPU median | p90 | wall median | warm CPU median | p90 | wall median | served warm | binary state bytes | gzipped |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range sizes(wd.BinaryRequestCPUMs) {
		k := strconv.Itoa(n)
		b, h := wd.BinaryRequestCPUMs[k], wd.WarmRequestCPUMs[k]
		fmt.Fprintf(w, "| %d | %s ms | %s ms | %s ms | %s ms | %s ms | %s ms | %d of %d | %d | %d |\n", n, num(b.Median), num(b.P90), num(wd.BinaryRequestWallMs[k].Median),
			num(h.Median), num(h.P90), num(wd.WarmRequestWallMs[k].Median), wd.WarmHits[k], h.N, wd.BinaryStateBytes[k], wd.BinaryStateGzip[k])
	}
	fmt.Fprintln(w)
}

// writeMarkdown writes the Chromium restore's table, or its error; nothing
// when it was not run.
func (c *Chromium) writeMarkdown(w io.Writer, num func(float64) string) {
	switch {
	case c == nil:
		return
	case c.Error != "":
		fmt.Fprintf(w, "chromium: %s\n\n", c.Error)
		return
	}
	fmt.Fprintf(w, "Restore of %d units in Chromium %s (%s):\n\n", c.Units, c.Version, c.What)
	fmt.Fprintln(w, "| form | state bytes | import median | p90 | restore median | p90 |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, f := range []string{"json", "binary"} {
		i, r := c.ImportMs[f], c.RestoreMs[f]
		fmt.Fprintf(w, "| %s | %d | %s ms | %s ms | %s ms | %s ms |\n", f, c.StateBytes[f], num(i.Median), num(i.P90), num(r.Median), num(r.P90))
	}
	fmt.Fprintln(w)
	switch f := c.FirstVisit; {
	case f == nil:
	case f.Error != "":
		fmt.Fprintf(w, "first visit: %s\n\n", f.Error)
	default:
		fmt.Fprintf(w, "First visit to the games page (%s): first recommendations %s ms (p90 %s ms), interactive %s ms, over %d visits.\n\n",
			f.What, num(f.FirstRecsMs.Median), num(f.FirstRecsMs.P90), num(f.ReadyMs.Median), f.FirstRecsMs.N)
	}
}

// writeMarkdown writes the module before beside this one: each plugin path's
// medians and this module's over the other's; nothing without one.
func (b *Before) writeMarkdown(w io.Writer, r *Report, num func(float64) string) {
	if b == nil {
		return
	}
	fmt.Fprintf(w, "This module against the one before (%s), measured in the same run, their calls alternating (plugin in the Go host, medians):\n\n", b.Wasm)
	fmt.Fprintln(w, "| path | before | after | after / before | CPU before | CPU after | after / before, CPU |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, p := range pathRows(&r.Wasm) {
		x, y := p.get(&b.Paths), p.get(&r.Wasm)
		if x.Median == 0 || y.Median == 0 {
			continue
		}
		cpu := "– | – | –"
		if x.CPUMedian > 0 && y.CPUMedian > 0 {
			cpu = fmt.Sprintf("%s %s | %s %s | %s", num(x.CPUMedian), p.unit, num(y.CPUMedian), p.unit, num(y.CPUMedian/x.CPUMedian))
		}
		fmt.Fprintf(w, "| %s | %s %s | %s %s | %s | %s |\n", p.name, num(x.Median), p.unit, num(y.Median), p.unit, num(y.Median/x.Median), cpu)
	}
	fmt.Fprintf(w, "| warm start to first answer | %s ms | %s ms | %s | | | |\n", num(b.WarmStartMs), num(r.WarmStartMs), num(b.AfterOverBefore["warm_start"]))
	fmt.Fprintf(w, "| module, gzipped | %d | %d | %s | | | |\n", b.WasmGzipBytes, r.WasmGzipBytes, num(b.AfterOverBefore["wasm_gzip_bytes"]))
	if bw, aw := b.Workerd, r.Workerd; bw != nil && aw != nil && bw.Error == "" && aw.Error == "" {
		for _, n := range sizes(aw.WarmRequestCPUMs) {
			k := strconv.Itoa(n)
			x, y := bw.WarmRequestCPUMs[k].Median, aw.WarmRequestCPUMs[k].Median
			if x > 0 && y > 0 {
				fmt.Fprintf(w, "| workerd request, %s units, binary, warm: CPU of the isolate | %s ms | %s ms | %s | | | |\n", k, num(x), num(y), num(y/x))
			}
			x, y = bw.BinaryRequestCPUMs[k].Median, aw.BinaryRequestCPUMs[k].Median
			if x > 0 && y > 0 {
				fmt.Fprintf(w, "| workerd request, %s units, binary, imported: CPU | %s ms | %s ms | %s | | | |\n", k, num(x), num(y), num(y/x))
			}
		}
	}
	fmt.Fprintln(w)
}

// pathRow is one path of the reports: its name, unit and figure in a Paths.
type pathRow struct {
	name, unit string
	get        func(p *Paths) Stat
}

// pathRows are the paths p measured, in the order of the reports.
func pathRows(p *Paths) []pathRow {
	rows := []pathRow{
		{"record a signal + LLM-free maintenance", "µs", func(p *Paths) Stat { return p.SignalUs }},
		{"add one unit (memory of 500)", "µs", func(p *Paths) Stat { return p.AddUnitUs }},
		{"rank 10 candidates", "ms", func(p *Paths) Stat { return p.Rank10Ms }},
	}
	for _, n := range sizes(p.RankMs) {
		k := strconv.Itoa(n)
		rows = append(rows, pathRow{"rank " + k + " candidates", "ms", func(p *Paths) Stat { return p.RankMs[k] }},
			pathRow{"rank " + k + " candidates with an instruction", "ms", func(p *Paths) Stat { return p.RankInstructionMs[k] }})
	}
	for _, n := range sizes(p.SelectMs) {
		k := strconv.Itoa(n)
		rows = append(rows, pathRow{"select a slate, B=2000, " + k + " units", "ms", func(p *Paths) Stat { return p.SelectMs[k] }})
	}
	for _, n := range sizes(p.ExportMs) {
		k := strconv.Itoa(n)
		rows = append(rows, pathRow{"export_state, " + k + " units", "ms", func(p *Paths) Stat { return p.ExportMs[k] }},
			pathRow{"import_state, " + k + " units", "ms", func(p *Paths) Stat { return p.ImportMs[k] }})
	}
	return rows
}

// phaseHosts are the hosts of Report.Phases in the order of the tables.
var phaseHosts = []string{"wasm", "native", "before", "node"}

// phasePathNames are the paths of Report.Phases in a reader's order.
func (r *Report) phasePathNames() []string {
	seen := map[string]bool{}
	for _, byPath := range r.Phases {
		for p := range byPath {
			seen[p] = true
		}
	}
	var out []string
	for _, p := range []string{"signal", "add_unit", "rank_200", "rank_200_instruction"} {
		if seen[p] {
			out = append(out, p)
		}
	}
	var sel []int
	for p := range seen {
		if n, ok := strings.CutPrefix(p, "select_"); ok {
			v, _ := strconv.Atoi(n)
			sel = append(sel, v)
		}
	}
	sort.Ints(sel)
	for _, n := range sel {
		out = append(out, "select_"+strconv.Itoa(n))
	}
	return out
}

// writePhasesMarkdown writes one table per path of Report.Phases: each
// phase's median by host, in µs.
func (r *Report) writePhasesMarkdown(w io.Writer, num func(float64) string) {
	if len(r.Phases) == 0 {
		return
	}
	var hosts []string
	for _, h := range phaseHosts {
		if r.Phases[h] != nil {
			hosts = append(hosts, h)
		}
	}
	names := map[string]string{"wasm": "plugin (Go host)", "native": "native", "before": "plugin, module before", "node": "plugin in Node (wall)"}
	fmt.Fprintf(w, "Where the time goes inside the module (the phases export, docs/phases.md; medians in µs of each phase over the calls timed, %s time):\n", r.PhasesClock)
	fmt.Fprintln(w)
	for _, path := range r.phasePathNames() {
		fmt.Fprintf(w, "`%s`\n\n| phase |", path)
		for _, h := range hosts {
			fmt.Fprintf(w, " %s |", names[h])
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(hosts)))
		for _, ph := range phaseNames(r.Phases, hosts, path) {
			fmt.Fprintf(w, "| %s |", ph)
			for _, h := range hosts {
				fmt.Fprintf(w, " %s |", phaseCell(r.Phases[h][path], ph, num))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, "| sum (median of the calls) |")
		for _, h := range hosts {
			if b := r.Phases[h][path]; b != nil {
				fmt.Fprintf(w, " %s |", num(b.TotalUs))
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		fmt.Fprint(w, "\n\n")
	}
}

// phaseNames are the phases of path on any of hosts, in the order of the
// first host that has each.
func phaseNames(all map[string]map[string]*PhaseBreakdown, hosts []string, path string) []string {
	var out []string
	for _, h := range hosts {
		b := all[h][path]
		if b == nil {
			continue
		}
		for _, p := range b.Phases {
			if !slices.Contains(out, p.Name) {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

// phaseCell is phase ph's median in b, "–" when b lacks it.
func phaseCell(b *PhaseBreakdown, ph string, num func(float64) string) string {
	if b == nil {
		return "–"
	}
	for _, p := range b.Phases {
		if p.Name == ph {
			return num(p.MedianUs)
		}
	}
	return "–"
}

// writeCPUMarkdown writes each path's median CPU time of its thread, plugin
// and native (nothing when none was read): on a loaded machine, the part of
// a call's wall time that was its own work.
func (r *Report) writeCPUMarkdown(w io.Writer, num func(float64) string) {
	rows := pathRows(&r.Wasm)
	any := false
	for _, p := range rows {
		any = any || p.get(&r.Wasm).CPUMedian > 0
	}
	if !any {
		return
	}
	fmt.Fprintln(w, "The same calls' CPU time (their thread's, medians): what each call cost without the time it waited for a processor.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| path | plugin (Go host) CPU | native CPU | plugin / native |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, p := range rows {
		a, b := p.get(&r.Wasm).CPUMedian, p.get(&r.Native).CPUMedian
		if a == 0 {
			continue
		}
		ratio := "–"
		if b > 0 {
			ratio = num(a/b) + "x"
		}
		fmt.Fprintf(w, "| %s | %s %s | %s %s | %s |\n", p.name, num(a), p.unit, num(b), p.unit, ratio)
	}
	fmt.Fprintln(w)
}
