package bench

import "testing"

func TestBudgets(t *testing.T) {
	r := &Report{SelectMs: map[string]float64{"500": 0.8, "10000": 4}, AddUnitUs: 60, SignalUs: 150, Rank10Ms: 0.5,
		WasmOverNative: map[string]float64{"signal": 2.5}, Ratios: map[string]float64{}, WarmStartMs: 90, WasmGzipBytes: 2_900_000}
	got := map[string]bool{}
	for _, b := range budgets(r) {
		got[b.Name] = b.Met
	}
	want := map[string]bool{
		"select_ms at 500 units (plugin, Go host)":   true,
		"select_ms at 10000 units (plugin, Go host)": false,
		"add_unit_us (plugin)":                       false,
		"signal_us (plugin)":                         true,
		"rank10_ms (plugin)":                         true, // at the limit is within it
		"plugin over native: signal":                 false,
		"warm_start_ms (Go host)":                    true,
		"wasm_gzip_bytes":                            true,
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
