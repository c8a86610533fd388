package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/recmem/recmem/host"
)

func init() {
	commands["loadtest"] = command{
		summary: "load-test the stateless API on loopback: mixed record+rank, add+select at 1, 2 and 8 clients",
		run:     runLoadtest,
	}
}

// loadLevel is the outcome at one concurrency level.
type loadLevel struct {
	Clients     int     `json:"clients"`
	Requests    int     `json:"requests"`
	Errors      int     `json:"errors"`
	LostUpdates int     `json:"lost_updates"`
	Seconds     float64 `json:"seconds"`
	RPS         float64 `json:"rps"`
	P50ms       float64 `json:"p50_ms"`
	P90ms       float64 `json:"p90_ms"`
	P99ms       float64 `json:"p99_ms"`
	FirstError  string  `json:"first_error,omitempty"`
}

func runLoadtest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "base `URL` of a running recmem serve (default: start one in-process on 127.0.0.1)")
	levels := fs.String("clients", "1,2,8", "comma-separated concurrency `LEVELS`")
	requests := fs.Int("requests", 400, "requests per level (bounded; each client does its share)")
	catalog := fs.String("catalog", "", "catalog `FILE` for the in-process server (default testdata/catalog/tiny.json)")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var counts []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 256 {
			fmt.Fprintf(stderr, "recmem loadtest: --clients: bad level %q\n", f)
			return 2
		}
		counts = append(counts, n)
	}
	if *requests < 1 || *requests > 1_000_000 {
		fmt.Fprintln(stderr, "recmem loadtest: --requests must be in [1, 1000000]")
		return 2
	}
	base := *url
	if base == "" {
		stop, addr, err := startLocalAPI(*wasm, *catalog)
		if err != nil {
			fmt.Fprintln(stderr, "recmem loadtest:", err)
			return 1
		}
		defer stop()
		base = "http://" + addr
	}
	var out []loadLevel
	for _, n := range counts {
		lv := loadAt(base, n, *requests)
		out = append(out, lv)
		if !*asJSON {
			fmt.Fprintf(stderr, "clients %d: %d requests in %.2fs\n", n, lv.Requests, lv.Seconds)
		}
	}
	failed := false
	for _, lv := range out {
		failed = failed || lv.Errors > 0 || lv.LostUpdates > 0
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(map[string]any{"url": base, "workload": "per client: record, rank 5, add_units 1, select_slate", "levels": out})
	} else {
		fmt.Fprintf(stdout, "%-8s %9s %8s %8s %8s %8s %7s %5s\n", "clients", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "errors", "lost")
		for _, lv := range out {
			fmt.Fprintf(stdout, "%-8d %9d %8.0f %8.2f %8.2f %8.2f %7d %5d\n", lv.Clients, lv.Requests, lv.RPS, lv.P50ms, lv.P90ms, lv.P99ms, lv.Errors, lv.LostUpdates)
			if lv.FirstError != "" {
				fmt.Fprintln(stdout, "  first error:", lv.FirstError)
			}
		}
	}
	if failed {
		return 1
	}
	return 0
}

// startLocalAPI serves the stateless API on a free loopback port.
func startLocalAPI(wasm, catalog string) (func(), string, error) {
	if catalog == "" {
		catalog = findUp("testdata/catalog/tiny.json")
	}
	cat, err := os.ReadFile(catalog)
	if err != nil {
		return nil, "", fmt.Errorf("catalog: %w", err)
	}
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: wasm}, Catalog: cat})
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.Close(ctx)
		return nil, "", err
	}
	srv := &http.Server{Handler: host.NewEdgeHandler(c, host.EdgeOptions{}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return func() { srv.Close(); c.Close(ctx) }, ln.Addr().String(), nil
}

// findUp returns rel under the working directory or its nearest parent that
// has it (rel itself when none does).
func findUp(rel string) string {
	wd, err := os.Getwd()
	if err != nil {
		return rel
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, rel); fileExists(p) {
			return p
		}
		if filepath.Dir(dir) == dir {
			return rel
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// loadAt runs total requests spread over n clients, each with its own memory
// carried request to request, and checks every answer's base tag against the
// tag the client sent (a mismatch would be a lost update).
func loadAt(base string, n, total int) loadLevel {
	lv := loadLevel{Clients: n}
	var mu sync.Mutex
	var lat []time.Duration
	httpc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}, Timeout: 30 * time.Second}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range n {
		share := total / n
		if c < total%n {
			share++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var state, tag string
			for i := range share {
				in := workloadStep(c, i)
				body, _ := json.Marshal(host.EdgeRequest{State: state, Tag: tag, Input: in.input})
				t0 := time.Now()
				resp, err := httpc.Post(base+"/v1/"+in.export, "application/json", bytes.NewReader(body))
				var r host.EdgeResponse
				var status int
				if err == nil {
					status = resp.StatusCode
					err = json.NewDecoder(resp.Body).Decode(&r)
					resp.Body.Close()
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				lv.Requests++
				switch {
				case err != nil || status != http.StatusOK:
					lv.Errors++
					if lv.FirstError == "" {
						lv.FirstError = fmt.Sprintf("%s: status %d %v", in.export, status, err)
					}
				case (tag == "" && r.BaseTag != "new") || (tag != "" && r.BaseTag != tag):
					lv.LostUpdates++
				}
				mu.Unlock()
				if err == nil && status == http.StatusOK {
					state, tag = r.State, r.Tag
				}
			}
		}()
	}
	wg.Wait()
	lv.Seconds = time.Since(start).Seconds()
	if lv.Seconds > 0 {
		lv.RPS = float64(lv.Requests) / lv.Seconds
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	lv.P50ms, lv.P90ms, lv.P99ms = pct(0.5), pct(0.9), pct(0.99)
	return lv
}

type step struct {
	export string
	input  json.RawMessage
}

// workloadStep is client c's i-th request: record then rank, add a turn then
// select a slate, in turn.
func workloadStep(c, i int) step {
	items := []string{"a", "b", "c", "d", "e"}
	switch i % 4 {
	case 0:
		return step{"record", fmt.Appendf(nil, `{"signals":[{"user":"u%d","item":%q,"action":"purchase","meta":{"title":"Space Shooter %d"},"time":%d}]}`, c, items[i%5], i, 1700000000+i*3600)}
	case 1:
		return step{"rank", json.RawMessage(`{"candidates":["a","b","c","d","e"],"instruction":"something with space"}`)}
	case 2:
		return step{"add_units", fmt.Appendf(nil, `{"units":[{"id":"t%d","session":"s%d","time":"2024-05-%02d","speaker":"Ana","text":"Turn %d: I moved my pottery class to day %d."}]}`, i, i/8, 1+(i/4)%28, i, i%7)}
	}
	return step{"select_slate", json.RawMessage(`{"query":"When is the pottery class?","date":"2024-06-30","budget":200}`)}
}
