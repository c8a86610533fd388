package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	contract "github.com/recmem/recmem/pkg/llm"
)

// ReplayServer is an OpenAI-compatible /v1/chat/completions endpoint that
// answers from a recording: it matches a request by its messages, max_tokens,
// temperature and response format (what reaches the wire) and returns the
// recorded text and token counts. It lets tests and demos run the whole LLM
// path, HTTP included, without a model. Unmatched requests get a 404 with a
// JSON error, as a real endpoint answers an unknown route.
type ReplayServer struct {
	mu     sync.Mutex
	byWire map[string]contract.Response
	// Hits counts answered requests.
	Hits int
}

// NewReplayServer indexes the exchanges of a recording.
func NewReplayServer(exchanges []Exchange) *ReplayServer {
	s := &ReplayServer{byWire: map[string]contract.Response{}}
	for _, ex := range exchanges {
		s.byWire[wireKey(ex.Request.Messages, ex.Request.MaxTokens, ex.Request.Temperature, ex.Request.ResponseFormat == "json")] = ex.Response
	}
	return s
}

func wireKey(msgs []contract.Message, maxTokens int, temp float64, jsonFormat bool) string {
	b, _ := json.Marshal(struct {
		M []contract.Message
		N int
		T float64
		J bool
	}{msgs, maxTokens, temp, jsonFormat})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ServeHTTP implements http.Handler.
func (s *ReplayServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		http.Error(w, `{"error":{"message":"bad body"}}`, http.StatusBadRequest)
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"malformed JSON"}}`, http.StatusBadRequest)
		return
	}
	key := wireKey(req.Messages, req.MaxTokens, req.Temperature, req.ResponseFormat.isJSON())
	s.mu.Lock()
	resp, ok := s.byWire[key]
	if ok {
		s.Hits++
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if !ok || resp.Error != "" {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": "no recorded exchange for this request"}})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"object":  "chat.completion",
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]string{"role": "assistant", "content": resp.Text}, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": resp.InputTokens, "completion_tokens": resp.OutputTokens, "total_tokens": resp.InputTokens + resp.OutputTokens},
	})
}

// ReadExchanges reads a recording's exchanges (see ReadReplayer).
func ReadExchanges(r io.Reader) ([]Exchange, error) {
	var out []Exchange
	dec := json.NewDecoder(r)
	for dec.More() {
		var ex Exchange
		if err := dec.Decode(&ex); err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, nil
}
