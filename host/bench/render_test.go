package bench

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/recmem/recmem/host/plot"
)

// handReport has two sizes (listed out of order), a bleve peer at one of
// them, a failed Orama peer and no Node run.
func handReport() *Report {
	return &Report{
		WasmBytes: 1000, WasmGzipBytes: 400,
		SelectMs: map[string]float64{"500": 2, "100": 1},
		Wasm: Paths{SignalUs: Stat{Median: 30, P90: 40, N: 9},
			SelectMs:   map[string]Stat{"100": {Median: 1, P90: 1.5, N: 9}, "500": {Median: 2, P90: 2.5, N: 9}},
			StateBytes: map[string]int{"100": 5000}},
		Native: Paths{SignalUs: Stat{Median: 20, P90: 25, N: 9},
			SelectMs: map[string]Stat{"100": {Median: 0.5, P90: 0.75, N: 9}, "500": {Median: 0.8, P90: 1, N: 9}}},
		Peers: map[string]any{"bleve": map[string]any{"select_ms": map[string]any{"500": 0.25}, "r_slate": 0.7},
			"orama": map[string]any{"error": "no node"}},
		Budgets: []Budget{{"signal_us (plugin)", 200, 30, true}, {"select_ms at 500 units (plugin, Go host)", 1, 2, false}},
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	handReport().WriteMarkdown(&b)
	md := b.String()
	for _, line := range []string{
		// 30 / 20 = 1.5x
		"| record a signal + LLM-free maintenance | 30 µs | 40 µs | 20 µs | 25 µs | 1.5x |",
		// no native figure: no ratio
		"| add one unit (memory of 500) | 0 µs | 0 µs | 0 µs | 0 µs | – |",
		"| select a slate, B=2000, 100 units | 1 ms | 1.5 ms | 0.5 ms | 0.75 ms | 2x |",
		"| select a slate, B=2000, 500 units | 2 ms | 2.5 ms | 0.8 ms | 1 ms | 2.5x |",
		"| 100 | 5000 | 0 | 0 | 1 | 0.5 | – | – | – |",
		"| 500 | 0 | 0 | 0 | 2 | 0.8 | – | 0.25 | – |",
		"| bleve | 0.7 | <nil> | <nil> |",
		"| orama | error: no node | | |",
		"| signal_us (plugin) | 200 | 30 | met |",
		"| select_ms at 500 units (plugin, Go host) | 1 | 2 | missed |",
	} {
		if !strings.Contains(md, "\n"+line+"\n") {
			t.Errorf("markdown lacks %q:\n%s", line, md)
		}
	}
	if i, j := strings.Index(md, "B=2000, 100 units"), strings.Index(md, "B=2000, 500 units"); i < 0 || j < i {
		t.Errorf("sizes out of order:\n%s", md)
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	handReport().WriteText(&b)
	txt := b.String()
	for _, line := range []string{
		// "%-22s %11.4g %-2s %11.4g %-2s %11.4g %-2s %7.1fx"
		"record signal                   30 us          20 us          40 us     1.5x",
		"select 100 units                 1 ms         0.5 ms         1.5 ms     2.0x",
		"orama: no node",
		"bleve: r_slate 0.7; 100 units 0 ms; 500 units 0.25 ms;",
		"signal_us (plugin)                                         30 (budget 200) met",
		"select_ms at 500 units (plugin, Go host)                    2 (budget 1) MISSED",
	} {
		if !strings.Contains(txt, "\n"+line+"\n") {
			t.Errorf("text lacks %q:\n%s", line, txt)
		}
	}
}

func TestChart(t *testing.T) {
	c := handReport().Chart()
	want := []plot.Series{
		{Name: "recmem, plugin in Go host", Points: []plot.Point{{X: 100, Y: 1}, {X: 500, Y: 2}}},
		{Name: "recmem, native Go", Points: []plot.Point{{X: 100, Y: 0.5}, {X: 500, Y: 0.8}}},
		// bleve only at 500; Orama failed, so it has no line.
		{Name: "bleve BM25, native Go", Points: []plot.Point{{X: 500, Y: 0.25}}},
	}
	if !reflect.DeepEqual(c.Series, want) {
		t.Errorf("series %+v\nwant %+v", c.Series, want)
	}
}
