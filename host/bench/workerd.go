package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/intentlab"
	"github.com/recmem/recmem/pkg/workload"
)

// WorkerdSizes are the memory sizes, in units, of the request timed in
// workerd: an empty memory, 500 and 2,000 units (issue 18).
var WorkerdSizes = []int{0, 500, 2000}

// WorkerdRank is how many candidates the request ranks.
const WorkerdRank = 20

// workerdRequest says what one timed request does (Workerd.Request).
const workerdRequest = "one stateless request to web/bench/worker.mjs: the state in (base64, gunzip, SHA-256 tag checked, import_state), " +
	"record one signal, rank 20 candidates, select_slate at B=2000, the new state out (export_state, SHA-256 tag, gzip, base64). " +
	"request_*: the JSON document, imported every time; binary_request_*: the binary state, imported every time; " +
	"warm_request_*: the binary state and warm instances, as a client carries it from one request to the next: " +
	"each request brings the state the one before answered (its delta appended), which the instance that answered still holds, " +
	"so the import is skipped, and the answer is a delta (export_state with base)"

// workerdCPU says how CPU time is measured (Workerd.CPU).
const workerdCPU = "CPU time of the workerd process read from /proc (schedstat, nanoseconds) before and after each request, " +
	"requests sent one at a time: request_cpu_ms is the main thread, where the isolate runs the request (what a Workers CPU limit counts); " +
	"request_process_cpu_ms adds every thread of the process (V8's compiler and garbage-collector helpers)"

// Workerd is the request timed in workerd, Cloudflare's open-source Workers
// runtime: per memory size ("0", "500", "2000"), its CPU time and wall time
// in milliseconds. Error is set, and the rest empty, when it failed.
type Workerd struct {
	Version             string          `json:"version,omitempty"`
	Request             string          `json:"request,omitempty"`
	CPU                 string          `json:"cpu,omitempty"`
	Catalog             string          `json:"catalog,omitempty"`
	RequestCPUMs        map[string]Stat `json:"request_cpu_ms,omitempty"`
	RequestProcessCPUMs map[string]Stat `json:"request_process_cpu_ms,omitempty"`
	RequestWallMs       map[string]Stat `json:"request_wall_ms,omitempty"`
	StateBytes          map[string]int  `json:"state_bytes,omitempty"`
	StateGzipBytes      map[string]int  `json:"state_gzip_bytes,omitempty"`
	// The same request carrying the binary state (docs/state-binary.md),
	// imported every time, and carried from request to request with deltas
	// on warm instances (WarmHits counts the timed requests served warm).
	BinaryRequestCPUMs  map[string]Stat `json:"binary_request_cpu_ms,omitempty"`
	BinaryRequestWallMs map[string]Stat `json:"binary_request_wall_ms,omitempty"`
	WarmRequestCPUMs    map[string]Stat `json:"warm_request_cpu_ms,omitempty"`
	WarmRequestWallMs   map[string]Stat `json:"warm_request_wall_ms,omitempty"`
	WarmHits            map[string]int  `json:"warm_hits,omitempty"`
	BinaryStateBytes    map[string]int  `json:"binary_state_bytes,omitempty"`
	BinaryStateGzip     map[string]int  `json:"binary_state_gzip_bytes,omitempty"`
	Error               string          `json:"error,omitempty"`
}

// workerdMode is one way the timed request carries the state.
type workerdMode struct {
	format string // "json" or "binary"
	warm   bool   // carry the answer's state to the next request, with deltas
}

// workerdBinary is the workerd executable npm installed under web/: the
// platform package's binary (the workerd package's bin may be a Node shim
// that starts it, whose CPU time would not be the server's). "" when there
// is none.
func workerdBinary(root string) string {
	arch := map[string]string{"amd64": "64", "arm64": "arm64"}[runtime.GOARCH]
	for _, p := range []string{
		filepath.Join(root, "web", "node_modules", "@cloudflare", "workerd-"+runtime.GOOS+"-"+arch, "bin", "workerd"),
		filepath.Join(root, "web", "node_modules", "workerd", "bin", "workerd"),
	} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// workerdSkip says why the workerd request cannot be timed here, or "".
func workerdSkip(root string) string {
	switch {
	case root == "":
		return "workerd: web/ not found: run recmem bench from the repository"
	case runtime.GOOS != "linux":
		return "workerd: the CPU time of a request is read from /proc, which " + runtime.GOOS + " does not have"
	case workerdBinary(root) == "":
		return "workerd: not installed under web/node_modules (cd web && npm ci; ./build.sh does it)"
	}
	return ""
}

// runWorkerd times the workerd request at WorkerdSizes (see
// workerdRequest), ranking with the catalog catBytes, or the page's demo
// catalog when there is none.
func (r *runner) runWorkerd(ctx context.Context, rt *host.Runtime, catBytes []byte, catName string) *Workerd {
	fail := func(err error) *Workerd { return &Workerd{Error: err.Error()} }
	if catBytes == nil {
		pc, err := intentlab.ReadPageCatalog(filepath.Join(r.Root, "web", "catalog", "games-demo.json"), "", "")
		if err == nil {
			catBytes, err = pc.JSON()
		}
		if err != nil {
			return fail(fmt.Errorf("the page's catalog: %w", err))
		}
		catName = "web/catalog/games-demo.json, as the page builds it"
	}
	cat, err := catalog.Parse(catBytes)
	if err != nil {
		return fail(err)
	}
	mem, err := workload.LoCoMoMemory(r.LoCoMo, slicesMax(WorkerdSizes))
	if err != nil {
		return fail(err)
	}
	wd, err := startWorkerd(ctx, r.Root, r.Wasm, catBytes)
	if err != nil {
		return fail(err)
	}
	defer wd.close()
	out := &Workerd{Version: wd.version, Request: workerdRequest, CPU: workerdCPU, Catalog: catName,
		RequestCPUMs: map[string]Stat{}, RequestProcessCPUMs: map[string]Stat{}, RequestWallMs: map[string]Stat{},
		StateBytes: map[string]int{}, StateGzipBytes: map[string]int{},
		BinaryRequestCPUMs: map[string]Stat{}, BinaryRequestWallMs: map[string]Stat{},
		WarmRequestCPUMs: map[string]Stat{}, WarmRequestWallMs: map[string]Stat{}, WarmHits: map[string]int{},
		BinaryStateBytes: map[string]int{}, BinaryStateGzip: map[string]int{}}
	for _, n := range WorkerdSizes {
		k := strconv.Itoa(n)
		for _, mode := range []workerdMode{{"json", false}, {"binary", false}, {"binary", true}} {
			r.progress("bench: workerd, one request with %d units (%s%s)", n, mode.format, map[bool]string{true: ", warm"}[mode.warm])
			doc, err := workerdState(ctx, rt, mem, n, mode.format)
			if err != nil {
				return fail(fmt.Errorf("the state of %d units: %w", n, err))
			}
			if mode.format == "json" {
				out.StateBytes[k], out.StateGzipBytes[k] = len(doc), gzipSize(doc)
			} else {
				out.BinaryStateBytes[k], out.BinaryStateGzip[k] = len(doc), gzipSize(doc)
			}
			body := func(i int, doc []byte) []byte {
				b, _ := json.Marshal(map[string]any{"state": host.PackState(doc), "tag": host.StateTag(doc), "format": mode.format, "delta": mode.warm,
					"record": json.RawMessage(workload.RecordSignal(i)),
					"rank":   json.RawMessage(workload.RankN(cat, i, WorkerdRank)), "select": map[string]any{"query": mem.Questions[i%len(mem.Questions)], "budget": budget}})
				return b
			}
			held := doc
			if _, err := wd.check(body(0, held), held); err != nil {
				return fail(fmt.Errorf("%d units, %s: %w", n, mode.format, err))
			}
			var cpu, proc, wall []float64
			hits := 0
			var start time.Time
			for i := 0; i < warmup+r.Iters && (i < 2*warmup || time.Since(start) < r.MaxTime); i++ {
				if i == warmup {
					start = time.Now()
				}
				b := body(i, held)
				c0, p0, err := wd.cpu()
				if err != nil {
					return fail(err)
				}
				t0 := time.Now()
				ans, err := wd.post(b)
				if err != nil {
					return fail(fmt.Errorf("%d units: %w", n, err))
				}
				w := time.Since(t0)
				c1, p1, err := wd.cpu()
				if err != nil {
					return fail(err)
				}
				if mode.warm {
					// The client keeps the state the answer gives, and sends it next.
					a, err := wd.answer(ans, held)
					if err != nil {
						return fail(fmt.Errorf("%d units: %w", n, err))
					}
					held = a.held
					if i >= warmup && a.Warm {
						hits++
					}
				}
				if i < warmup {
					continue
				}
				cpu = append(cpu, msOf(c1-c0))
				proc = append(proc, msOf(p1-p0))
				wall = append(wall, msOf(w))
			}
			switch {
			case mode.format == "json":
				out.RequestCPUMs[k], out.RequestProcessCPUMs[k], out.RequestWallMs[k] = summarize(cpu), summarize(proc), summarize(wall)
			case !mode.warm:
				out.BinaryRequestCPUMs[k], out.BinaryRequestWallMs[k] = summarize(cpu), summarize(wall)
			default:
				out.WarmRequestCPUMs[k], out.WarmRequestWallMs[k], out.WarmHits[k] = summarize(cpu), summarize(wall), hits
			}
		}
	}
	return out
}

func slicesMax(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// workerdState is the state the request at n units carries, in format
// ("json" or "binary"): an empty memory with the first n units of mem, made
// through the plugin in the Go host.
func workerdState(ctx context.Context, rt *host.Runtime, mem *workload.Memory, n int, format string) ([]byte, error) {
	in, err := rt.NewInstance(ctx)
	if err != nil {
		return nil, err
	}
	defer in.Close(ctx)
	if n > 0 {
		if _, err := in.Call("add_units", mem.AddUnits(0, n)); err != nil {
			return nil, err
		}
	}
	if format == "binary" {
		return in.Call("export_state", []byte(`{"format":"binary"}`))
	}
	return in.Call("export_state", nil)
}

// workerd is a running workerd serving web/bench/worker.mjs on loopback.
type workerd struct {
	cmd     *exec.Cmd
	ctl     *os.File // the read end of workerd's control messages
	dir     string
	url     string
	version string
	stderr  *bytes.Buffer
	client  *http.Client
}

// startWorkerd writes the Worker's configuration (its modules linked into a
// temporary directory) and starts workerd on a free loopback port, which it
// reads from workerd's control messages.
func startWorkerd(ctx context.Context, root, wasm string, catBytes []byte) (*workerd, error) {
	bin := workerdBinary(root)
	dir, err := os.MkdirTemp("", "recmem-workerd-")
	if err != nil {
		return nil, err
	}
	wd := &workerd{dir: dir, stderr: &bytes.Buffer{}, client: &http.Client{Timeout: time.Minute}}
	ok := false
	defer func() {
		if !ok {
			wd.close()
		}
	}()
	wasm, _ = filepath.Abs(wasm)
	links := map[string]string{
		"worker.mjs":  filepath.Join(root, "web", "bench", "worker.mjs"),
		"recmem.js":   filepath.Join(root, "web", "recmem.js"),
		"extism.js":   filepath.Join(root, "web", "node_modules", "@extism", "extism", "dist", "browser", "mod.js"),
		"plugin.wasm": wasm,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "catalog"), catBytes, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.capnp"), []byte(workerdConfig), 0o644); err != nil {
		return nil, err
	}
	if v, err := exec.CommandContext(ctx, bin, "--version").Output(); err == nil {
		wd.version = string(bytes.TrimSpace(v))
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	wd.ctl = ctlR
	wd.cmd = exec.Command(bin, "serve", filepath.Join(dir, "config.capnp"), "--control-fd", "3")
	wd.cmd.ExtraFiles = []*os.File{ctlW}
	wd.cmd.Stderr = wd.stderr
	if err := wd.cmd.Start(); err != nil {
		ctlW.Close()
		return nil, err
	}
	ctlW.Close()
	port := make(chan int, 1)
	go func() {
		port <- listenPort(ctlR)
		io.Copy(io.Discard, ctlR) // later messages, until workerd ends
	}()
	select {
	case p := <-port:
		if p == 0 {
			return nil, wd.failure("workerd did not start")
		}
		wd.url = fmt.Sprintf("http://127.0.0.1:%d/", p)
	case <-time.After(time.Minute):
		return nil, wd.failure("workerd did not listen within a minute")
	}
	ok = true
	return wd, nil
}

// workerdConfig serves worker.mjs with its modules and the catalog, all
// beside the configuration file.
const workerdConfig = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "bench", worker = .bench)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "bench")],
);
const bench :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "plugin.wasm", wasm = embed "plugin.wasm"),
    (name = "recmem", esModule = embed "recmem.js"),
    (name = "@extism/extism", esModule = embed "extism.js"),
  ],
  bindings = [(name = "RECMEM_CATALOG", data = embed "catalog")],
  compatibilityDate = "2025-09-01",
);
`

// listenPort reads workerd's control messages (one JSON object a line)
// until the "http" socket's listen event, and returns its port; 0 when the
// messages end first.
func listenPort(r io.Reader) int {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var m struct {
			Event  string `json:"event"`
			Socket string `json:"socket"`
			Port   int    `json:"port"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Event == "listen" && m.Socket == "http" {
			return m.Port
		}
	}
	return 0
}

// post sends one request and returns the answer, which must be a 200.
func (wd *workerd) post(body []byte) ([]byte, error) {
	resp, err := wd.client.Post(wd.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("workerd answered %d: %s", resp.StatusCode, b)
	}
	return b, nil
}

// workerdAnswer is the timed request's answer, and the state the client
// holds after it.
type workerdAnswer struct {
	Record struct {
		EventsAdded int `json:"events_added"`
	} `json:"record"`
	Rank struct {
		Ranking []json.RawMessage `json:"ranking"`
	} `json:"rank"`
	Slate struct {
		Units []json.RawMessage `json:"units"`
	} `json:"select_slate"`
	State string `json:"state"`
	Delta string `json:"delta"`
	Tag   string `json:"tag"`
	Warm  bool   `json:"warm"`
	held  []byte
}

// answer reads an answer to a request that carried the state held: the new
// state (a delta appended to held, or a whole state), which must match its
// tag.
func (wd *workerd) answer(b, held []byte) (*workerdAnswer, error) {
	var a workerdAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("the answer: %w", err)
	}
	switch {
	case a.Delta != "":
		d, err := host.UnpackState(a.Delta, 1<<30)
		if err != nil {
			return nil, err
		}
		a.held = host.AppendState(held, d)
	case a.State != "":
		doc, err := host.UnpackState(a.State, 1<<30)
		if err != nil {
			return nil, err
		}
		a.held = doc
	default:
		a.held = held
	}
	if host.StateTag(a.held) != a.Tag {
		return nil, errors.New("the new state does not match its tag")
	}
	return &a, nil
}

// check sends one request carrying the state held and checks its answer:
// the three results, and a new state that unpacks and matches its tag.
func (wd *workerd) check(body, held []byte) (*workerdAnswer, error) {
	b, err := wd.post(body)
	if err != nil {
		return nil, err
	}
	a, err := wd.answer(b, held)
	if err != nil {
		return nil, err
	}
	switch {
	case a.Record.EventsAdded != 1:
		return nil, fmt.Errorf("record added %d events, want 1", a.Record.EventsAdded)
	case len(a.Rank.Ranking) != WorkerdRank:
		return nil, fmt.Errorf("rank ranked %d candidates, want %d", len(a.Rank.Ranking), WorkerdRank)
	}
	return a, nil
}

// cpu is the CPU time so far of workerd's main thread and of its whole
// process.
func (wd *workerd) cpu() (main, all time.Duration, err error) {
	return procCPU(wd.cmd.Process.Pid)
}

// failure stops workerd and returns an error of msg and what workerd wrote
// on its standard error.
func (wd *workerd) failure(msg string) error {
	wd.stop()
	return fmt.Errorf("%s: %s", msg, bytes.TrimSpace(wd.stderr.Bytes()))
}

// stop ends workerd (once) and waits for it.
func (wd *workerd) stop() {
	if wd.cmd != nil && wd.cmd.Process != nil && wd.cmd.ProcessState == nil {
		wd.cmd.Process.Kill()
		wd.cmd.Wait()
	}
}

func (wd *workerd) close() {
	wd.stop()
	if wd.ctl != nil {
		wd.ctl.Close()
	}
	os.RemoveAll(wd.dir)
}
