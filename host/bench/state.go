package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/workload"
)

// Format is what carrying the state costs in one state format, through the
// plugin in the Go host, keyed by the memory size in units: exporting and
// importing it, its size raw and gzipped, and one stateless HTTP select
// (POST /v1/select_slate with the state in the request), cold (the server
// imports the state) and warm (an instance already holding the state's tag
// serves it; absent when the server keeps no warm instances).
type Format struct {
	ImportMs       map[string]Stat `json:"import_ms"`
	ExportMs       map[string]Stat `json:"export_ms"`
	StateBytes     map[string]int  `json:"state_bytes"`
	StateGzipBytes map[string]int  `json:"state_gzip_bytes"`
	// HTTPSelectMs is the cold request, HTTPSelectWarmMs the warm one; both
	// are the server's time for the whole request (unpacking and checking
	// the state, the import when cold, the selection, the answer), measured
	// in process, without the network.
	HTTPSelectMs     map[string]Stat `json:"http_select_ms"`
	HTTPSelectWarmMs map[string]Stat `json:"http_select_warm_ms,omitempty"`
	// RequestBytes is the size of the HTTP select request's body.
	RequestBytes map[string]int `json:"request_bytes"`
}

// stateFormats are the formats measured, in the report's order.
var stateFormats = []string{"json", "binary"}

// exportInput is export_state's input for a format.
func exportInput(format string) []byte {
	if format == "json" {
		return nil
	}
	return []byte(`{"format":"` + format + `"}`)
}

// formats measures every state format at every memory size into rep.Formats.
func (r *runner) formats(ctx context.Context, wasm []byte, cacheDir string, mem *workload.Memory, rep *Report) error {
	rep.Formats = map[string]*Format{}
	rt, err := host.Open(ctx, host.Options{Wasm: wasm, CacheDir: cacheDir})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	for _, f := range stateFormats {
		fm := &Format{ImportMs: map[string]Stat{}, ExportMs: map[string]Stat{}, StateBytes: map[string]int{},
			StateGzipBytes: map[string]int{}, HTTPSelectMs: map[string]Stat{}, RequestBytes: map[string]int{}}
		rep.Formats[f] = fm
		for _, n := range r.Sizes {
			if err := r.formatAt(ctx, rt, wasm, cacheDir, mem, f, n, fm); err != nil {
				return fmt.Errorf("%s state, %d units: %w", f, n, err)
			}
		}
	}
	return nil
}

// formatAt measures one format at one size.
func (r *runner) formatAt(ctx context.Context, rt *host.Runtime, wasm []byte, cacheDir string, mem *workload.Memory, format string, n int, fm *Format) error {
	k := strconv.Itoa(n)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		return err
	}
	defer in.Close(ctx)
	if _, err := in.Call("add_units", mem.AddUnits(0, n)); err != nil {
		return err
	}
	var state []byte
	if fm.ExportMs[k], err = r.measure(fmt.Sprintf("%s export %d units", format, n), time.Millisecond, func(int) error {
		state, err = in.Call("export_state", exportInput(format))
		return err
	}); err != nil {
		return err
	}
	fm.StateBytes[k], fm.StateGzipBytes[k] = len(state), gzipSize(state)
	if fm.ImportMs[k], err = r.measure(fmt.Sprintf("%s import %d units", format, n), time.Millisecond, func(int) error {
		_, err := in.Call("import_state", state)
		return err
	}); err != nil {
		return err
	}
	body, err := json.Marshal(host.EdgeRequest{State: host.PackState(state), Tag: host.StateTag(state), Input: mem.Select(0, budget, "")})
	if err != nil {
		return err
	}
	fm.RequestBytes[k] = len(body)
	// Cold: a server that keeps no warm instance imports every request's
	// state. Warm: one that does serves the same state from the instance
	// the first request left warm.
	for _, warm := range []bool{false, true} {
		opts := host.ClientOptions{Options: host.Options{Wasm: wasm, CacheDir: cacheDir}, Instances: 1, Warm: -1}
		label, into := "cold", fm.HTTPSelectMs
		if warm {
			opts.Warm, label = 1, "warm"
			if fm.HTTPSelectWarmMs == nil {
				fm.HTTPSelectWarmMs = map[string]Stat{}
			}
			into = fm.HTTPSelectWarmMs
		}
		c, err := host.NewClient(ctx, opts)
		if err != nil {
			return err
		}
		h := host.NewEdgeHandler(c, host.EdgeOptions{})
		into[k], err = r.measure(fmt.Sprintf("%s HTTP select %d units, %s", format, n, label), time.Millisecond, func(int) error {
			return serveOnce(h, body)
		})
		if err == nil && warm && c.WarmStats().Hits == 0 {
			err = fmt.Errorf("%s HTTP select %d units: no request was served warm", format, n)
		}
		c.Close(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

// serveOnce sends one select request to h and checks its answer.
func serveOnce(h http.Handler, body []byte) error {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/select_slate", bytes.NewReader(body)))
	if w.Code != http.StatusOK {
		return fmt.Errorf("HTTP %d: %s", w.Code, w.Body.Bytes())
	}
	return nil
}

// formatRows writes one row per memory size and state format: the state's
// size raw and gzipped, exporting and importing it, and the stateless HTTP
// select cold and warm, through the plugin in the Go host. row gets the
// cells; "–" marks what was not measured.
func (r *Report) formatRows(row func(cells ...string)) {
	num := func(x float64) string {
		if x == 0 {
			return "–"
		}
		return strconv.FormatFloat(sig4(x), 'g', -1, 64)
	}
	var all map[string]Stat
	for _, f := range r.Formats {
		all = f.ImportMs
	}
	for _, n := range sizes(all) {
		k := strconv.Itoa(n)
		for _, name := range stateFormats {
			f := r.Formats[name]
			if f == nil {
				continue
			}
			row(k, name, strconv.Itoa(f.StateBytes[k]), strconv.Itoa(f.StateGzipBytes[k]), num(f.ExportMs[k].Median),
				num(f.ImportMs[k].Median), num(f.HTTPSelectMs[k].Median), num(f.HTTPSelectWarmMs[k].Median))
		}
	}
}

// formatHeader names formatRows' cells.
var formatHeader = []string{"units", "format", "state bytes", "gzipped", "export ms", "import ms", "HTTP select cold ms", "HTTP select warm ms"}
