package bench

import "sort"

// budgets holds the measured figures against issue 9's budgets. A figure
// that was not measured (0) is left out rather than counted as met.
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
	add("warm_start_ms (Go host)", 100, r.WarmStartMs)
	add("wasm_gzip_bytes", 3_000_000, float64(r.WasmGzipBytes))
	return out
}
