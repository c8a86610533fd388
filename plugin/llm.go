//go:build wasip1

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	pdk "github.com/extism/go-pdk"

	"github.com/recmem/recmem/pkg/llm"
)

// llmComplete is the host function of docs/llm.md: it takes the offset of a
// JSON llm.Request in Extism memory and returns the offset of a JSON
// llm.Response. Every host provides it; one without a model answers with an
// error and the module runs its LLM-free policies.
//
//go:wasmimport extism:host/user llm_complete
func llmComplete(uint64) uint64

// hostLLM is the llm.Completer that goes through the host function.
type hostLLM struct{}

func (hostLLM) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return llm.Response{}, err
	}
	in := pdk.AllocateBytes(b)
	defer in.Free()
	out := pdk.FindMemory(llmComplete(in.Offset()))
	defer out.Free()
	var resp llm.Response
	if err := json.Unmarshal(out.ReadBytes(), &resp); err != nil {
		return llm.Response{Error: "llm_complete answered malformed JSON: " + err.Error()}, nil
	}
	return resp, nil
}

// configured is set once the manifest's config has been read.
var configured bool

// configure reads the manifest config keys once, before the first export
// runs: "llm_model" (the name of the model the host's LLM runs, which
// chooses the prompt profile, the default steps and the weight of its
// ranking: llm.ForModel), "llm_steps" (comma-separated steps that ask the
// host's LLM; absent: the model's measured default steps),
// "llm_rank_weight" (overrides the model's rank weight) and "phases" ("on":
// time each call's phases with the WASI clock, for the phases export).
func configure() error {
	if configured {
		return nil
	}
	configured = true
	if v, _ := pdk.GetConfig("phases"); v == "on" {
		start := time.Now()
		eng.SetClock(func() int64 { return int64(time.Since(start)) })
	}
	var defaults []string
	if model, ok := pdk.GetConfig("llm_model"); ok && model != "" {
		defaults = eng.SetLLMModel(model)
	}
	if w, ok := pdk.GetConfig("llm_rank_weight"); ok && w != "" {
		x, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return fmt.Errorf("config llm_rank_weight: %q is not a number", w)
		}
		if err := eng.SetLLMRankWeight(x); err != nil {
			return fmt.Errorf("config llm_rank_weight: %w", err)
		}
	}
	steps, ok := pdk.GetConfig("llm_steps")
	list := strings.Split(steps, ",")
	if !ok {
		list = defaults
	}
	if len(list) == 0 || strings.TrimSpace(strings.Join(list, "")) == "" {
		return nil
	}
	return eng.SetLLM(hostLLM{}, list)
}
