// Package llm implements the host side of recmem's llm_complete contract
// (pkg/llm): a client for any OpenAI-compatible /v1/chat/completions endpoint
// (llama.cpp's server, Ollama, vLLM, hosted services), with timeouts, bounded
// retries with backoff, a per-user budget of calls and tokens, and record and
// replay of exchanges by request hash.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	contract "github.com/recmem/recmem/pkg/llm"
)

// Config configures a Client. Zero values mean the documented defaults.
type Config struct {
	// BaseURL is the endpoint's base, ending in /v1 (e.g.
	// http://127.0.0.1:8080/v1). Default $RECMEM_LLM_URL.
	BaseURL string
	// Model is sent as "model". Default $RECMEM_LLM_MODEL, else "default".
	Model string
	// APIKey is sent as a bearer token. Default $RECMEM_LLM_KEY, else
	// $OPENAI_API_KEY. It is never logged, recorded or put into state.
	APIKey string
	// Timeout bounds one attempt (default 60 s).
	Timeout time.Duration
	// MaxRetries is how many times a 429, a 5xx or a transport error is
	// retried (default 3; negative means none).
	MaxRetries int
	// Backoff is the first retry's wait, doubled each time up to 8 s
	// (default 500 ms). A Retry-After header in seconds takes precedence.
	Backoff time.Duration
	// Budget limits each user's calls and tokens (zero fields: the defaults).
	Budget Budget
	// HTTPClient defaults to a client with no overall timeout (Timeout
	// bounds each attempt through its context).
	HTTPClient *http.Client
	// Sleep waits between retries (default time.Sleep with ctx); tests
	// replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Format is how a JSON answer is asked for: "schema" (default) sends a
	// request's schema as response_format {"type":"json_schema"}, which
	// llama.cpp and node-llama-cpp turn into a grammar and OpenAI into
	// structured outputs; "json" sends {"type":"json_object"} only, for
	// endpoints that know no schemas. A request without a schema is sent as
	// json_object either way.
	Format string
}

// Formats are the values of Config.Format.
var Formats = []string{"schema", "json"}

// Budget is a per-user allowance. When it is spent, Complete answers with a
// Response whose Error says so, and the step falls back to its LLM-free policy.
type Budget struct {
	Calls  int // default 50 calls per user
	Tokens int // default 100,000 input plus output tokens per user
}

// Usage counts one user's exchanges, per step (purpose).
type Usage struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Client calls an OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	cfg   Config
	mu    sync.Mutex
	usage map[string]map[string]*Usage // user → purpose → usage
}

// ErrNoEndpoint is returned by New when no base URL is configured.
var ErrNoEndpoint = errors.New("llm: no endpoint configured (set --llm or RECMEM_LLM_URL)")

// New returns a client with cfg's defaults filled in.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = os.Getenv("RECMEM_LLM_URL")
	}
	if cfg.BaseURL == "" {
		return nil, ErrNoEndpoint
	}
	if !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return nil, fmt.Errorf("llm: base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Model == "" {
		cfg.Model = os.Getenv("RECMEM_LLM_MODEL")
	}
	if cfg.Model == "" {
		cfg.Model = "default"
	}
	if cfg.APIKey == "" {
		cfg.APIKey = os.Getenv("RECMEM_LLM_KEY")
	}
	if cfg.APIKey == "" {
		cfg.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.Budget.Calls == 0 {
		cfg.Budget.Calls = 50
	}
	if cfg.Budget.Tokens == 0 {
		cfg.Budget.Tokens = 100_000
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	switch cfg.Format {
	case "":
		cfg.Format = "schema"
	case "schema", "json":
	default:
		return nil, fmt.Errorf("llm: format %q: want schema or json", cfg.Format)
	}
	return &Client{cfg: cfg, usage: map[string]map[string]*Usage{}}, nil
}

// String describes the client without its key.
func (c *Client) String() string { return fmt.Sprintf("llm %s model %s", c.cfg.BaseURL, c.cfg.Model) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Usage returns a copy of the per-user, per-step usage so far.
func (c *Client) Usage() map[string]map[string]Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]map[string]Usage, len(c.usage))
	for u, m := range c.usage {
		out[u] = make(map[string]Usage, len(m))
		for p, x := range m {
			out[u][p] = *x
		}
	}
	return out
}

// spent reports why user may not make another call, or "".
func (c *Client) spent(user string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	calls, tokens := 0, 0
	for _, x := range c.usage[user] {
		calls += x.Calls
		tokens += x.InputTokens + x.OutputTokens
	}
	switch {
	case calls >= c.cfg.Budget.Calls:
		return fmt.Sprintf("budget spent: user %q made %d calls (limit %d)", user, calls, c.cfg.Budget.Calls)
	case tokens >= c.cfg.Budget.Tokens:
		return fmt.Sprintf("budget spent: user %q used %d tokens (limit %d)", user, tokens, c.cfg.Budget.Tokens)
	}
	return ""
}

func (c *Client) account(user, purpose string, r contract.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.usage[user]
	if m == nil {
		m = map[string]*Usage{}
		c.usage[user] = m
	}
	u := m[purpose]
	if u == nil {
		u = &Usage{}
		m[purpose] = u
	}
	u.Calls++
	u.InputTokens += r.InputTokens
	u.OutputTokens += r.OutputTokens
}

// chatRequest and chatResponse are the OpenAI chat-completions wire format.
type chatRequest struct {
	Model          string             `json:"model"`
	Messages       []contract.Message `json:"messages"`
	MaxTokens      int                `json:"max_tokens,omitempty"`
	Temperature    float64            `json:"temperature"`
	ResponseFormat *responseFormat    `json:"response_format,omitempty"`
}

// responseFormat is OpenAI's response_format: json_object, or json_schema
// with a named schema. Strict is false: OpenAI's strict mode accepts only a
// subset of JSON schema, and the module validates every answer anyway.
type responseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict bool            `json:"strict"`
	} `json:"json_schema,omitempty"`
}

// isJSON reports whether f asks for a JSON answer.
func (f *responseFormat) isJSON() bool {
	return f != nil && (f.Type == "json_object" || f.Type == "json_schema")
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Complete sends req and returns the model's text. Transport failures, 429
// and 5xx answers are retried with backoff; other failures, a spent budget or
// an unusable body come back as a Response with Error set (and a nil error),
// so the caller's step falls back to its LLM-free policy and records why. The
// returned error is non-nil only when ctx ends.
func (c *Client) Complete(ctx context.Context, req contract.Request) (contract.Response, error) {
	if why := c.spent(req.User); why != "" {
		return contract.Response{Error: why}, nil
	}
	body := chatRequest{Model: c.cfg.Model, Messages: req.Messages, MaxTokens: req.MaxTokens, Temperature: req.Temperature}
	if req.ResponseFormat == "json" {
		body.ResponseFormat = &responseFormat{Type: "json_object"}
		if len(req.Schema) > 0 && c.cfg.Format == "schema" {
			body.ResponseFormat.Type = "json_schema"
			body.ResponseFormat.JSONSchema = &struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"schema"`
				Strict bool            `json:"strict"`
			}{Name: "recmem_" + req.Purpose, Schema: req.Schema}
		}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return contract.Response{}, err
	}
	wait := c.cfg.Backoff
	var last string
	for attempt := 0; attempt <= c.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			if err := c.cfg.Sleep(ctx, wait); err != nil {
				return contract.Response{}, err
			}
			wait = min(2*wait, 8*time.Second)
		}
		resp, retry, after := c.attempt(ctx, payload)
		if ctx.Err() != nil {
			return contract.Response{}, ctx.Err()
		}
		if resp.Error == "" {
			c.account(req.User, req.Purpose, resp)
			return resp, nil
		}
		last = resp.Error
		if !retry {
			break
		}
		if after > 0 {
			wait = after
		}
	}
	return contract.Response{Error: last}, nil
}

// attempt makes one HTTP exchange. It reports whether a failure is worth
// retrying and any Retry-After the server asked for.
func (c *Client) attempt(ctx context.Context, payload []byte) (contract.Response, bool, time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+"/chat/completions", bytes.NewReader(payload))
	if err != nil {
		return contract.Response{Error: "llm: " + err.Error()}, false, 0
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	hresp, err := c.cfg.HTTPClient.Do(hreq)
	if err != nil {
		// The error text may hold the URL but never the key.
		return contract.Response{Error: "llm: request failed: " + err.Error()}, true, 0
	}
	defer hresp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(hresp.Body, 8<<20))
	if err != nil {
		return contract.Response{Error: "llm: reading response: " + err.Error()}, true, 0
	}
	if hresp.StatusCode == http.StatusTooManyRequests || hresp.StatusCode >= 500 {
		var after time.Duration
		if s, err := strconv.Atoi(hresp.Header.Get("Retry-After")); err == nil && s >= 0 && s <= 60 {
			after = time.Duration(s) * time.Second
		}
		return contract.Response{Error: fmt.Sprintf("llm: endpoint answered %d", hresp.StatusCode)}, true, after
	}
	if hresp.StatusCode != http.StatusOK {
		return contract.Response{Error: fmt.Sprintf("llm: endpoint answered %d: %s", hresp.StatusCode, snippet(raw))}, false, 0
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return contract.Response{Error: "llm: malformed response body: " + err.Error()}, false, 0
	}
	if len(cr.Choices) == 0 {
		return contract.Response{Error: "llm: response has no choices"}, false, 0
	}
	r := contract.Response{
		Text:         cr.Choices[0].Message.Content,
		InputTokens:  cr.Usage.PromptTokens,
		OutputTokens: cr.Usage.CompletionTokens,
	}
	return r, false, 0
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
