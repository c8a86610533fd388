package host

import (
	"context"
	"encoding/json"

	"github.com/recmem/recmem/pkg/llm"
)

// llmFunction is the llm_complete host function (docs/llm.md): it reads a
// JSON llm.Request from the guest, asks c, and writes back a JSON
// llm.Response. With no completer, or when the exchange fails, the response
// carries an error and the module's step falls back to its LLM-free policy.
// The module itself never reaches the network.
func llmFunction(c llm.Completer) HostFunction {
	return HostFunction{Name: "llm_complete", Fn: func(ctx context.Context, in []byte) ([]byte, error) {
		return json.Marshal(answer(ctx, c, in))
	}}
}

func answer(ctx context.Context, c llm.Completer, raw []byte) llm.Response {
	var req llm.Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return llm.Response{Error: "llm_complete: malformed request: " + err.Error()}
	}
	if c == nil {
		return llm.Response{Error: "no LLM configured in this host"}
	}
	resp, err := c.Complete(ctx, req)
	if err != nil {
		return llm.Response{Error: "llm_complete: " + err.Error()}
	}
	return resp
}
