package bench

import "testing"

func TestBudgets(t *testing.T) {
	r := &Report{SelectMs: map[string]float64{"500": 0.8, "10000": 4}, AddUnitUs: 60, SignalUs: 150, Rank10Ms: 0.5,
		WasmOverNative: map[string]float64{"signal": 2.5}, Ratios: map[string]float64{}, WarmStartMs: 90, WasmGzipBytes: 2_900_000,
		Workerd: &Workerd{RequestCPUMs: map[string]Stat{"0": {Median: 3}, "500": {Median: 12.5}}},
		Wasm:    Paths{RankInstructionMs: map[string]Stat{"200": {Median: 3.5}}}}
	got := map[string]bool{}
	for _, b := range budgets(r) {
		got[b.Name] = b.Met
	}
	want := map[string]bool{
		"select_ms at 500 units (plugin, Go host)":        true,
		"select_ms at 10000 units (plugin, Go host)":      false,
		"add_unit_us (plugin)":                            false,
		"signal_us (plugin)":                              true,
		"rank10_ms (plugin)":                              true, // at the limit is within it
		"plugin over native: signal":                      false,
		"warm_start_ms (Go host)":                         true,
		"wasm_gzip_bytes":                                 true,
		"workerd request CPU at 500 units, ms (issue 18)": false,
		// Issue 25's, on the same figures: 0.8 ≤ 2 (no 2,000 units),
		// 4 ≤ 8, 60 ≤ 60, 150 > 100, 2.9 MB > 2.6 MB, the worst ratio 2.5 ≤ 4.
		"select_ms at 500 units (issue 25)":                       true,
		"select_ms at 10000 units (issue 25)":                     true,
		"add_unit_us (issue 25)":                                  true,
		"signal_us (issue 25)":                                    false,
		"wasm_gzip_bytes (issue 25)":                              false,
		"plugin over native, the slowest path (signal, issue 25)": true,
		"rank_ms, 200 candidates with an instruction (issue 25)":  false,
	}
	for name, met := range want {
		if m, ok := got[name]; !ok || m != met {
			t.Errorf("%s: met=%v (present %v), want %v", name, m, ok, met)
		}
	}
	if len(got) != len(want) {
		t.Errorf("budgets %v, want only %v (unmeasured ones are left out)", got, want)
	}
}
