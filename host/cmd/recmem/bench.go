package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/host/plot"
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/slatelab"
	"github.com/recmem/recmem/pkg/workload"
)

func init() {
	commands["bench"] = command{"latency, cold start, size and scale: plugin vs native, bleve and Orama peers (--json)", runBench}
}

// benchStat is one path's timing: the median and the 90th percentile of n
// samples, in the unit its key names.
type benchStat struct {
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	N      int     `json:"n"`
}

// benchPaths are the hot paths timed on one host.
type benchPaths struct {
	SignalUs   benchStat            `json:"signal_us"`
	AddUnitUs  benchStat            `json:"add_unit_us"`
	Rank10Ms   benchStat            `json:"rank10_ms"`
	SelectMs   map[string]benchStat `json:"select_ms"`
	ExportMs   map[string]benchStat `json:"export_ms"`
	ImportMs   map[string]benchStat `json:"import_ms"`
	StateBytes map[string]int       `json:"state_bytes"`
	// MemoryBytes is, per memory size, the plugin's linear memory after
	// loading the units (it never shrinks), or natively what loading them
	// added to the live heap (after a GC each time).
	MemoryBytes map[string]int `json:"memory_bytes"`
}

// benchBudget is one budget of issue 9 against its measured value.
type benchBudget struct {
	Name     string  `json:"name"`
	Limit    float64 `json:"limit"`
	Measured float64 `json:"measured"`
	Met      bool    `json:"met"`
}

// benchReport is `recmem bench --json`. The top-level times are medians
// through the plugin in the Go host; "wasm" and "native" hold medians and
// p90 per path.
type benchReport struct {
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
	Wasm           benchPaths         `json:"wasm"`
	Native         benchPaths         `json:"native"`
	Node           map[string]any     `json:"node,omitempty"`
	Budgets        []benchBudget      `json:"budgets"`
	Machine        map[string]any     `json:"machine"`
	Settings       map[string]any     `json:"settings"`
	Skipped        []string           `json:"skipped,omitempty"` // paths not measured, and why
}

type benchOptions struct {
	sizes   []int
	iters   int
	maxTime time.Duration
	locomo  string
	catalog string
	wasm    string
	peers   bool
	node    bool
	root    string
	stderr  io.Writer
	tty     bool
}

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	sizes := fs.String("sizes", "100,500,2000,10000", "memory sizes in units (comma-separated)")
	iters := fs.Int("iters", 200, "timed calls per path and host, after 5 warm-up calls")
	maxTime := fs.Duration("max-time", 3*time.Second, "stop a path after this long (at least 5 samples)")
	data := fs.String("data", "", "LoCoMo JSON `FILE` (default: ../shared/data/locomo/locomo8.json, found upwards)")
	catFile := fs.String("catalog", "", "catalog `FILE` for rank10 (default: web/catalog/games-6k.catalog, found upwards)")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	peers := fs.Bool("peers", true, "measure the bleve peer (go test ./host/peers) in the same run")
	node := fs.Bool("node", true, "measure the JavaScript host and the Orama peer (node web/bench/bench.mjs)")
	out := fs.String("out", "", "also write the JSON report to `FILE`")
	svg := fs.String("svg", "", "write a log-log plot of select latency against units to `FILE` (SVG)")
	md := fs.String("md", "", "write the report's tables as Markdown to `FILE` (for BENCHMARKS.md)")
	from := fs.String("from", "", "measure nothing: read the report from `FILE` (a --json or --out report) and print or render it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem bench [--json] [--sizes 100,500,2000,10000] [--iters N] [--max-time D] [--peers=false] [--node=false]")
		return 2
	}
	o := benchOptions{iters: max(*iters, 1), maxTime: *maxTime, wasm: *wasm, peers: *peers, node: *node,
		stderr: stderr, tty: isTerminal(stderr)}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "recmem bench: --sizes: %q is not a positive unit count\n", f)
			return 2
		}
		o.sizes = append(o.sizes, n)
	}
	o.locomo = *data
	if o.locomo == "" {
		o.locomo = findUp(filepath.Join("shared", "data", "locomo", "locomo8.json"))
	}
	o.catalog = *catFile
	if o.catalog == "" {
		o.catalog = findUp(filepath.Join("web", "catalog", "games-6k.catalog"))
	}
	if p := findUp(filepath.Join("host", "peers")); filepath.IsAbs(p) {
		o.root = filepath.Dir(filepath.Dir(p))
	}
	if o.wasm == "" && *from == "" {
		p, err := host.FindWasm()
		if err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
		o.wasm = p
	}
	var rep *benchReport
	if *from != "" {
		b, err := os.ReadFile(*from)
		if err == nil {
			rep = &benchReport{}
			err = json.Unmarshal(b, rep)
		}
		if err != nil {
			fmt.Fprintln(stderr, "recmem bench: --from:", err)
			return 1
		}
	} else {
		var err error
		if rep, err = bench(context.Background(), o); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	if *out != "" {
		if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	if *svg != "" {
		if err := os.WriteFile(*svg, benchChart(rep).SVG(), 0o644); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	if *md != "" {
		var buf bytes.Buffer
		benchMarkdown(&buf, rep)
		if err := os.WriteFile(*md, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	if *asJSON {
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	printBench(stdout, rep)
	return 0
}

// progress reports a stage on stderr: overwritten in place on a terminal,
// one line per stage otherwise.
func (o *benchOptions) progress(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if o.tty {
		fmt.Fprintf(o.stderr, "\r\033[K%s", msg)
		return
	}
	fmt.Fprintln(o.stderr, msg)
}

// measure times f over warm-up calls then up to iters calls or maxTime (at
// least 5), and returns the median and p90 in units of unit.
func (o *benchOptions) measure(label string, unit time.Duration, f func(i int) error) (benchStat, error) {
	i := 0
	for ; i < 5; i++ {
		if err := f(i); err != nil {
			return benchStat{}, fmt.Errorf("%s: %w", label, err)
		}
	}
	var xs []float64
	start := time.Now()
	for k := 0; k < o.iters && (k < 5 || time.Since(start) < o.maxTime); k++ {
		t0 := time.Now()
		if err := f(i); err != nil {
			return benchStat{}, fmt.Errorf("%s: %w", label, err)
		}
		xs = append(xs, float64(time.Since(t0))/float64(unit))
		i++
		if o.tty && k%10 == 0 {
			o.progress("bench: %s %d/%d", label, k, o.iters)
		}
	}
	return summarize(xs), nil
}

// summarize is the median and the nearest-rank 90th percentile of xs,
// rounded to 4 significant digits.
func summarize(xs []float64) benchStat {
	if len(xs) == 0 {
		return benchStat{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	p90 := s[int(math.Ceil(0.9*float64(len(s))))-1]
	return benchStat{Median: sig4(med), P90: sig4(p90), N: len(s)}
}

func sig4(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// benchCaller is a host under test: the native engine or a plugin instance.
type benchCaller interface {
	Call(export string, input []byte) ([]byte, error)
}

// hostSide opens fresh callers of one kind.
type hostSide struct {
	name  string
	fresh func() (benchCaller, func(), error)
}

func bench(ctx context.Context, o benchOptions) (*benchReport, error) {
	rep := &benchReport{ColdStart: map[string]float64{}, SelectMs: map[string]float64{}, WasmOverNative: map[string]float64{},
		Peers: map[string]any{}, Ratios: map[string]float64{}, Quality: map[string]any{}}
	wasm, err := os.ReadFile(o.wasm)
	if err != nil {
		return nil, err
	}
	rep.WasmBytes = len(wasm)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	zw.Close()
	rep.WasmGzipBytes = gz.Len()

	// Cold start: compile without a cache, then with a warm one; instantiate
	// (the Go runtime's initialisation and a first call); the first real
	// answer (a unit added and a slate selected: the word vectors and the
	// model are parsed on first use).
	o.progress("bench: cold start")
	cacheDir, err := os.MkdirTemp("", "recmem-bench-cache")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cacheDir)
	t0 := time.Now()
	rt, err := host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	rep.ColdStart["compile_nocache_ms"] = ms(time.Since(t0))
	rt.Close(ctx)
	t0 = time.Now()
	rt, err = host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	defer rt.Close(ctx)
	rep.ColdStart["compile_warm_cache_ms"] = ms(time.Since(t0))
	t1 := time.Now()
	first, err := rt.NewInstance(ctx)
	if err != nil {
		return nil, err
	}
	rep.ColdStart["instantiate_ms"] = ms(time.Since(t1))
	t2 := time.Now()
	if _, err := first.Call("add_units", []byte(`{"units":[{"id":"u1","session":"s1","date":"2023-05-08","speaker":"Ana","text":"I moved my pottery class to Thursday."}]}`)); err != nil {
		return nil, err
	}
	if _, err := first.Call("select_slate", []byte(`{"query":"When is the pottery class?","budget":2000}`)); err != nil {
		return nil, err
	}
	rep.ColdStart["first_answer_ms"] = ms(time.Since(t2))
	rep.WarmStartMs = round3(rep.ColdStart["compile_warm_cache_ms"] + rep.ColdStart["instantiate_ms"] + rep.ColdStart["first_answer_ms"])
	first.Close(ctx)

	maxN := 0
	for _, n := range o.sizes {
		maxN = max(maxN, n)
	}
	mem, err := workload.LoCoMoMemory(o.locomo, max(maxN, 500))
	if err != nil {
		return nil, fmt.Errorf("LoCoMo: %w (use --data)", err)
	}
	// rank10 needs a trained catalog (several MB, not in the repository):
	// without one the report says why rank10 is missing.
	var cat *catalog.Catalog
	catBytes, err := os.ReadFile(o.catalog)
	if err == nil {
		cat, err = catalog.Parse(catBytes)
	}
	if err != nil {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("rank10: catalog %s: %v (train one with `recmem train catalog`, or pass --catalog)", o.catalog, err))
		cat, catBytes = nil, nil
	}
	sides := []hostSide{
		{"wasm", func() (benchCaller, func(), error) {
			in, err := rt.NewInstance(ctx)
			if err != nil {
				return nil, nil, err
			}
			return in, func() { in.Close(ctx) }, nil
		}},
		{"native", func() (benchCaller, func(), error) { return engine.New(), func() {}, nil }},
	}
	results := map[string]*benchPaths{"wasm": &rep.Wasm, "native": &rep.Native}
	for _, side := range sides {
		p := results[side.name]
		if err := o.benchSide(side, p, mem, cat, catBytes); err != nil {
			return nil, fmt.Errorf("%s: %w", side.name, err)
		}
	}
	rep.SignalUs, rep.AddUnitUs, rep.Rank10Ms = rep.Wasm.SignalUs.Median, rep.Wasm.AddUnitUs.Median, rep.Wasm.Rank10Ms.Median
	ratio := func(a, b benchStat) float64 {
		if b.Median == 0 {
			return 0
		}
		return round3(a.Median / b.Median)
	}
	rep.WasmOverNative["signal"] = ratio(rep.Wasm.SignalUs, rep.Native.SignalUs)
	rep.WasmOverNative["add_unit"] = ratio(rep.Wasm.AddUnitUs, rep.Native.AddUnitUs)
	rep.WasmOverNative["rank10"] = ratio(rep.Wasm.Rank10Ms, rep.Native.Rank10Ms)
	for _, n := range o.sizes {
		k := strconv.Itoa(n)
		rep.SelectMs[k] = rep.Wasm.SelectMs[k].Median
		rep.WasmOverNative["select_"+k] = ratio(rep.Wasm.SelectMs[k], rep.Native.SelectMs[k])
		rep.WasmOverNative["export_"+k] = ratio(rep.Wasm.ExportMs[k], rep.Native.ExportMs[k])
		rep.WasmOverNative["import_"+k] = ratio(rep.Wasm.ImportMs[k], rep.Native.ImportMs[k])
	}

	o.progress("bench: quality (r_slate at B=2000, per conversation, native)")
	q, err := benchQuality(o.locomo)
	if err != nil {
		return nil, err
	}
	rep.Quality = q

	if o.peers {
		o.progress("bench: bleve peer (go test ./host/peers)")
		rep.Peers["bleve"] = o.runBleve()
	}
	if o.node {
		o.progress("bench: JavaScript host and Orama peer (node web/bench/bench.mjs)")
		node, orama := o.runNode(mem, catBytes)
		rep.Node = node
		rep.Peers["orama"] = orama
	}
	if o.tty {
		fmt.Fprintln(o.stderr)
	}
	largest := strconv.Itoa(maxN)
	if b, ok := rep.Peers["bleve"].(map[string]any); ok {
		if v := peerSelect(b, largest); v > 0 {
			rep.Ratios["recmem_wasm_over_bleve_"+largest] = round3(rep.SelectMs[largest] / v)
		}
	}
	if orama, ok := rep.Peers["orama"].(map[string]any); ok {
		if v := peerSelect(orama, largest); v > 0 {
			if nodeSel, ok := rep.Node["select_ms"].(map[string]any); ok {
				if st, ok := nodeSel[largest].(map[string]any); ok {
					if m, ok := st["median"].(float64); ok {
						rep.Ratios["recmem_js_over_orama_"+largest] = round3(m / v)
					}
				}
			}
		}
	}
	rep.Budgets = budgets(rep)
	rep.Machine = map[string]any{"goos": runtime.GOOS, "goarch": runtime.GOARCH, "cpus": runtime.NumCPU(),
		"gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version(), "cpu": cpuModel()}
	rep.Settings = map[string]any{"sizes": o.sizes, "iters": o.iters, "max_time_s": o.maxTime.Seconds(), "budget": 2000,
		"data": o.locomo, "catalog": o.catalog, "wasm": o.wasm}
	return rep, nil
}

// benchSide times every path on one host.
func (o *benchOptions) benchSide(side hostSide, p *benchPaths, mem *workload.Memory, cat *catalog.Catalog, catBytes []byte) error {
	p.SelectMs, p.ExportMs, p.ImportMs, p.StateBytes = map[string]benchStat{}, map[string]benchStat{}, map[string]benchStat{}, map[string]int{}
	p.MemoryBytes = map[string]int{}
	var err error
	if p.SignalUs, err = o.timeFresh(side, "signal", time.Microsecond, nil, func(c benchCaller, i int) error {
		_, err := c.Call("record", workload.RecordSignal(i))
		return err
	}); err != nil {
		return err
	}
	if cat != nil {
		if p.Rank10Ms, err = o.timeFresh(side, "rank10", time.Millisecond, func(c benchCaller) error {
			if _, err := c.Call("load_catalog", catBytes); err != nil {
				return err
			}
			for _, in := range workload.RankMemory(cat, 20) { // a user with 20 purchases
				if _, err := c.Call("record", in); err != nil {
					return err
				}
			}
			return nil
		}, func(c benchCaller, i int) error {
			_, err := c.Call("rank", workload.Rank10(cat, i))
			return err
		}); err != nil {
			return err
		}
	}
	if p.AddUnitUs, err = o.timeFresh(side, "add_unit", time.Microsecond, func(c benchCaller) error {
		_, err := c.Call("add_units", mem.AddUnits(0, 500))
		return err
	}, func(c benchCaller, i int) error {
		_, err := c.Call("add_units", mem.AddCopy(i))
		return err
	}); err != nil {
		return err
	}

	for _, n := range o.sizes {
		k := strconv.Itoa(n)
		c, done, err := side.fresh()
		if err != nil {
			return err
		}
		heap0 := 0
		if side.name == "native" {
			heap0 = liveHeap() // the empty engine is already in it
		}
		err = func() error {
			defer done()
			if _, err := c.Call("add_units", mem.AddUnits(0, n)); err != nil {
				return err
			}
			if in, ok := c.(*host.Instance); ok {
				p.MemoryBytes[k] = in.MemoryBytes()
			} else {
				p.MemoryBytes[k] = max(0, liveHeap()-heap0)
				runtime.KeepAlive(c)
			}
			var err error
			if p.SelectMs[k], err = o.measure(fmt.Sprintf("%s select %d units", side.name, n), time.Millisecond, func(i int) error {
				_, err := c.Call("select_slate", mem.Select(i, 2000, ""))
				return err
			}); err != nil {
				return err
			}
			var state []byte
			if p.ExportMs[k], err = o.measure(fmt.Sprintf("%s export %d units", side.name, n), time.Millisecond, func(int) error {
				var err error
				state, err = c.Call("export_state", nil)
				return err
			}); err != nil {
				return err
			}
			p.StateBytes[k] = len(state)
			p.ImportMs[k], err = o.measure(fmt.Sprintf("%s import %d units", side.name, n), time.Millisecond, func(int) error {
				_, err := c.Call("import_state", state)
				return err
			})
			return err
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// timeFresh times call on a fresh caller that setup (if any) prepared.
func (o *benchOptions) timeFresh(side hostSide, label string, unit time.Duration, setup func(benchCaller) error,
	call func(c benchCaller, i int) error) (benchStat, error) {
	c, done, err := side.fresh()
	if err != nil {
		return benchStat{}, err
	}
	defer done()
	if setup != nil {
		if err := setup(c); err != nil {
			return benchStat{}, fmt.Errorf("%s %s: %w", side.name, label, err)
		}
	}
	return o.measure(side.name+" "+label, unit, func(i int) error { return call(c, i) })
}

// benchQuality is recmem's slate completeness at B=2000 with the embedded
// model, one memory per LoCoMo conversation, as `recmem eval slate` measures
// it (natively: the plugin's slates are identical). The embedded model was
// trained on these conversations; docs/slate.md has the cross-validated
// figures.
func benchQuality(path string) (map[string]any, error) {
	convs, err := dataset.LoadConversations(path)
	if err != nil {
		return nil, err
	}
	e := engine.New()
	var t slatelab.Tally
	for _, conv := range convs {
		if _, err := e.Call("reset", nil); err != nil {
			return nil, err
		}
		in, _ := json.Marshal(map[string]any{"units": slatelab.UnitsOf(conv)})
		if _, err := e.Call("add_units", in); err != nil {
			return nil, err
		}
		for _, q := range conv.Questions {
			if !slatelab.Eligible(q) {
				continue
			}
			req := map[string]any{"query": q.Text, "budget": 2000}
			if q.Date != "" {
				req["date"] = q.Date
			}
			in, _ := json.Marshal(req)
			out, err := e.Call("select_slate", in)
			if err != nil {
				return nil, err
			}
			var res slate.Result
			if err := json.Unmarshal(out, &res); err != nil {
				return nil, err
			}
			o := slatelab.Outcome{Kappa: conv.Sessions(q), Evidence: q.Evidence, Tokens: res.Tokens}
			for _, u := range res.Units {
				o.Slate = append(o.Slate, u.ID)
			}
			t.Add(o)
		}
	}
	m := t.Metrics()
	return map[string]any{"r_slate": m.RSlate, "r_slate_k2": m.RSlateK2, "r_slate_k3": m.RSlateK3, "recall": m.Recall,
		"questions": m.Questions, "budget": 2000,
		"model": "embedded (trained on all LoCoMo conversations; cross-validated figures in docs/slate.md)"}, nil
}

// runBleve runs the bleve peer, a test-only package so that neither the
// plugin nor this command links bleve, and returns its JSON object (or an
// object holding the error).
func (o *benchOptions) runBleve() map[string]any {
	if o.root == "" {
		return map[string]any{"error": "host/peers not found: run recmem bench from the repository"}
	}
	f, err := os.CreateTemp("", "recmem-bleve-*.json")
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	f.Close()
	defer os.Remove(f.Name())
	sizes := make([]string, len(o.sizes))
	for i, n := range o.sizes {
		sizes[i] = strconv.Itoa(n)
	}
	cmd := exec.Command("go", "test", "-run", "^TestBlevePeer$", "-count=1", "./host/peers", "-args",
		"-peer.out", f.Name(), "-peer.sizes", strings.Join(sizes, ","), "-peer.iters", strconv.Itoa(o.iters))
	cmd.Dir = o.root
	return runPeer(cmd, f.Name())
}

// runNode writes the shared workload file and runs the Node runner: the
// same paths through the JavaScript host, and the Orama peer.
func (o *benchOptions) runNode(mem *workload.Memory, catBytes []byte) (node, orama map[string]any) {
	fail := func(err error) (map[string]any, map[string]any) {
		e := map[string]any{"error": err.Error()}
		return e, e
	}
	if o.root == "" {
		return fail(errors.New("web/bench not found: run recmem bench from the repository"))
	}
	catPath := o.catalog
	if catBytes == nil {
		catPath = "" // no usable catalog: no rank10 in Node either
	}
	wf, err := workload.BuildFile(o.locomo, catPath, o.sizes, workload.FileOptions{})
	if err != nil {
		return fail(err)
	}
	f, err := os.CreateTemp("", "recmem-workload-*.json")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(f.Name())
	if err := wf.Write(f); err != nil {
		f.Close()
		return fail(err)
	}
	f.Close()
	wasm, _ := filepath.Abs(o.wasm)
	args := []string{filepath.Join("web", "bench", "bench.mjs"), "--workload", f.Name(), "--wasm", wasm,
		"--iters", strconv.Itoa(o.iters), "--max-ms", strconv.FormatInt(o.maxTime.Milliseconds(), 10), "--json"}
	if catPath != "" {
		abs, _ := filepath.Abs(catPath)
		args = append(args, "--catalog", abs)
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = o.root
	res := runPeer(cmd, "")
	if _, bad := res["error"]; bad {
		return res, res
	}
	orama, _ = res["orama"].(map[string]any)
	delete(res, "orama")
	return res, orama
}

// runPeer runs cmd and decodes the JSON object it wrote to out, or to its
// standard output when out is "".
func runPeer(cmd *exec.Cmd, out string) map[string]any {
	var stdout, stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return map[string]any{"error": fmt.Sprintf("%s: %v: %s", strings.Join(cmd.Args, " "), err, msg)}
	}
	b := stdout.Bytes()
	if out != "" {
		var err error
		if b, err = os.ReadFile(out); err != nil {
			return map[string]any{"error": err.Error()}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"error": "decoding " + out + ": " + err.Error()}
	}
	return m
}

// peerSelect reads a peer's median select time at n units: a number, or an
// object with a median.
func peerSelect(p map[string]any, n string) float64 {
	sel, _ := p["select_ms"].(map[string]any)
	switch v := sel[n].(type) {
	case float64:
		return v
	case map[string]any:
		m, _ := v["median"].(float64)
		return m
	}
	return 0
}

// budgets holds the measured figures against issue 9's budgets.
func budgets(r *benchReport) []benchBudget {
	var out []benchBudget
	add := func(name string, limit, v float64) {
		if v > 0 {
			out = append(out, benchBudget{name, limit, v, v <= limit})
		}
	}
	add("select_ms at 500 units (plugin, Go host)", 1, r.SelectMs["500"])
	add("select_ms at 10000 units (plugin, Go host)", 3, r.SelectMs["10000"])
	add("recmem plugin over bleve at 10000 units", 3, r.Ratios["recmem_wasm_over_bleve_10000"])
	add("recmem JS host over Orama at 10000 units", 0.2, r.Ratios["recmem_js_over_orama_10000"])
	add("add_unit_us (plugin)", 50, r.AddUnitUs)
	add("signal_us (plugin)", 200, r.SignalUs)
	add("rank10_ms (plugin)", 0.5, r.Rank10Ms)
	keys := make([]string, 0, len(r.WasmOverNative))
	for k := range r.WasmOverNative {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		add("plugin over native: "+k, 2, r.WasmOverNative[k])
	}
	add("warm_start_ms (Go host)", 100, r.WarmStartMs)
	add("wasm_gzip_bytes", 3_000_000, float64(r.WasmGzipBytes))
	return out
}

func printBench(w io.Writer, r *benchReport) {
	fmt.Fprintf(w, "recmem bench on %v (%v cpus, %v)\n\n", r.Machine["cpu"], r.Machine["cpus"], r.Machine["go"])
	fmt.Fprintf(w, "plugin: %d bytes, %d gzipped; warm start to first answer %.1f ms (compile %.1f ms without cache, %.1f ms with)\n\n",
		r.WasmBytes, r.WasmGzipBytes, r.WarmStartMs, r.ColdStart["compile_nocache_ms"], r.ColdStart["compile_warm_cache_ms"])
	fmt.Fprintf(w, "%-22s %14s %14s %14s %8s\n", "path (median / p90)", "plugin", "native", "p90 plugin", "ratio")
	row := func(name string, a, b benchStat, unit string) {
		ratio := 0.0
		if b.Median > 0 {
			ratio = a.Median / b.Median
		}
		fmt.Fprintf(w, "%-22s %11.4g %-2s %11.4g %-2s %11.4g %-2s %7.1fx\n", name, a.Median, unit, b.Median, unit, a.P90, unit, ratio)
	}
	row("record signal", r.Wasm.SignalUs, r.Native.SignalUs, "us")
	row("add unit", r.Wasm.AddUnitUs, r.Native.AddUnitUs, "us")
	row("rank 10", r.Wasm.Rank10Ms, r.Native.Rank10Ms, "ms")
	keys := make([]int, 0)
	for k := range r.Wasm.SelectMs {
		n, _ := strconv.Atoi(k)
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, n := range keys {
		k := strconv.Itoa(n)
		row("select "+k+" units", r.Wasm.SelectMs[k], r.Native.SelectMs[k], "ms")
	}
	for _, n := range keys {
		k := strconv.Itoa(n)
		row("export "+k+" units", r.Wasm.ExportMs[k], r.Native.ExportMs[k], "ms")
		row("import "+k+" units", r.Wasm.ImportMs[k], r.Native.ImportMs[k], "ms")
	}
	fmt.Fprintln(w)
	for _, name := range []string{"bleve", "orama"} {
		p, _ := r.Peers[name].(map[string]any)
		if p == nil {
			continue
		}
		if e, ok := p["error"]; ok {
			fmt.Fprintf(w, "%s: %v\n", name, e)
			continue
		}
		fmt.Fprintf(w, "%s: r_slate %v;", name, p["r_slate"])
		for _, n := range keys {
			fmt.Fprintf(w, " %d units %.4g ms;", n, peerSelect(p, strconv.Itoa(n)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "recmem: r_slate %v at B=2000 (embedded model)\n\n", r.Quality["r_slate"])
	for _, b := range r.Budgets {
		mark := "MISSED"
		if b.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "%-48s %12.4g (budget %g) %s\n", b.Name, b.Measured, b.Limit, mark)
	}
}

// benchMarkdown writes the report as Markdown tables: the hot paths, the
// scaling of selection and state, the peers, cold start and the budgets.
func benchMarkdown(w io.Writer, r *benchReport) {
	sizes := benchSizes(r)
	num := func(x float64) string { return strconv.FormatFloat(sig4(x), 'g', -1, 64) }
	ratio := func(a, b float64) string {
		if b == 0 {
			return "–"
		}
		return num(a/b) + "x"
	}
	fmt.Fprintf(w, "Machine: %v, %v logical CPUs (GOMAXPROCS %v), %v, %v/%v.\n\n", r.Machine["cpu"], r.Machine["cpus"], r.Machine["gomaxprocs"], r.Machine["go"], r.Machine["goos"], r.Machine["goarch"])
	fmt.Fprintln(w, "| path | plugin (Go host) median | p90 | native median | p90 | plugin / native |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	row := func(name, unit string, a, b benchStat) {
		fmt.Fprintf(w, "| %s | %s %s | %s %s | %s %s | %s %s | %s |\n", name, num(a.Median), unit, num(a.P90), unit, num(b.Median), unit, num(b.P90), unit, ratio(a.Median, b.Median))
	}
	row("record a signal + LLM-free maintenance", "µs", r.Wasm.SignalUs, r.Native.SignalUs)
	row("add one unit (memory of 500)", "µs", r.Wasm.AddUnitUs, r.Native.AddUnitUs)
	row("rank 10 candidates", "ms", r.Wasm.Rank10Ms, r.Native.Rank10Ms)
	for _, k := range sizes {
		row("select a slate, B=2000, "+k+" units", "ms", r.Wasm.SelectMs[k], r.Native.SelectMs[k])
	}
	for _, k := range sizes {
		row("export_state, "+k+" units", "ms", r.Wasm.ExportMs[k], r.Native.ExportMs[k])
		row("import_state, "+k+" units", "ms", r.Wasm.ImportMs[k], r.Native.ImportMs[k])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| units | state bytes | plugin memory | native heap | select plugin ms | select native ms | select JS host ms | bleve ms | Orama ms |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	peer := func(name, k string) string {
		p, ok := r.Peers[name].(map[string]any)
		if !ok {
			return "–"
		}
		if v := peerSelect(p, k); v > 0 {
			return num(v)
		}
		return "–"
	}
	for _, k := range sizes {
		js := "–"
		if r.Node != nil {
			if v := peerSelect(r.Node, k); v > 0 {
				js = num(v)
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %s | %s | %s | %s |\n", k, r.Wasm.StateBytes[k], r.Wasm.MemoryBytes[k], r.Native.MemoryBytes[k],
			num(r.Wasm.SelectMs[k].Median), num(r.Native.SelectMs[k].Median), js, peer("bleve", k), peer("orama", k))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| ranker | r_slate (B=2000, per conversation) | r_slate_k2 | questions |")
	fmt.Fprintln(w, "|---|---|---|---|")
	fmt.Fprintf(w, "| recmem (embedded model, trained on these conversations) | %v | %v | %v |\n", r.Quality["r_slate"], r.Quality["r_slate_k2"], r.Quality["questions"])
	for _, name := range []string{"bleve", "orama"} {
		if p, ok := r.Peers[name].(map[string]any); ok {
			if e, bad := p["error"]; bad {
				fmt.Fprintf(w, "| %s | error: %v | | |\n", name, e)
				continue
			}
			fmt.Fprintf(w, "| %s | %v | %v | %v |\n", name, p["r_slate"], p["r_slate_k2"], p["questions"])
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Cold start (Go host): compile without cache %s ms, with a warm cache %s ms, instantiate %s ms, first answer (a unit added and a slate selected) %s ms; warm start to first answer %s ms.",
		num(r.ColdStart["compile_nocache_ms"]), num(r.ColdStart["compile_warm_cache_ms"]), num(r.ColdStart["instantiate_ms"]), num(r.ColdStart["first_answer_ms"]), num(r.WarmStartMs))
	fmt.Fprintf(w, " Module: %d bytes, %d gzipped.\n\n", r.WasmBytes, r.WasmGzipBytes)
	fmt.Fprintln(w, "| budget | limit | measured | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, b := range r.Budgets {
		mark := "missed"
		if b.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", b.Name, num(b.Limit), num(b.Measured), mark)
	}
}

// benchSizes are the report's memory sizes, ascending, as keys.
func benchSizes(r *benchReport) []string {
	var ns []int
	for k := range r.SelectMs {
		n, _ := strconv.Atoi(k)
		ns = append(ns, n)
	}
	sort.Ints(ns)
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// benchChart plots select latency (median, ms) against memory size for
// recmem on each host and for the peers.
func benchChart(r *benchReport) *plot.Chart {
	c := &plot.Chart{Title: "Slate selection at B = 2000: median latency against memory size",
		XLabel: "units in memory (LoCoMo turns)", YLabel: "ms per select (median)"}
	line := func(name string, get func(k string) float64) {
		s := plot.Series{Name: name}
		var ns []int
		for k := range r.SelectMs {
			n, _ := strconv.Atoi(k)
			ns = append(ns, n)
		}
		sort.Ints(ns)
		for _, n := range ns {
			if v := get(strconv.Itoa(n)); v > 0 {
				s.Points = append(s.Points, plot.Point{X: float64(n), Y: v})
			}
		}
		if len(s.Points) > 0 {
			c.Series = append(c.Series, s)
		}
	}
	line("recmem, plugin in Go host", func(k string) float64 { return r.Wasm.SelectMs[k].Median })
	line("recmem, native Go", func(k string) float64 { return r.Native.SelectMs[k].Median })
	if r.Node != nil {
		line("recmem, plugin in Node", func(k string) float64 { return peerSelect(r.Node, k) })
	}
	for _, name := range []string{"bleve", "orama"} {
		if p, ok := r.Peers[name].(map[string]any); ok {
			label := map[string]string{"bleve": "bleve BM25, native Go", "orama": "Orama hybrid, Node"}[name]
			line(label, func(k string) float64 { return peerSelect(p, k) })
		}
	}
	return c
}

// liveHeap is the Go heap in use after a collection.
func liveHeap() int {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int(m.HeapAlloc)
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// cpuModel is the processor's name from /proc/cpuinfo ("" elsewhere).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
