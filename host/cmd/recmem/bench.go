package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/host/bench"
)

func init() {
	commands["bench"] = command{"latency, cold start, size and scale: plugin vs native, bleve and Orama peers (--json)", runBench}
}

// runBench is `recmem bench`: it reads the flags, measures with host/bench
// (or reads a saved report with --from), and writes the report as text, JSON,
// Markdown or an SVG chart.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	sizes := fs.String("sizes", "100,500,2000,10000", "memory sizes in units (comma-separated)")
	iters := fs.Int("iters", 200, "timed calls per path and host, after 5 warm-up calls")
	maxTime := fs.Duration("max-time", 3*time.Second, "stop a path after this long (at least 5 samples)")
	data := fs.String("data", "", "LoCoMo JSON `FILE` (default: ../shared/data/locomo/locomo8.json, found upwards)")
	catFile := fs.String("catalog", "", "catalog `FILE` for rank10 (default: web/catalog/games-6k.catalog, found upwards; without it, the page's demo catalog)")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	before := fs.String("before", "", "also time the plugin paths of this other module `FILE`, alternating with --wasm's calls, and report after/before (\"before\" in the JSON)")
	phases := fs.Bool("phases", true, "break select, rank, add and record down into the module's phases (the phases export; \"phases\" in the JSON)")
	peers := fs.Bool("peers", true, "measure the bleve peer (go test ./host/peers) in the same run")
	node := fs.Bool("node", true, "measure the JavaScript host and the Orama peer (node web/bench/bench.mjs)")
	chromium := fs.Bool("chromium", true, "time the restore of 10,000 units in headless Chromium, JSON and binary (node web/bench/restore.mjs; skipped, saying why, without chromium or playwright-core)")
	wd := fs.Bool("workerd", true, "time one stateless request in workerd, CPU per request (web/bench/worker.mjs; skipped, saying why, without workerd or /proc)")
	out := fs.String("out", "", "also write the JSON report to `FILE`")
	svg := fs.String("svg", "", "write a log-log plot of select latency against units to `FILE` (SVG)")
	md := fs.String("md", "", "write the report's tables as Markdown to `FILE` (for BENCHMARKS.md)")
	from := fs.String("from", "", "measure nothing: read the report from `FILE` (a --json or --out report) and print or render it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: recmem bench [--json] [--sizes 100,500,2000,10000] [--iters N] [--max-time D] [--peers=false] [--node=false] [--workerd=false] [--chromium=false] [--phases=false] [--before FILE]")
		return 2
	}
	o := bench.Options{Iters: *iters, MaxTime: *maxTime, Wasm: *wasm, Peers: *peers, Node: *node, Workerd: *wd, Chromium: *chromium,
		Before: *before, Phases: *phases, Progress: stderr, Terminal: isTerminal(stderr)}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "recmem bench: --sizes: %q is not a positive unit count\n", f)
			return 2
		}
		o.Sizes = append(o.Sizes, n)
	}
	o.LoCoMo = *data
	if o.LoCoMo == "" {
		o.LoCoMo = findUp(filepath.Join("shared", "data", "locomo", "locomo8.json"))
	}
	o.Catalog = *catFile
	if o.Catalog == "" {
		o.Catalog = findUp(filepath.Join("web", "catalog", "games-6k.catalog"))
	}
	if p := findUp(filepath.Join("host", "peers")); filepath.IsAbs(p) {
		o.Root = filepath.Dir(filepath.Dir(p))
	}
	if o.Wasm == "" && *from == "" {
		p, err := host.FindWasm()
		if err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
		o.Wasm = p
	}
	var rep *bench.Report
	if *from != "" {
		b, err := os.ReadFile(*from)
		if err == nil {
			rep = &bench.Report{}
			err = json.Unmarshal(b, rep)
		}
		if err != nil {
			fmt.Fprintln(stderr, "recmem bench: --from:", err)
			return 1
		}
	} else {
		var err error
		if rep, err = bench.Run(context.Background(), o); err != nil {
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
		if err := os.WriteFile(*svg, rep.Chart().SVG(), 0o644); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	if *md != "" {
		var buf bytes.Buffer
		rep.WriteMarkdown(&buf)
		if err := os.WriteFile(*md, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintln(stderr, "recmem bench:", err)
			return 1
		}
	}
	if *asJSON {
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	rep.WriteText(stdout)
	return 0
}
