package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/recmem/recmem/host"
)

// BenchmarkBinaryStateWasm is pkg/engine's BenchmarkBinaryState through the
// Go host on the .wasm module, where issue 18's targets are set: exporting
// and importing the binary state of LoCoMo memories of 500, 2,000 and 10,000
// units, and exporting it after one unit was added.
func BenchmarkBinaryStateWasm(b *testing.B) {
	for _, n := range []int{500, 2000, 10000} {
		in, m := locomoInstance(b, n)
		bin := []byte(`{"format":"binary"}`)
		st, err := in.Call("export_state", bin)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("units=%d/export", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := in.Call("export_state", bin); err != nil {
					b.Fatal(err)
				}
			}
		})
		// An export after a unit was added writes every unit again; the
		// plain export above writes a state whose units did not change
		// since the last export, as after a record or a select.
		b.Run(fmt.Sprintf("units=%d/add+export", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := in.Call("add_units", m.AddCopy(i)); err != nil {
					b.Fatal(err)
				}
				if _, err := in.Call("export_state", bin); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("units=%d/import", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := in.Call("import_state", st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHTTPSelectWasm is one stateless HTTP select (POST
// /v1/select_slate, the binary state of a 2,000-unit memory in the request
// and the new state in the answer) through the Go host: cold, on a server
// that keeps no warm instance, and warm, on one that serves the state from
// the instance the request before left holding it; and warm by tag, the
// request naming the state by its tag instead of carrying it.
func BenchmarkHTTPSelectWasm(b *testing.B) {
	const n = 2000
	in, m := locomoInstance(b, n)
	st, err := in.Call("export_state", []byte(`{"format":"binary"}`))
	if err != nil {
		b.Fatal(err)
	}
	body, err := json.Marshal(host.EdgeRequest{State: host.PackState(st), Tag: host.StateTag(st), Input: m.Select(0, 2000, "")})
	if err != nil {
		b.Fatal(err)
	}
	// By tag: the request names the warm state by its tag (base_tag)
	// instead of carrying it, on a server with EdgeOptions.BaseTag.
	b.Run(fmt.Sprintf("units=%d/warm-by-tag", n), func(b *testing.B) {
		c, err := host.NewClient(context.Background(), host.ClientOptions{Options: host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-"+runtime.GOARCH)}, Instances: 1, Warm: 1})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close(context.Background())
		h := host.NewEdgeHandler(c, host.EdgeOptions{BaseTag: true})
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/select_slate", bytes.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatalf("HTTP %d: %s", w.Code, w.Body.Bytes())
		}
		byTag, _ := json.Marshal(host.EdgeRequest{BaseTag: host.StateTag(st), Input: m.Select(0, 2000, "")})
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/select_slate", bytes.NewReader(byTag)))
			if w.Code != http.StatusOK {
				b.Fatalf("HTTP %d: %s", w.Code, w.Body.Bytes())
			}
		}
		b.ReportMetric(float64(len(byTag)), "request-bytes")
	})
	for _, warm := range []int{-1, 1} {
		name := map[int]string{-1: "cold", 1: "warm"}[warm]
		b.Run(fmt.Sprintf("units=%d/%s", n, name), func(b *testing.B) {
			c, err := host.NewClient(context.Background(), host.ClientOptions{Options: host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-"+runtime.GOARCH)}, Instances: 1, Warm: warm})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close(context.Background())
			h := host.NewEdgeHandler(c, host.EdgeOptions{})
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/select_slate", bytes.NewReader(body)))
				if w.Code != http.StatusOK {
					b.Fatalf("HTTP %d: %s", w.Code, w.Body.Bytes())
				}
			}
			b.ReportMetric(float64(len(body)), "request-bytes")
		})
	}
}
