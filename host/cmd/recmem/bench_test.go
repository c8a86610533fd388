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
