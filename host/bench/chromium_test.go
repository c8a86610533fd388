package bench

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
)

// TestChromiumRestore restores a small memory in Chromium through
// web/bench/restore.mjs: both forms are timed, each restore answered (the
// script fails when a restored memory chooses no unit), and the binary state
// is the smaller. It needs chromium and web/node_modules (./build.sh).
func TestChromiumRestore(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if why := chromiumSkip(root); why != "" {
		t.Skip(why)
	}
	wasm, err := host.FindWasm()
	if err != nil {
		t.Skip(err)
	}
	defer func(n int) { ChromiumUnits = n }(ChromiumUnits)
	ChromiumUnits = 200
	r := &runner{Options{Iters: 2, MaxTime: time.Second, Wasm: wasm, LoCoMo: filepath.Join(root, "testdata", "web", "locomo-mini.json"), Root: root, Progress: io.Discard}}
	c := r.runChromium()
	if c.Error != "" {
		t.Fatal(c.Error)
	}
	if c.Units != 200 || c.Version == "" || !strings.Contains(c.What, "IndexedDB") {
		t.Errorf("units %d, chromium %q, what %q", c.Units, c.Version, c.What)
	}
	for _, f := range []string{"json", "binary"} {
		if i, r := c.ImportMs[f], c.RestoreMs[f]; i.N != 2 || r.N != 2 || i.Median <= 0 || r.Median < i.Median/2 || c.StateBytes[f] == 0 {
			t.Errorf("%s: import %+v, restore %+v, %d bytes", f, i, r, c.StateBytes[f])
		}
	}
	if c.StateBytes["binary"] >= c.StateBytes["json"] {
		t.Errorf("binary %d bytes, JSON %d", c.StateBytes["binary"], c.StateBytes["json"])
	}
}

// TestFirstVisit opens the games page on a fresh profile through
// web/bench/firstvisit.mjs: the first recommendations come after the module
// and the catalog, in that order. It needs chromium, web/node_modules and
// bin/recmem (./build.sh).
func TestFirstVisit(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if why := chromiumSkip(root); why != "" {
		t.Skip(why)
	}
	wasm, err := host.FindWasm()
	if err != nil {
		t.Skip(err)
	}
	if !exists(filepath.Join(root, "bin", "recmem")) {
		t.Skip("bin/recmem is missing: ./build.sh")
	}
	r := &runner{Options{Iters: 1, MaxTime: time.Second, Wasm: wasm, Root: root, Progress: io.Discard}}
	f := r.runFirstVisit()
	if f.Error != "" {
		t.Fatal(f.Error)
	}
	p := f.PhasesMs
	if f.FirstRecsMs.N != 1 || !(p["module"].Median > 0 && p["module"].Median <= p["catalog"].Median && p["catalog"].Median <= f.FirstRecsMs.Median) {
		t.Errorf("first visit %+v", f)
	}
}
