package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/conformance"
)

var (
	fuzzEdgeOnce sync.Once
	fuzzEdge     http.Handler
)

// edgeForFuzz is one handler on one instance with the tiny catalog, shared by
// every fuzz input (as a server is shared by every client).
func edgeForFuzz(f *testing.F) http.Handler {
	fuzzEdgeOnce.Do(func() {
		ctx := context.Background()
		cat, err := os.ReadFile("../testdata/catalog/tiny.json")
		if err != nil {
			f.Fatal(err)
		}
		c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 1, Catalog: cat})
		if err != nil {
			f.Fatal(err)
		}
		fuzzEdge = host.NewEdgeHandler(c, host.EdgeOptions{MaxBody: 1 << 20, BaseTag: true})
	})
	return fuzzEdge
}

// FuzzEdgeHandler sends arbitrary paths and bodies to the stateless API. The
// handler must never panic; every answer is JSON with a documented status
// (docs/http.md); a 500 never shows a wasm trace; and a 200's state is one
// the server accepts again (the integrator got a 200 with a state that the
// next request refused).
func FuzzEdgeHandler(f *testing.F) {
	h := edgeForFuzz(f)
	cases, err := conformance.LoadAll("../testdata/conformance", "../testdata/hostile")
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		body, _ := json.Marshal(map[string]any{"input": json.RawMessage(conformance.Compact(orEmpty(c.Input)))})
		f.Add(c.Export, body)
	}
	for _, s := range []struct{ path, body string }{
		{"record", `{"input":{"signals":[{"user":"u","item":"a","action":"like","time":1700000000000}]}}`},
		{"load_catalog", `{"input":{"format":"recmem.catalog"}}`},
		{"import_state", `{"input":{}}`},
		{"get_memory", `{"state":"H4sIAAAAAAAA/w==","tag":"sha256:00"}`},
		{"get_memory", `{"state":"%%%","tag":"x"}`},
		{"get_memory", `{"tag":"sha256:00"}`},
		{"get_memory", `{"base_tag":"sha256:00"}`},
		{"add_units", `{"base_tag":"sha256:00","delta":"H4sIAAAAAAAA/w=="}`},
		{"get_memory", `{"delta":"H4sIAAAAAAAA/w=="}`},
		{"get_memory", `{"base_tag":"x","delta":7}`},
		{"../etc/passwd", `{}`},
		{"record/extra", `{}`},
		{"rank", `{"input":{"candidates":["a","b","zz"]},"extra":1}`},
		{"exports", ``},
	} {
		f.Add(s.path, []byte(s.body))
	}
	// Issue 22's forgeries, each sent as a request's state with its tag, and
	// as a delta by tag; and a gzip bomb.
	hostile, _ := filepath.Glob("../testdata/fuzz/binary/hostile-*.bin")
	for _, p := range hostile {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		body, _ := json.Marshal(host.EdgeRequest{State: host.PackState(b), Tag: host.StateTag(b), Input: json.RawMessage(`{}`)})
		f.Add("get_memory", body)
		body, _ = json.Marshal(host.EdgeRequest{BaseTag: host.StateTag(b), Delta: host.EdgeDelta{Segment: host.PackState(b)}})
		f.Add("select_slate", body)
	}
	if len(hostile) == 0 {
		f.Fatal("no hostile binary states in testdata/fuzz/binary")
	}
	bomb, _ := json.Marshal(host.EdgeRequest{State: host.PackState(make([]byte, 1<<20)), Tag: "sha256:00"})
	f.Add("get_memory", bomb)
	allowed := []int{200, 400, 403, 404, 405, 409, 413, 422, 500, 504}
	f.Fuzz(func(t *testing.T, export string, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/", bytes.NewReader(body))
		req.URL.Path = "/v1/" + export // any path, as the server's mux would pass it on
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !slices.Contains(allowed, rec.Code) {
			t.Fatalf("/v1/%s: status %d is not documented: %s", export, rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			var e host.EdgeError
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Status != rec.Code || e.Error.Message == "" {
				t.Fatalf("/v1/%s: %d with a body that is not an error: %s", export, rec.Code, rec.Body)
			}
			if rec.Code == 500 && strings.Contains(e.Error.Message, "wasm") {
				t.Fatalf("/v1/%s: a 500 shows the module's internals: %s", export, e.Error.Message)
			}
			return
		}
		var r host.EdgeResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || !json.Valid(r.Result) {
			t.Fatalf("/v1/%s: a 200 that is not a response: %s", export, rec.Body)
		}
		next := host.EdgeRequest{State: r.State, Tag: r.Tag}
		byTag := r.State == "" // the client holds the state (a delta, or nothing changed): name it by tag
		if byTag {
			next = host.EdgeRequest{BaseTag: r.Tag}
		}
		again, _ := json.Marshal(next)
		rec2 := httptest.NewRecorder()
		h.ServeHTTP(rec2, httptest.NewRequest(http.MethodPost, "/v1/get_memory", bytes.NewReader(again)))
		if rec2.Code != 200 && !(byTag && rec2.Code == http.StatusConflict) {
			t.Fatalf("/v1/%s answered 200 with a state the server then refuses: %d %s", export, rec2.Code, rec2.Body)
		}
	})
}

func orEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage(`{}`)
	}
	return b
}
