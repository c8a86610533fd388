package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	contract "github.com/recmem/recmem/pkg/llm"
)

// okBody is a chat-completions answer with usage.
func okBody(text string, in, out int) string {
	b, _ := json.Marshal(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": in, "completion_tokens": out},
	})
	return string(b)
}

// server answers with the scripted (status, body, delay) steps in turn,
// repeating the last one, and counts requests.
type step struct {
	status int
	body   string
	delay  time.Duration
	header map[string]string
}

func scripted(t *testing.T, steps ...step) (*httptest.Server, *atomic.Int32, *atomic.Value) {
	var n atomic.Int32
	var lastAuth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "not found", 404)
			return
		}
		lastAuth.Store(r.Header.Get("Authorization"))
		i := int(n.Add(1)) - 1
		s := steps[min(i, len(steps)-1)]
		if s.delay > 0 {
			select {
			case <-time.After(s.delay):
			case <-r.Context().Done():
				return
			}
		}
		for k, v := range s.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(s.status)
		w.Write([]byte(s.body))
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &lastAuth
}

func newTestClient(t *testing.T, url string, mod func(*Config)) *Client {
	cfg := Config{BaseURL: url + "/v1", Model: "m", APIKey: "sk-secret-123", Timeout: 200 * time.Millisecond,
		Backoff: time.Millisecond, Sleep: func(context.Context, time.Duration) error { return nil }}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var req = contract.Request{Purpose: "extract", User: "u1", Messages: []contract.Message{{Role: "user", Content: "hi"}}, MaxTokens: 50, ResponseFormat: "json"}

func TestComplete(t *testing.T) {
	tests := []struct {
		name      string
		steps     []step
		wantText  string
		wantErr   string // substring of Response.Error
		wantCalls int32
	}{
		{"ok", []step{{200, okBody(`{"chunks":[]}`, 12, 5), 0, nil}}, `{"chunks":[]}`, "", 1},
		{"429 then ok", []step{{429, "slow down", 0, map[string]string{"Retry-After": "0"}}, {200, okBody("x", 1, 1), 0, nil}}, "x", "", 2},
		{"5xx retried then given up", []step{{503, "busy", 0, nil}}, "", "endpoint answered 503", 4},
		{"400 not retried", []step{{400, `{"error":"bad model"}`, 0, nil}}, "", "endpoint answered 400", 1},
		{"malformed body", []step{{200, `{"choices": [`, 0, nil}}, "", "malformed response body", 1},
		{"no choices", []step{{200, `{"choices": []}`, 0, nil}}, "", "no choices", 1},
		{"timeout retried then given up", []step{{200, okBody("late", 1, 1), time.Second, nil}}, "", "request failed", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n, auth := scripted(t, tt.steps...)
			c := newTestClient(t, srv.URL, nil)
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantErr == "" && resp.Error != "" {
				t.Fatalf("unexpected error %q", resp.Error)
			}
			if !strings.Contains(resp.Error, tt.wantErr) {
				t.Fatalf("error %q, want it to contain %q", resp.Error, tt.wantErr)
			}
			if resp.Text != tt.wantText {
				t.Fatalf("text %q, want %q", resp.Text, tt.wantText)
			}
			if got := n.Load(); got != tt.wantCalls {
				t.Fatalf("%d requests, want %d", got, tt.wantCalls)
			}
			if strings.Contains(resp.Error, "sk-secret") {
				t.Fatal("the key leaked into an error")
			}
			if a, _ := auth.Load().(string); a != "Bearer sk-secret-123" {
				t.Fatalf("Authorization %q", a)
			}
		})
	}
}

func TestBudget(t *testing.T) {
	srv, n, _ := scripted(t, step{200, okBody("x", 30, 10), 0, nil})
	c := newTestClient(t, srv.URL, func(c *Config) { c.Budget = Budget{Calls: 2, Tokens: 1000} })
	for i := range 2 {
		if r, _ := c.Complete(context.Background(), req); r.Error != "" {
			t.Fatalf("call %d: %s", i, r.Error)
		}
	}
	r, _ := c.Complete(context.Background(), req)
	if !strings.Contains(r.Error, "budget spent") || n.Load() != 2 {
		t.Fatalf("third call: %q after %d requests", r.Error, n.Load())
	}
	other := req
	other.User = "u2"
	if r, _ := c.Complete(context.Background(), other); r.Error != "" {
		t.Fatalf("another user's budget is separate: %s", r.Error)
	}
	u := c.Usage()["u1"]["extract"]
	if u != (Usage{Calls: 2, InputTokens: 60, OutputTokens: 20}) {
		t.Fatalf("usage %+v", u)
	}
}

func TestContextCancelled(t *testing.T) {
	srv, _, _ := scripted(t, step{200, okBody("late", 1, 1), time.Second, nil})
	c := newTestClient(t, srv.URL, func(c *Config) { c.Timeout = 5 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Complete(ctx, req); err == nil {
		t.Fatal("want the context's error")
	}
}

func TestRecordReplay(t *testing.T) {
	srv, n, _ := scripted(t, step{200, okBody(`{"profile":"likes puzzles"}`, 40, 8), 0, nil})
	c := newTestClient(t, srv.URL, nil)
	var buf bytes.Buffer
	rec := NewRecorder(c, &buf, "test server")
	want, err := rec.Complete(context.Background(), req)
	if err != nil || want.Error != "" {
		t.Fatal(err, want.Error)
	}
	if strings.Contains(buf.String(), "sk-secret") {
		t.Fatal("the key was recorded")
	}
	rp, err := ReadReplayer(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := rp.Complete(context.Background(), req)
	if got != want || n.Load() != 1 {
		t.Fatalf("replayed %+v, want %+v (requests %d)", got, want, n.Load())
	}
	other := req
	other.MaxTokens = 51
	if r, _ := rp.Complete(context.Background(), other); !strings.Contains(r.Error, "not in the recording") {
		t.Fatalf("unrecorded request: %+v", r)
	}
	tampered := bytes.Replace(buf.Bytes(), []byte(`"hi"`), []byte(`"ho"`), 1)
	if _, err := ReadReplayer(bytes.NewReader(tampered)); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("tampered recording: %v", err)
	}
}

func TestNewRefusesBadURL(t *testing.T) {
	t.Setenv("RECMEM_LLM_URL", "")
	if _, err := New(Config{}); err != ErrNoEndpoint {
		t.Fatalf("no URL: %v", err)
	}
	if _, err := New(Config{BaseURL: "ftp://x"}); err == nil {
		t.Fatal("ftp URL accepted")
	}
}

// TestResume answers what a recording holds from it and asks for the rest.
func TestResume(t *testing.T) {
	var buf bytes.Buffer
	live := NewRecorder(&counting{}, &buf, "test")
	if _, err := live.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	known, err := ReadReplayer(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	next := &counting{}
	r := Resume{Known: known, Next: next}
	other := req
	other.MaxTokens = 51
	for _, q := range []contract.Request{req, other, req} {
		if resp, _ := r.Complete(context.Background(), q); resp.Text != "answer" {
			t.Fatalf("%+v", resp)
		}
	}
	if next.n != 1 {
		t.Fatalf("asked %d times, want once (only the unrecorded request)", next.n)
	}
}

type counting struct{ n int }

func (c *counting) Complete(context.Context, contract.Request) (contract.Response, error) {
	c.n++
	return contract.Response{Text: "answer", InputTokens: 1, OutputTokens: 1}, nil
}
