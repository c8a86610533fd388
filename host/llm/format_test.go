package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestResponseFormat checks what reaches the wire: a request's schema as
// response_format json_schema by default, json_object with Format "json" or
// without a schema, and nothing for a free-text request.
func TestResponseFormat(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"profile":{"type":"string"}}}`)
	tests := []struct {
		name, format, respFormat string
		schema                   json.RawMessage
		want                     string
	}{
		{"schema", "", "json", schema, `{"type":"json_schema","json_schema":{"name":"recmem_extract","schema":{"type":"object","properties":{"profile":{"type":"string"}}},"strict":false}}`},
		{"json only", "json", "json", schema, `{"type":"json_object"}`},
		{"no schema", "schema", "json", nil, `{"type":"json_object"}`},
		{"free text", "", "", schema, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got json.RawMessage
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				var body struct {
					ResponseFormat json.RawMessage `json:"response_format"`
				}
				json.Unmarshal(b, &body)
				got = body.ResponseFormat
				io.WriteString(w, okBody(`{"profile":"x"}`, 1, 1))
			}))
			defer srv.Close()
			c := newTestClient(t, srv.URL, func(c *Config) { c.Format = tt.format })
			r := req
			r.ResponseFormat, r.Schema = tt.respFormat, tt.schema
			if resp, _ := c.Complete(context.Background(), r); resp.Error != "" {
				t.Fatal(resp.Error)
			}
			if g := strings.TrimSpace(string(got)); g != tt.want && !(tt.want == "null" && g == "") {
				t.Fatalf("response_format %s, want %s", g, tt.want)
			}
		})
	}
	if _, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Format: "yaml"}); err == nil || !strings.Contains(err.Error(), `format "yaml"`) {
		t.Fatalf("format yaml: %v", err)
	}
}

// TestDescribe reads the model, quantization and runtime from /v1/models for a
// recording's source, and falls back to the endpoint when there is none.
func TestDescribe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, `{"object":"list","data":[{"id":"smollm2-q4_1","model":"SmolLM2-135M-Instruct","file":"x.gguf","quantization":"Q4_1","runtime":"node-llama-cpp 3.21.1","decoding":"greedy"}]}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, nil)
	want := "model SmolLM2-135M-Instruct; file x.gguf; quantization Q4_1; runtime node-llama-cpp 3.21.1; greedy; answers asked for with response_format json_schema"
	if got := c.Describe(context.Background()); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	none := newTestClient(t, "http://127.0.0.1:1", nil)
	if got := none.Describe(context.Background()); got != "endpoint http://127.0.0.1:1/v1, model m" {
		t.Fatalf("unreachable: %q", got)
	}
}

// TestDescribeWaitsForTheModel asks again while the server lists no model.
func TestDescribeWaitsForTheModel(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n++; n < 3 {
			io.WriteString(w, `{"object":"list","data":[]}`)
			return
		}
		io.WriteString(w, `{"object":"list","data":[{"id":"m1"}]}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, nil)
	if got := c.Describe(context.Background()); got != "model m1 at "+srv.URL+"/v1" || n != 3 {
		t.Fatalf("%q after %d requests", got, n)
	}
}
