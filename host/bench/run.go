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

	"github.com/recmem/recmem/host"
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
	Catalog  string        // trained catalog for rank10; when unreadable, rank10 ranks the page's demo catalog and Report.RankCatalog says so
	Wasm     string        // the plugin's .wasm file
	Peers    bool          // measure the bleve peer (go test ./host/peers, run in Root)
	Node     bool          // measure the JavaScript host and the Orama peer (node web/bench/bench.mjs, run in Root)
	Workerd  bool          // time one stateless request in workerd (web/bench/worker.mjs; Linux, workerd under Root/web/node_modules)
	Chromium bool          // time the restore of 10,000 units in headless Chromium (web/bench/restore.mjs)
	Root     string        // the repository's root; "" leaves an error in place of the peers and Node
	Before   string        // another module whose plugin paths are timed beside Wasm's, alternating (Report.Before); "" for none
	Phases   bool          // break the paths down into the module's phases (Report.Phases)

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
	rs := r.rankSet(rep)
	var catBytes []byte
	if rs.cat10 != nil && rep.RankCatalog == r.Catalog {
		catBytes = rs.cat10Bytes // the trained catalog, for Node and workerd
	}
	sides := []side{wasmSide(ctx, "wasm", rt), nativeSide(nil)}
	results := []*Paths{&rep.Wasm, &rep.Native}
	var rtBefore *host.Runtime
	if r.Before != "" {
		r.progress("bench: the module before (%s)", r.Before)
		if rtBefore, err = r.before(ctx, cacheDir, rep); err != nil {
			return nil, fmt.Errorf("--before: %w", err)
		}
		defer rtBefore.Close(ctx)
		sides = append(sides, wasmSide(ctx, "before", rtBefore))
		results = append(results, &rep.Before.Paths)
	}
	if err := r.paths(sides, results, mem, rs); err != nil {
		return nil, err
	}
	if r.Phases {
		if err := r.phaseBreakdowns(ctx, wasm, cacheDir, mem, rs, rep); err != nil {
			return nil, err
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
		node, orama := r.runNode(mem, catBytes, rs)
		rep.Node = node
		rep.Peers["orama"] = orama
		if ph := nodePhases(node); ph != nil {
			if rep.Phases == nil {
				rep.Phases = map[string]map[string]*PhaseBreakdown{}
			}
			rep.Phases["node"] = ph
		}
	}
	if r.Workerd {
		if why := workerdSkip(r.Root); why != "" {
			rep.Skipped = append(rep.Skipped, why)
		} else {
			r.progress("bench: workerd (web/bench/worker.mjs)")
			rep.Workerd = r.runWorkerd(ctx, rt, catBytes, r.Catalog)
			if rtBefore != nil {
				r.progress("bench: workerd, the module before")
				rb := &runner{r.Options}
				rb.Wasm = r.Before
				rep.Before.Workerd = rb.runWorkerd(ctx, rtBefore, catBytes, r.Catalog)
			}
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
	if r.Before != "" {
		rep.Settings["before"] = r.Before
	}
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
	pathRatios(rep.WasmOverNative, &rep.Wasm, &rep.Native)
	for _, n := range r.Sizes {
		k := strconv.Itoa(n)
		rep.SelectMs[k] = rep.Wasm.SelectMs[k].Median
	}
	if b := rep.Before; b != nil {
		b.AfterOverBefore = map[string]float64{}
		pathRatios(b.AfterOverBefore, &rep.Wasm, &b.Paths)
		if b.WarmStartMs > 0 {
			b.AfterOverBefore["warm_start"] = round3(rep.WarmStartMs / b.WarmStartMs)
		}
		b.AfterOverBefore["wasm_gzip_bytes"] = round3(float64(rep.WasmGzipBytes) / float64(b.WasmGzipBytes))
	}
}

// pathRatios sets into[path] to a's median over b's for every path both
// measured: "signal", "add_unit", "rank10", "rank_<n>",
// "rank_<n>_instruction", and "select_<n>", "export_<n>", "import_<n>" by
// memory size.
func pathRatios(into map[string]float64, a, b *Paths) {
	put := func(key string, x, y Stat) {
		if x.Median > 0 && y.Median > 0 {
			into[key] = round3(x.Median / y.Median)
		}
	}
	put("signal", a.SignalUs, b.SignalUs)
	put("add_unit", a.AddUnitUs, b.AddUnitUs)
	put("rank10", a.Rank10Ms, b.Rank10Ms)
	for k, x := range a.RankMs {
		put("rank_"+k, x, b.RankMs[k])
	}
	for k, x := range a.RankInstructionMs {
		put("rank_"+k+"_instruction", x, b.RankInstructionMs[k])
	}
	for k, x := range a.SelectMs {
		put("select_"+k, x, b.SelectMs[k])
	}
	for k, x := range a.ExportMs {
		put("export_"+k, x, b.ExportMs[k])
	}
	for k, x := range a.ImportMs {
		put("import_"+k, x, b.ImportMs[k])
	}
}
