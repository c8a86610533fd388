package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/recmem/recmem/host"
	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
)

// llmFlags are the LLM settings shared by commands that run the lifecycle.
type llmFlags struct {
	spec, record, steps, model, format, source, profile string
	rankWeight                                          float64
	stepsSet, weightSet                                 bool
}

func addLLMFlags(fs *flag.FlagSet) *llmFlags {
	f := &llmFlags{}
	fs.StringVar(&f.spec, "llm", "", "LLM `ENDPOINT`: an OpenAI-compatible base URL (http://127.0.0.1:8080/v1) or replay:FILE; empty: LLM-free policies")
	fs.StringVar(&f.record, "llm-record", "", "append every LLM exchange to `FILE` (JSON lines) for replay; requests the file already holds are answered from it")
	fs.Func("llm-steps", "comma-separated `STEPS` that ask the LLM when --llm is set (default: the steps measured to help with the model, docs/llm.md; none for a model nothing was measured with)", func(v string) error {
		f.steps, f.stepsSet = v, true
		return nil
	})
	fs.StringVar(&f.profile, "llm-profile", "", "the model `NAME` that chooses the prompt profile, default steps and rank weight (default: --llm-model, else the model the endpoint's /v1/models or the recording's source names)")
	fs.Func("llm-rank-weight", "override the weight of the model's ranking as evidence (`W` >= 0; default: the model's fitted weight, docs/llm.md)", func(v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("want a finite number, 0 or more, got %q", v)
		}
		f.rankWeight, f.weightSet = x, true
		return nil
	})
	fs.StringVar(&f.model, "llm-model", "", "model name sent to the endpoint (default $RECMEM_LLM_MODEL)")
	fs.StringVar(&f.format, "llm-format", "schema", "how JSON answers are asked for: schema (response_format json_schema, a grammar on llama.cpp) or json (json_object only)")
	fs.StringVar(&f.source, "llm-source", "", "the `TEXT` each recorded line's source says (default: the model, quantization and runtime the endpoint's /v1/models reports)")
	return f
}

// llmSetup is an opened LLM: the completer the host function calls, the
// steps that use it, and the meter that counts calls and tokens.
type llmSetup struct {
	completer llm.Completer
	meter     *hostllm.Meter
	steps     []string
	// model names the model (llm.ForModel chooses its settings by it);
	// settings are those settings, rankWeight an override of their weight.
	model      string
	settings   llm.Settings
	rankWeight *float64
	close      func() error
}

// open returns the configured LLM, or a setup with no completer when --llm is
// empty (every step then runs its LLM-free policy).
func (f *llmFlags) open() (*llmSetup, error) {
	s := &llmSetup{close: func() error { return nil }}
	if f.spec == "" {
		if f.record != "" {
			return nil, errors.New("--llm-record needs --llm")
		}
		return s, nil
	}
	var c llm.Completer
	source := f.spec
	model := f.profile
	if model == "" {
		model = f.model
	}
	if path, ok := strings.CutPrefix(f.spec, "replay:"); ok {
		rp, err := hostllm.LoadReplayer(path)
		if err != nil {
			return nil, err
		}
		c = rp
		if model == "" {
			model = rp.Source()
		}
	} else {
		cl, err := hostllm.New(hostllm.Config{BaseURL: f.spec, Model: f.model, Format: f.format})
		if err != nil {
			return nil, fmt.Errorf("--llm: %w", err)
		}
		c = cl
		if (f.record != "" && f.source == "") || model == "" {
			d := cl.Describe(context.Background())
			if f.record != "" && f.source == "" {
				source = d
			}
			if model == "" {
				model = d
			}
		}
	}
	if f.source != "" {
		source = f.source
	}
	if f.record != "" {
		// Exchanges already in the file are answered from it: a recording
		// run that stopped can be started again and goes on where it was;
		// and a request asked again in this run is answered as the first.
		known, err := hostllm.ReadReplayer(strings.NewReader(""))
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(f.record); err == nil && st.Size() > 0 {
			if known, err = hostllm.LoadReplayer(f.record); err != nil {
				return nil, fmt.Errorf("--llm-record: %w", err)
			}
		}
		w, err := os.OpenFile(f.record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--llm-record: %w", err)
		}
		c = hostllm.Resume{Known: known, Next: hostllm.NewRecorder(c, w, source)}
		s.close = w.Close
	}
	s.model, s.settings = model, llm.ForModel(model)
	if f.weightSet {
		w := f.rankWeight
		s.rankWeight = &w
	}
	steps := strings.Join(s.settings.Steps, ",")
	if f.stepsSet {
		steps = f.steps
	}
	for _, st := range strings.Split(steps, ",") {
		if st = strings.TrimSpace(st); st != "" {
			s.steps = append(s.steps, st)
		}
	}
	s.meter = hostllm.NewMeter(c)
	s.completer = s.meter
	return s, nil
}

// options returns host options that provide the LLM to the module.
func (s *llmSetup) options(wasm string) host.Options {
	o := host.Options{WasmPath: wasm, LLM: s.completer, LLMSteps: s.steps}
	if len(s.steps) > 0 { // no steps: no model, whose defaults would apply
		o.LLMModel, o.LLMRankWeight = s.model, s.rankWeight
	}
	return o
}

// nativeEngine returns an engine that asks the same LLM in-process.
func (s *llmSetup) nativeEngine() (*engine.Engine, error) {
	e := engine.New()
	if s.completer == nil {
		return e, nil
	}
	if s.model != "" {
		e.SetLLMModel(s.model)
	}
	if s.rankWeight != nil {
		if err := e.SetLLMRankWeight(*s.rankWeight); err != nil {
			return nil, err
		}
	}
	if err := e.SetLLM(s.completer, s.steps); err != nil {
		return nil, err
	}
	return e, nil
}
