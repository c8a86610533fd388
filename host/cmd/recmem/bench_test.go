package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recmem/recmem/host/bench"
)

// TestBenchRuns runs recmem bench end to end on tiny memories, without the
// peers, workerd and Chromium, and checks the contract's keys and that the
// artefacts are written. Without a trained catalog, rank ranks the page's
// demo catalog.
func TestBenchRuns(t *testing.T) {
	locomo := findUp(filepath.Join("shared", "data", "locomo", "locomo8.json"))
	if _, err := os.Stat(locomo); err != nil {
		t.Skip("LoCoMo not found:", err)
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"--json", "--sizes", "20,40", "--iters", "3", "--max-time", "1s", "--peers=false", "--node=false",
		"--workerd=false", "--chromium=false",
		"--wasm", testModule(t), "--data", locomo, "--catalog", filepath.Join(dir, "none.catalog"),
		"--svg", filepath.Join(dir, "select.svg"), "--md", filepath.Join(dir, "bench.md")}
	if code := runBench(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err, stdout.String())
	}
	for _, k := range []string{"wasm_bytes", "wasm_gzip_bytes", "warm_start_ms", "select_ms", "add_unit_us", "signal_us", "rank10_ms", "wasm_over_native", "peers", "phases"} {
		if _, ok := r[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	sel, _ := r["select_ms"].(map[string]any)
	if v, _ := sel["40"].(float64); v <= 0 {
		t.Errorf("select_ms[40] = %v", sel["40"])
	}
	if s, ok := r["skipped"]; ok {
		t.Errorf("skipped = %v, want nothing", s)
	}
	if c, _ := r["rank_catalog"].(string); !strings.Contains(c, "games-demo.json") {
		t.Errorf("rank_catalog = %q, want the page's demo catalog", c)
	}
	wasm, _ := r["wasm"].(map[string]any)
	for _, k := range []string{"rank_ms", "rank_instruction_ms"} {
		m, _ := wasm[k].(map[string]any)
		for _, n := range []string{"20", "200", "1000"} {
			if st, _ := m[n].(map[string]any); st == nil || st["median"].(float64) <= 0 {
				t.Errorf("wasm.%s[%s] = %v", k, n, m[n])
			}
		}
	}
	ph, _ := r["phases"].(map[string]any)
	for _, h := range []string{"wasm", "native"} {
		byPath, _ := ph[h].(map[string]any)
		for _, p := range []string{"signal", "add_unit", "rank_200", "rank_200_instruction", "select_20", "select_40"} {
			if b, _ := byPath[p].(map[string]any); b == nil || len(b["phases"].([]any)) == 0 {
				t.Errorf("phases.%s.%s = %v", h, p, byPath[p])
			}
		}
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
	rep := &bench.Report{WasmBytes: 10, WasmGzipBytes: 5, SelectMs: map[string]float64{"100": 2},
		Wasm:   bench.Paths{SelectMs: map[string]bench.Stat{"100": {Median: 2, P90: 3, N: 9}}},
		Native: bench.Paths{SelectMs: map[string]bench.Stat{"100": {Median: 0.5, P90: 0.6, N: 9}}}}
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
