package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/workload"
)

// budget is the slate budget B of every selection measured, in tokens.
const budget = 2000

// Options are one run's settings; `recmem bench` sets them from its flags.
type Options struct {
	Sizes    []int         // memory sizes in units, at least one, each above 0
	Iters    int           // timed calls per path and host, after 5 warm-up calls (below 1 counts as 1)
	MaxTime  time.Duration // stop timing a path after this long, once it has min(Iters, 5) timed calls
	LoCoMo   string        // LoCoMo JSON file: the memories' turns and the quality questions
	Catalog  string        // trained catalog for rank10; when unreadable, rank10 is skipped and Report.Skipped says why
	Wasm     string        // the plugin's .wasm file
	Peers    bool          // measure the bleve peer (go test ./host/peers, run in Root)
	Node     bool          // measure the JavaScript host and the Orama peer (node web/bench/bench.mjs, run in Root)
	Workerd  bool          // time one stateless request in workerd (web/bench/worker.mjs; Linux, workerd under Root/web/node_modules)
	Chromium bool          // time the restore of 10,000 units in headless Chromium (web/bench/restore.mjs)
	Root     string        // the repository's root; "" leaves an error in place of the peers and Node

	Progress io.Writer // where the stages are reported (nil: nowhere)
	Terminal bool      // Progress is a terminal: stages overwrite each other in place
}

// runner is one run: its settings, with the defaults filled in.
type runner struct{ Options }

// Run measures everything the options ask for and returns the report. It
// fails when the module, the LoCoMo file or a call fails; a missing catalog
// or a failing peer is recorded in the report instead.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	o.Iters = max(o.Iters, 1)
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	r := &runner{o}
	rep := &Report{ColdStart: map[string]float64{}, SelectMs: map[string]float64{}, WasmOverNative: map[string]float64{},
		Peers: map[string]any{}, Ratios: map[string]float64{}, Quality: map[string]any{}}
	wasm, err := os.ReadFile(r.Wasm)
	if err != nil {
		return nil, err
	}
	rep.WasmBytes = len(wasm)
	rep.WasmGzipBytes = gzipSize(wasm)

	r.progress("bench: cold start")
	cacheDir, err := os.MkdirTemp("", "recmem-bench-cache")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cacheDir)
	rt, err := coldStart(ctx, wasm, cacheDir, rep)
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)

	maxN := 0
	for _, n := range r.Sizes {
		maxN = max(maxN, n)
	}
	mem, err := workload.LoCoMoMemory(r.LoCoMo, max(maxN, 500))
	if err != nil {
		return nil, fmt.Errorf("LoCoMo: %w (use --data)", err)
	}
	// rank10 needs a trained catalog (several MB, not in the repository):
	// without one the report says why rank10 is missing.
	var cat *catalog.Catalog
	catBytes, err := os.ReadFile(r.Catalog)
	if err == nil {
		cat, err = catalog.Parse(catBytes)
	}
	if err != nil {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("rank10: catalog %s: %v (train one with `recmem train catalog`, or pass --catalog)", r.Catalog, err))
		cat, catBytes = nil, nil
	}
	results := map[string]*Paths{"wasm": &rep.Wasm, "native": &rep.Native}
	for _, h := range hosts(ctx, rt) {
		if err := r.paths(h, results[h.name], mem, cat, catBytes); err != nil {
			return nil, fmt.Errorf("%s: %w", h.name, err)
		}
	}
	r.compare(rep)
	r.progress("bench: state formats and stateless HTTP select")
	if err := r.formats(ctx, wasm, cacheDir, mem, rep); err != nil {
		return nil, err
	}

	r.progress("bench: quality (r_slate at B=2000, per conversation, native)")
	if rep.Quality, err = quality(r.LoCoMo); err != nil {
		return nil, err
	}
	if r.Peers {
		r.progress("bench: bleve peer (go test ./host/peers)")
		rep.Peers["bleve"] = r.runBleve()
	}
	if r.Node {
		r.progress("bench: JavaScript host and Orama peer (node web/bench/bench.mjs)")
		node, orama := r.runNode(mem, catBytes)
		rep.Node = node
		rep.Peers["orama"] = orama
	}
	if r.Workerd {
		if why := workerdSkip(r.Root); why != "" {
			rep.Skipped = append(rep.Skipped, why)
		} else {
			r.progress("bench: workerd (web/bench/worker.mjs)")
			rep.Workerd = r.runWorkerd(ctx, rt, catBytes, r.Catalog)
		}
	}
	if r.Chromium {
		if why := chromiumSkip(r.Root); why != "" {
			rep.Skipped = append(rep.Skipped, why)
		} else {
			r.progress("bench: restore of %d units in Chromium (web/bench/restore.mjs)", ChromiumUnits)
			rep.Chromium = r.runChromium()
			r.progress("bench: a first visit to the games page in Chromium (web/bench/firstvisit.mjs)")
			rep.Chromium.FirstVisit = r.runFirstVisit()
		}
	}
	if r.Terminal {
		fmt.Fprintln(r.Progress)
	}
	peerRatios(rep, strconv.Itoa(maxN))
	rep.Budgets = budgets(rep)
	rep.Machine = machine()
	rep.Settings = map[string]any{"sizes": r.Sizes, "iters": r.Iters, "max_time_s": r.MaxTime.Seconds(), "budget": budget,
		"data": r.LoCoMo, "catalog": r.Catalog, "wasm": r.Wasm}
	return rep, nil
}

// validate names the first option that cannot be measured with.
func (o *Options) validate() error {
	if len(o.Sizes) == 0 {
		return errors.New("bench: Options.Sizes is empty")
	}
	for _, n := range o.Sizes {
		if n <= 0 {
			return fmt.Errorf("bench: Options.Sizes: %d is not a positive unit count", n)
		}
	}
	if o.Wasm == "" {
		return errors.New("bench: Options.Wasm is empty")
	}
	if o.LoCoMo == "" {
		return errors.New("bench: Options.LoCoMo is empty")
	}
	return nil
}

// gzipSize is the size of b compressed by gzip at its best compression.
func gzipSize(b []byte) int {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return gz.Len()
}

// compare fills the report's top-level figures (the plugin's medians) and
// the plugin's time over native time for each path.
func (r *runner) compare(rep *Report) {
	rep.SignalUs, rep.AddUnitUs, rep.Rank10Ms = rep.Wasm.SignalUs.Median, rep.Wasm.AddUnitUs.Median, rep.Wasm.Rank10Ms.Median
	ratio := func(a, b Stat) float64 {
		if b.Median == 0 {
			return 0
		}
		return round3(a.Median / b.Median)
	}
	rep.WasmOverNative["signal"] = ratio(rep.Wasm.SignalUs, rep.Native.SignalUs)
	rep.WasmOverNative["add_unit"] = ratio(rep.Wasm.AddUnitUs, rep.Native.AddUnitUs)
	rep.WasmOverNative["rank10"] = ratio(rep.Wasm.Rank10Ms, rep.Native.Rank10Ms)
	for _, n := range r.Sizes {
		k := strconv.Itoa(n)
		rep.SelectMs[k] = rep.Wasm.SelectMs[k].Median
		rep.WasmOverNative["select_"+k] = ratio(rep.Wasm.SelectMs[k], rep.Native.SelectMs[k])
		rep.WasmOverNative["export_"+k] = ratio(rep.Wasm.ExportMs[k], rep.Native.ExportMs[k])
		rep.WasmOverNative["import_"+k] = ratio(rep.Wasm.ImportMs[k], rep.Native.ImportMs[k])
	}
}
