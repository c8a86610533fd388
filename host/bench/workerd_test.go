package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
)

func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"885480608 94428101 80\n", 885480608, ""},
		{"0 0 0", 0, ""},
		{"", 0, "schedstat: empty"},
		{"x 1 2", 0, "schedstat: "},
	}
	for _, tt := range tests {
		got, err := parseSchedstat([]byte(tt.in))
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tt.err)) {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParseStatTicks(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		// utime 88 and stime 3 ticks: 91 ticks of 10 ms.
		{"22518 (cat) R 22514 22514 14787 0 -1 4194304 102 0 0 0 88 3 0 0 20 0 1 0", 910 * time.Millisecond, ""},
		// a command name with spaces and a parenthesis
		{"7 (a (b) c) S 1 7 7 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0", 100 * time.Millisecond, ""},
		{"7 cat S 1", 0, "stat: no command name"},
		{"7 (cat) S 1 2 3", 0, "stat: too few fields"},
		{"7 (cat) S 1 7 7 0 -1 0 0 0 0 0 x 5 0", 0, "stat: "},
	}
	for _, tt := range tests {
		got, err := parseStatTicks([]byte(tt.in))
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tt.err)) {
			t.Errorf("parseStatTicks(%q) = %v, %v; want %v, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestListenPort(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`{"event":"listen","socket":"http","port":38383}` + "\n", 38383},
		{`{"event":"listen","socket":"other","port":1}` + "\n" + `not json` + "\n" + `{"event":"listen","socket":"http","port":2}`, 2},
		{`{"event":"listen","socket":"other","port":1}`, 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := listenPort(strings.NewReader(tt.in)); got != tt.want {
			t.Errorf("listenPort(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestWorkerdSkip(t *testing.T) {
	if got := workerdSkip(""); got != "workerd: web/ not found: run recmem bench from the repository" {
		t.Errorf("no root: %q", got)
	}
	if runtime.GOOS == "linux" {
		if got := workerdSkip(t.TempDir()); !strings.HasPrefix(got, "workerd: not installed under web/node_modules") {
			t.Errorf("no workerd: %q", got)
		}
	}
}

// TestWorkerdRequest times the request in workerd at two small memories,
// with the LoCoMo sample of testdata: every figure is there, the process's
// CPU time is at least its main thread's, and a bigger memory costs more.
// It needs workerd under web/node_modules (./build.sh installs it).
func TestWorkerdRequest(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if why := workerdSkip(root); why != "" {
		t.Skip(why)
	}
	wasm, err := host.FindWasm()
	if err != nil {
		t.Skip(err)
	}
	defer func(s []int) { WorkerdSizes = s }(WorkerdSizes)
	WorkerdSizes = []int{0, 300}
	ctx := context.Background()
	b, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := host.Open(ctx, host.Options{Wasm: b})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	r := &runner{Options{Iters: 3, MaxTime: time.Second, Wasm: wasm, LoCoMo: filepath.Join(root, "testdata", "web", "locomo-mini.json"), Root: root, Progress: io.Discard}}
	wd := r.runWorkerd(ctx, rt, nil, "")
	if wd.Error != "" {
		t.Fatal(wd.Error)
	}
	if !strings.HasPrefix(wd.Version, "workerd ") || wd.Catalog != "web/catalog/games-demo.json, as the page builds it" {
		t.Errorf("version %q, catalog %q", wd.Version, wd.Catalog)
	}
	for _, k := range []string{"0", "300"} {
		c, p, w := wd.RequestCPUMs[k], wd.RequestProcessCPUMs[k], wd.RequestWallMs[k]
		if c.N != 3 || p.N != 3 || w.N != 3 || c.Median <= 0 || p.Median < c.Median || w.Median <= 0 || wd.StateBytes[k] == 0 || wd.StateGzipBytes[k] == 0 {
			t.Errorf("%s units: cpu %+v, process %+v, wall %+v, state %d bytes (%d gzipped)", k, c, p, w, wd.StateBytes[k], wd.StateGzipBytes[k])
		}
	}
	for _, k := range []string{"0", "300"} {
		b, h := wd.BinaryRequestCPUMs[k], wd.WarmRequestCPUMs[k]
		if b.N != 3 || h.N != 3 || b.Median <= 0 || h.Median <= 0 || wd.BinaryStateBytes[k] == 0 || wd.BinaryStateGzip[k] == 0 {
			t.Errorf("%s units: binary %+v, warm %+v, binary state %d bytes (%d gzipped)", k, b, h, wd.BinaryStateBytes[k], wd.BinaryStateGzip[k])
		}
		// Each request brings the state the one before answered: all but
		// the first timed one (after the check's answer) are served warm.
		if wd.WarmHits[k] != 3 {
			t.Errorf("%s units: %d of 3 requests served warm", k, wd.WarmHits[k])
		}
	}
	if wd.RequestCPUMs["300"].Median <= wd.RequestCPUMs["0"].Median {
		t.Errorf("300 units cost %v ms, no more than the empty memory's %v ms", wd.RequestCPUMs["300"].Median, wd.RequestCPUMs["0"].Median)
	}
}
