package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
)

func edgeServer(t *testing.T, opts host.EdgeOptions) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	cat, err := os.ReadFile("../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: testWasm}, Instances: 2, Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(host.NewEdgeHandler(c, opts))
	t.Cleanup(func() { srv.Close(); c.Close(ctx) })
	return srv
}

func post(t *testing.T, url string, body any) (int, []byte) {
	t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes()
}

func TestEdgeStateTravelsWithTheRequest(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{})
	sig := json.RawMessage(`{"signals":[{"user":"u1","item":"a","action":"purchase","meta":{"title":"Space Shooter Deluxe"},"time":100}]}`)
	code, body := post(t, srv.URL+"/v1/record", host.EdgeRequest{Input: sig})
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var r1 host.EdgeResponse
	json.Unmarshal(body, &r1)
	if r1.BaseTag != "new" || !r1.Changed || !strings.HasPrefix(r1.Tag, "sha256:") {
		t.Fatalf("first response %+v", r1)
	}
	code, body = post(t, srv.URL+"/v1/rank", host.EdgeRequest{State: r1.State, Tag: r1.Tag, Input: json.RawMessage(`{"candidates":["b","c","d"]}`)})
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var r2 host.EdgeResponse
	json.Unmarshal(body, &r2)
	if r2.BaseTag != r1.Tag || r2.Changed || r2.Tag != r1.Tag || !bytes.Contains(r2.Result, []byte(`"ranking"`)) {
		t.Fatalf("rank must not change the memory: %+v", r2)
	}
	doc, err := host.UnpackState(r2.State, 1<<20)
	if err != nil || host.StateTag(doc) != r2.Tag || !bytes.Contains(doc, []byte(`"item":"a"`)) {
		t.Fatalf("state on the wire: %v %s", err, doc)
	}
}

func TestEdgeErrors(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{MaxBody: 4096})
	other := host.PackState([]byte(`{"schema":"recmem.state"}`))
	tests := []struct {
		name, path, method string
		body               any
		code               int
		msg                string
	}{
		{"export error names the field", "/v1/record", "POST", host.EdgeRequest{Input: json.RawMessage(`{"signals":[{"user":"u","item":"a","action":"zap","time":1}]}`)}, 400, `record: input.signals[0].action`},
		{"unknown export", "/v1/teleport", "POST", host.EdgeRequest{}, 404, `unknown export "teleport"`},
		{"GET", "/v1/record", "GET", nil, 405, "use POST"},
		{"malformed body", "/v1/record", "POST", `{"state":`, 400, "body:"},
		{"unknown body field", "/v1/record", "POST", `{"sate":"x"}`, 400, `unknown field "sate"`},
		{"not base64", "/v1/get_memory", "POST", host.EdgeRequest{State: "%%%", Tag: "sha256:0"}, 400, "state: not base64"},
		{"tag does not match", "/v1/get_memory", "POST", host.EdgeRequest{State: other, Tag: "sha256:00"}, 422, "tag: does not match"},
		{"tag without state", "/v1/get_memory", "POST", host.EdgeRequest{Tag: "sha256:00"}, 400, "tag: given without a state"},
		{"invalid state", "/v1/get_memory", "POST", host.EdgeRequest{State: other, Tag: host.StateTag([]byte(`{"schema":"recmem.state"}`))}, 400, "import_state: "},
		{"too large", "/v1/record", "POST", `{"input":"` + strings.Repeat("x", 5000) + `"}`, 413, "more than 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			switch v := tt.body.(type) {
			case string:
				b = []byte(v)
			case nil:
			default:
				b, _ = json.Marshal(v)
			}
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, bytes.NewReader(b))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e host.EdgeError
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatalf("error body is not JSON: %v", err)
			}
			if resp.StatusCode != tt.code || e.Error.Status != tt.code || !strings.Contains(e.Error.Message, tt.msg) {
				t.Fatalf("got %d %+v, want %d containing %q", resp.StatusCode, e.Error, tt.code, tt.msg)
			}
		})
	}
}

func TestEdgeTimeout(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{Timeout: time.Nanosecond})
	code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{})
	if code != http.StatusGatewayTimeout {
		t.Fatalf("%d %s", code, body)
	}
}

// TestEdgeLostUpdateIsDetectable: two requests racing on the same memory both
// answer with the base tag they started from, so a store that writes only
// when it still holds the base tag (compare-and-swap) keeps one and refuses
// the other, instead of silently losing it.
func TestEdgeLostUpdateIsDetectable(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{})
	_, body := post(t, srv.URL+"/v1/record", host.EdgeRequest{Input: json.RawMessage(`{"signals":[{"user":"u","item":"a","action":"like","time":1}]}`)})
	var base host.EdgeResponse
	json.Unmarshal(body, &base)
	store := struct{ state, tag string }{base.State, base.Tag}
	cas := func(r host.EdgeResponse) bool {
		if store.tag != r.BaseTag {
			return false
		}
		store.state, store.tag = r.State, r.Tag
		return true
	}
	var rs [2]host.EdgeResponse
	for i, item := range []string{"b", "c"} {
		_, body := post(t, srv.URL+"/v1/record", host.EdgeRequest{State: base.State, Tag: base.Tag,
			Input: json.RawMessage(`{"signals":[{"user":"u","item":"` + item + `","action":"like","time":2}]}`)})
		json.Unmarshal(body, &rs[i])
	}
	if rs[0].BaseTag != base.Tag || rs[1].BaseTag != base.Tag || rs[0].Tag == rs[1].Tag {
		t.Fatalf("racing responses %q %q from %q", rs[0].Tag, rs[1].Tag, base.Tag)
	}
	if !cas(rs[0]) || cas(rs[1]) {
		t.Fatal("the store must keep the first write and refuse the second")
	}
}

// TestEdgeReadOnlyOnNewMemory (issue 17, item 10): a read-only export on a
// new memory answered changed: true. A request without state starts from
// the empty memory: changed says whether the call changed that.
func TestEdgeReadOnlyOnNewMemory(t *testing.T) {
	srv := edgeServer(t, host.EdgeOptions{})
	for _, tt := range []struct {
		export, input string
		changed       bool
	}{
		{"get_memory", `{}`, false},
		{"rank", `{"candidates":["a","b"]}`, false},
		{"select_slate", `{"query":"x","budget":10}`, false},
		{"export_state", ``, false},
		{"record", `{"signals":[{"user":"u","item":"a","action":"like","time":1}]}`, true},
	} {
		req := host.EdgeRequest{}
		if tt.input != "" {
			req.Input = json.RawMessage(tt.input)
		}
		code, body := post(t, srv.URL+"/v1/"+tt.export, req)
		var r host.EdgeResponse
		json.Unmarshal(body, &r)
		if code != 200 || r.Changed != tt.changed || r.BaseTag != "new" {
			t.Errorf("%s on a new memory: %d changed=%v base_tag=%q, want changed=%v", tt.export, code, r.Changed, r.BaseTag, tt.changed)
		}
	}
}
