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
// never fails: an endpoint without /v1/models is described by its URL.
func (c *Client) Describe(ctx context.Context) string {
	fallback := "endpoint " + c.cfg.BaseURL + ", model " + c.cfg.Model
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+"/models", nil)
	if err != nil {
		return fallback
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fallback
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return fallback
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
	if json.Unmarshal(raw, &list) != nil || len(list.Data) == 0 {
		return fallback
	}
	m := list.Data[0]
	if m.Runtime == "" {
		return fmt.Sprintf("model %s at %s", m.ID, c.cfg.BaseURL)
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
	return strings.Join(parts, "; ")
}
