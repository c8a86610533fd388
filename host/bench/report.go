package bench

import (
	"sort"
	"strconv"
)

// Stat is one path's timing: the median and the 90th percentile of n
// samples of the calls' wall time, in the unit its key names, and the median
// of their thread's CPU time (Linux; what a call cost, without the time its
// thread waited for a processor on a loaded machine).
type Stat struct {
	Median    float64 `json:"median"`
	P90       float64 `json:"p90"`
	N         int     `json:"n"`
	CPUMedian float64 `json:"cpu_median,omitempty"`
}

// Paths are the hot paths timed on one host. Maps are keyed by the memory
// size in units.
type Paths struct {
	SignalUs  Stat `json:"signal_us"`
	AddUnitUs Stat `json:"add_unit_us"`
	Rank10Ms  Stat `json:"rank10_ms"`
	// RankMs and RankInstructionMs are rank of n candidates of the page's
	// demo catalog (keyed by n: 20, 200, 1000) for a user with 20
	// purchases, without and with an instruction (workload.Instructions in
	// turn). Absent when the demo catalog was not found.
	RankMs            map[string]Stat `json:"rank_ms,omitempty"`
	RankInstructionMs map[string]Stat `json:"rank_instruction_ms,omitempty"`
	SelectMs          map[string]Stat `json:"select_ms"`
	ExportMs          map[string]Stat `json:"export_ms"`
	ImportMs          map[string]Stat `json:"import_ms"`
	StateBytes        map[string]int  `json:"state_bytes"`
	// MemoryBytes is, per memory size, the plugin's linear memory after
	// loading the units (it never shrinks), or natively what loading them
	// added to the live heap (after a GC each time).
	MemoryBytes map[string]int `json:"memory_bytes"`
}

// Budget is one budget of issue 9 against its measured value.
type Budget struct {
	Name     string  `json:"name"`
	Limit    float64 `json:"limit"`
	Measured float64 `json:"measured"`
	Met      bool    `json:"met"`
}

// Report is `recmem bench --json`. The top-level times are medians
// through the plugin in the Go host; "wasm" and "native" hold medians and
// p90 per path.
type Report struct {
	WasmBytes      int                `json:"wasm_bytes"`
	WasmGzipBytes  int                `json:"wasm_gzip_bytes"`
	WarmStartMs    float64            `json:"warm_start_ms"`
	ColdStart      map[string]float64 `json:"cold_start"`
	SelectMs       map[string]float64 `json:"select_ms"`
	AddUnitUs      float64            `json:"add_unit_us"`
	SignalUs       float64            `json:"signal_us"`
	Rank10Ms       float64            `json:"rank10_ms"`
	WasmOverNative map[string]float64 `json:"wasm_over_native"`
	Peers          map[string]any     `json:"peers"`
	Ratios         map[string]float64 `json:"ratios"`
	Quality        map[string]any     `json:"quality"`
	Wasm           Paths              `json:"wasm"`
	// Formats is what carrying the state costs, by format ("json",
	// "binary"), through the plugin in the Go host.
	Formats  map[string]*Format `json:"formats,omitempty"`
	Native   Paths              `json:"native"`
	Node     map[string]any     `json:"node,omitempty"`
	Workerd  *Workerd           `json:"workerd,omitempty"`
	Chromium *Chromium          `json:"chromium,omitempty"`
	Budgets  []Budget           `json:"budgets"`
	Machine  map[string]any     `json:"machine"`
	Settings map[string]any     `json:"settings"`
	Skipped  []string           `json:"skipped,omitempty"` // paths not measured, and why
	// RankCatalog names the catalog rank10 ranked with (the trained
	// Games-6k catalog when found, else the page's demo catalog).
	RankCatalog string `json:"rank_catalog,omitempty"`
	// Phases is where each path's time goes inside the module, by host
	// ("wasm": the plugin in the Go host, "native", "before") and path
	// ("signal", "add_unit", "rank_200", "rank_200_instruction",
	// "select_<units>"): phases.go, docs/phases.md.
	Phases map[string]map[string]*PhaseBreakdown `json:"phases,omitempty"`
	// PhasesClock is the clock the phases were timed with: "thread CPU"
	// (the calling thread's CPU time, on Linux) or "wall".
	PhasesClock string `json:"phases_clock,omitempty"`
	// Before is the same plugin paths measured in the same run with another
	// module (--before), their calls alternating with this module's.
	Before *Before `json:"before,omitempty"`
}

// Before is a second module measured beside the one under test, in the same
// run: its size, warm start and plugin paths, and this module's figures over
// its (below 1: this module is faster or smaller), keyed like
// WasmOverNative, plus "warm_start" and "wasm_gzip_bytes".
type Before struct {
	Wasm            string             `json:"wasm"`
	WasmBytes       int                `json:"wasm_bytes"`
	WasmGzipBytes   int                `json:"wasm_gzip_bytes"`
	WarmStartMs     float64            `json:"warm_start_ms"`
	ColdStart       map[string]float64 `json:"cold_start"`
	Paths           Paths              `json:"paths"`
	AfterOverBefore map[string]float64 `json:"after_over_before"`
	// Workerd is the same stateless request in workerd with this module
	// (absent when workerd was not run).
	Workerd *Workerd `json:"workerd,omitempty"`
}

// sizes are the memory sizes that key m, ascending (a key that is not a
// number counts as 0). O(n log n) in the number of keys.
func sizes[V any](m map[string]V) []int {
	ns := make([]int, 0, len(m))
	for k := range m {
		n, _ := strconv.Atoi(k)
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns
}
