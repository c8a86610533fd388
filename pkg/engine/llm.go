package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
)

// LLMSteps are the steps that may use the host's LLM: the four of MARS, and
// the parse of an instruction's words the LLM-free interpreter left unknown.
var LLMSteps = []string{llm.PurposeExtract, llm.PurposePlan, llm.PurposeSynthesize, llm.PurposeRank, llm.PurposeParse}

// SetLLM makes the named steps ask c (the llm_complete host function inside
// the plugin, a Go client natively). A step not named keeps its LLM-free
// policy. It is host configuration, not user state: it is not exported with
// the state.
func (e *Engine) SetLLM(c llm.Completer, steps []string) error {
	on := map[string]bool{}
	for _, s := range steps {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !slices.Contains(LLMSteps, s) {
			return fmt.Errorf("engine: unknown LLM step %q (want any of %v)", s, LLMSteps)
		}
		on[s] = true
	}
	e.llm, e.llmSteps = c, on
	return nil
}

// SetLLMModel chooses the settings of the model the host's LLM runs
// (llm.ForModel: the prompt profile, the measured default steps, the weight
// of its ranking as evidence) by its name. It returns the model's measured
// default steps, for a host that was given none. Without it, the full
// prompt profile is used and the model's ranking has weight 0.
func (e *Engine) SetLLMModel(model string) []string {
	e.llmSet = llm.ForModel(model)
	return e.llmSet.Steps
}

// SetLLMRankWeight overrides the weight of the model's ranking as evidence
// (llm.Ranker), as a fitting run does. It must be a finite number, 0 or more.
func (e *Engine) SetLLMRankWeight(w float64) error {
	if !(w >= 0) || math.IsInf(w, 0) {
		return fmt.Errorf("engine: LLM rank weight: want a finite number, 0 or more, got %v", w)
	}
	e.llmSet.RankWeight = w
	return nil
}

// llmConfig describes the LLM configuration in effect (the exports export).
func (e *Engine) llmConfig() LLMConfig {
	c := LLMConfig{Steps: []string{}, Model: e.llmSet.Model, Helps: append([]string{}, e.llmSet.Steps...), Measured: e.llmSet.Measured,
		Prompts: e.llmSet.Prompts.Name}
	if c.Prompts == "" {
		c.Prompts = llm.Full.Name
	}
	for _, s := range LLMSteps {
		if e.llmOn(s) {
			c.Steps = append(c.Steps, s)
		}
	}
	return c
}

// llmOn reports whether step asks the LLM.
func (e *Engine) llmOn(step string) bool { return e.llm != nil && e.llmSteps[step] }

// policy returns the memory policy for one call: the LLM extractor and
// synthesizer where configured, the LLM-free defaults elsewhere. Outcomes of
// LLM steps are appended to log.
func (e *Engine) policy(log *llm.Log) memory.Policy {
	var p memory.Policy
	if e.llmOn(llm.PurposeExtract) {
		p.Extractor = llm.Extractor{C: e.llm, Log: log, Prompts: e.llmSet.Prompts}
	}
	if e.llmOn(llm.PurposeSynthesize) {
		p.Synthesizer = llm.Synthesizer{C: e.llm, Log: log, Prompts: e.llmSet.Prompts}
	}
	return p
}

// scheduler returns the named planner: "fixed", "planner" (the LLM-free
// heuristic planner) or "llm" (π_plan through the host, falling back to the
// heuristic planner). An empty name is "fixed".
func (e *Engine) scheduler(name string, log *llm.Log) (memory.Planner, error) {
	switch name {
	case "", "fixed":
		return memory.Fixed{}, nil
	case "planner":
		if e.llmOn(llm.PurposePlan) {
			return llm.Planner{C: e.llm, Log: log, Prompts: e.llmSet.Prompts}, nil
		}
		return memory.Heuristic{}, nil
	}
	return nil, fmt.Errorf("unknown scheduler %q (want fixed or planner)", name)
}
