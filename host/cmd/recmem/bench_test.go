package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		xs   []float64
		want benchStat
	}{
		{[]float64{5}, benchStat{5, 5, 1}},
		{[]float64{3, 1, 2}, benchStat{2, 3, 3}},
		// even count: the median averages the middle two; p90 is the
		// nearest rank ceil(0.9·10) = 9th smallest.
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, benchStat{5.5, 9, 10}},
		{[]float64{1.23456, 1.23456}, benchStat{1.235, 1.235, 2}},
		{nil, benchStat{}},
	}
	for _, tt := range tests {
		if got := summarize(tt.xs); got != tt.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tt.xs, got, tt.want)
		}
	}
}

func TestBudgets(t *testing.T) {
	r := &benchReport{SelectMs: map[string]float64{"500": 0.8, "10000": 4}, AddUnitUs: 60, SignalUs: 150, Rank10Ms: 0.5,
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

// TestBenchRuns runs recmem bench end to end on tiny memories, without the
// peers, and checks the contract's keys and that the artefacts are written.
func TestBenchRuns(t *testing.T) {
	locomo := findUp(filepath.Join("shared", "data", "locomo", "locomo8.json"))
	if _, err := os.Stat(locomo); err != nil {
		t.Skip("LoCoMo not found:", err)
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"--json", "--sizes", "20,40", "--iters", "3", "--max-time", "1s", "--peers=false", "--node=false",
		"--wasm", testModule(t), "--data", locomo, "--catalog", filepath.Join(dir, "none.catalog"),
		"--svg", filepath.Join(dir, "select.svg"), "--md", filepath.Join(dir, "bench.md")}
	if code := runBench(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err, stdout.String())
	}
	for _, k := range []string{"wasm_bytes", "wasm_gzip_bytes", "warm_start_ms", "select_ms", "add_unit_us", "signal_us", "rank10_ms", "wasm_over_native", "peers"} {
		if _, ok := r[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	sel, _ := r["select_ms"].(map[string]any)
	if v, _ := sel["40"].(float64); v <= 0 {
		t.Errorf("select_ms[40] = %v", sel["40"])
	}
	if s, _ := r["skipped"].([]any); len(s) != 1 || !strings.Contains(s[0].(string), "rank10") {
		t.Errorf("skipped = %v, want rank10 without a catalog", r["skipped"])
	}
	svg, err := os.ReadFile(filepath.Join(dir, "select.svg"))
	if err != nil || !bytes.Contains(svg, []byte("recmem, plugin in Go host")) {
		t.Errorf("svg: %v %.200s", err, svg)
	}
	md, err := os.ReadFile(filepath.Join(dir, "bench.md"))
	if err != nil || !bytes.Contains(md, []byte("| select a slate, B=2000, 40 units |")) {
		t.Errorf("markdown: %v %.300s", err, md)
	}
}

// TestBenchFrom renders a saved report without measuring anything.
func TestBenchFrom(t *testing.T) {
	dir := t.TempDir()
	rep := &benchReport{WasmBytes: 10, WasmGzipBytes: 5, SelectMs: map[string]float64{"100": 2},
		Wasm:   benchPaths{SelectMs: map[string]benchStat{"100": {Median: 2, P90: 3, N: 9}}},
		Native: benchPaths{SelectMs: map[string]benchStat{"100": {Median: 0.5, P90: 0.6, N: 9}}}}
	b, _ := json.Marshal(rep)
	in := filepath.Join(dir, "r.json")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	md := filepath.Join(dir, "r.md")
	if code := runBench([]string{"--from", in, "--md", md}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(md)
	if !bytes.Contains(got, []byte("| select a slate, B=2000, 100 units | 2 ms | 3 ms | 0.5 ms | 0.6 ms | 4x |")) {
		t.Errorf("markdown:\n%s", got)
	}
}
