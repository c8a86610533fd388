package bench

import "sort"

// budgets holds the measured figures against issue 9's budgets, issue 18's
// for a request in workerd and carrying the state, and issue 25's for the
// work inside the module. A figure that was not measured (0) is left out
// rather than counted as met.
func budgets(r *Report) []Budget {
	var out []Budget
	add := func(name string, limit, v float64) {
		if v > 0 {
			out = append(out, Budget{name, limit, v, v <= limit})
		}
	}
	add("select_ms at 500 units (plugin, Go host)", 1, r.SelectMs["500"])
	add("select_ms at 10000 units (plugin, Go host)", 3, r.SelectMs["10000"])
	add("recmem plugin over bleve at 10000 units", 3, r.Ratios["recmem_wasm_over_bleve_10000"])
	add("recmem JS host over Orama at 10000 units", 0.2, r.Ratios["recmem_js_over_orama_10000"])
	add("add_unit_us (plugin)", 50, r.AddUnitUs)
	add("signal_us (plugin)", 200, r.SignalUs)
	add("rank10_ms (plugin)", 0.5, r.Rank10Ms)
	keys := make([]string, 0, len(r.WasmOverNative))
	for k := range r.WasmOverNative {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		add("plugin over native: "+k, 2, r.WasmOverNative[k])
	}
	if r.Workerd != nil {
		add("workerd request CPU at 500 units, ms (issue 18)", 10, r.Workerd.RequestCPUMs["500"].Median)
		add("workerd request CPU at 500 units, binary, warm, ms (issue 18)", 10, r.Workerd.WarmRequestCPUMs["500"].Median)
	}
	if r.Chromium != nil {
		add("restore of 10000 units in Chromium, binary, ms (issue 18)", 50, r.Chromium.RestoreMs["binary"].Median)
		if f := r.Chromium.FirstVisit; f != nil && f.Error == "" {
			add("first recommendations on a first visit in Chromium, ms (issue 24)", 1500, f.FirstRecsMs.Median)
		}
	}
	add("warm_start_ms (Go host)", 100, r.WarmStartMs)
	// Issue 18: carrying the state.
	if b := r.Formats["binary"]; b != nil {
		add("binary import_ms at 10000 units (plugin, Go host)", 20, b.ImportMs["10000"].Median)
		add("binary export_ms at 10000 units (plugin, Go host)", 10, b.ExportMs["10000"].Median)
		add("binary stateless HTTP select_ms at 2000 units, cold", 15, b.HTTPSelectMs["2000"].Median)
		add("binary stateless HTTP select_ms at 2000 units, warm", 8, b.HTTPSelectWarmMs["2000"].Median)
		if j := r.Formats["json"]; j != nil {
			for _, k := range []string{"500", "2000", "10000"} {
				if j.StateGzipBytes[k] > 0 && b.StateGzipBytes[k] > 0 {
					add("binary gzipped over JSON gzipped at "+k+" units", 0.6, round3(float64(b.StateGzipBytes[k])/float64(j.StateGzipBytes[k])))
				}
			}
		}
	}
	add("wasm_gzip_bytes", 3_000_000, float64(r.WasmGzipBytes))
	// Issue 25: the work inside the module, through the plugin in the Go host.
	add("select_ms at 500 units (issue 25)", 2, r.SelectMs["500"])
	add("select_ms at 2000 units (issue 25)", 4, r.SelectMs["2000"])
	add("select_ms at 10000 units (issue 25)", 8, r.SelectMs["10000"])
	add("add_unit_us (issue 25)", 60, r.AddUnitUs)
	add("signal_us (issue 25)", 100, r.SignalUs)
	add("rank_ms, 200 candidates with an instruction (issue 25)", 3, r.Wasm.RankInstructionMs["200"].Median)
	if r.Workerd != nil {
		add("workerd request CPU at 500 units, binary, warm, ms (issue 25)", 8, r.Workerd.WarmRequestCPUMs["500"].Median)
	}
	add("wasm_gzip_bytes (issue 25)", 2_600_000, float64(r.WasmGzipBytes))
	worst, which := 0.0, ""
	for _, k := range keys {
		if v := r.WasmOverNative[k]; v > worst {
			worst, which = v, k
		}
	}
	add("plugin over native, the slowest path ("+which+", issue 25)", 4, worst)
	return out
}
