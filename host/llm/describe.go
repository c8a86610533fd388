package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Describe asks the endpoint which model it serves (GET /v1/models) and
// returns a one-line description for a recording's source: the model, its
// quantization and its runtime where the server reports them (the local
// server in scripts/llm does), else the model's id, else the base URL. It
// never fails: an endpoint without /v1/models is described by its URL, and
// one still loading its model is asked again for up to a minute.
func (c *Client) Describe(ctx context.Context) string {
	// A server still loading its model lists none (or answers 503): ask
	// again for up to a minute, or every line would be described by the URL.
	for wait := time.Second; ; wait *= 2 {
		if d, ok := c.describe(ctx); ok || wait > 32*time.Second {
			return d
		}
		if c.cfg.Sleep(ctx, wait) != nil {
			return c.fallbackDescription()
		}
	}
}

func (c *Client) fallbackDescription() string {
	return "endpoint " + c.cfg.BaseURL + ", model " + c.cfg.Model
}

// describe makes one GET /v1/models; ok is false when the endpoint answered
// 503 or listed no model, so that the caller may ask again.
func (c *Client) describe(ctx context.Context) (string, bool) {
	fallback := c.fallbackDescription()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+"/models", nil)
	if err != nil {
		return fallback, true
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fallback, true
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode == http.StatusServiceUnavailable {
		return fallback, false
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		return fallback, true
	}
	var list struct {
		Data []struct {
			ID           string `json:"id"`
			Model        string `json:"model"`
			File         string `json:"file"`
			Quantization string `json:"quantization"`
			Runtime      string `json:"runtime"`
			Decoding     string `json:"decoding"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return fallback, true
	}
	if len(list.Data) == 0 {
		return fallback, false
	}
	m := list.Data[0]
	if m.Runtime == "" {
		return fmt.Sprintf("model %s at %s", m.ID, c.cfg.BaseURL), true
	}
	parts := []string{"model " + m.Model}
	if m.File != "" {
		parts = append(parts, "file "+m.File)
	}
	parts = append(parts, "quantization "+m.Quantization, "runtime "+m.Runtime)
	if m.Decoding != "" {
		parts = append(parts, m.Decoding)
	}
	if c.cfg.Format == "schema" {
		parts = append(parts, "answers asked for with response_format json_schema")
	} else {
		parts = append(parts, "answers asked for with response_format json_object")
	}
	return strings.Join(parts, "; "), true
}
