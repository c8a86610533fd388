package host

import (
	"context"
	"encoding/json"

	extism "github.com/extism/go-sdk"

	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/llm"
)

// llmFunction is the llm_complete host function (docs/llm.md): it reads a
// JSON llm.Request from the guest, asks c, and writes back a JSON
// llm.Response. With no completer, or when the exchange fails, the response
// carries an error and the module's step falls back to its LLM-free policy.
// The module itself never reaches the network.
func llmFunction(c hostllm.Completer) extism.HostFunction {
	return extism.NewHostFunctionWithStack("llm_complete",
		func(ctx context.Context, p *extism.CurrentPlugin, stack []uint64) {
			resp := answer(ctx, c, p, stack[0])
			b, _ := json.Marshal(resp)
			off, err := p.WriteBytes(b)
			if err != nil {
				panic(err) // out of guest memory: the call fails as a whole
			}
			stack[0] = off
		},
		[]extism.ValueType{extism.ValueTypeI64}, []extism.ValueType{extism.ValueTypeI64})
}

func answer(ctx context.Context, c hostllm.Completer, p *extism.CurrentPlugin, off uint64) llm.Response {
	raw, err := p.ReadBytes(off)
	if err != nil {
		return llm.Response{Error: "llm_complete: reading the request: " + err.Error()}
	}
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
