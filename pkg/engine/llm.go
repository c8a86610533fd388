package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
)

// LLMSteps are the steps that may use the host's LLM.
var LLMSteps = []string{llm.PurposeExtract, llm.PurposePlan, llm.PurposeSynthesize, llm.PurposeRank}

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

// llmOn reports whether step asks the LLM.
func (e *Engine) llmOn(step string) bool { return e.llm != nil && e.llmSteps[step] }

// policy returns the memory policy for one call: the LLM extractor and
// synthesizer where configured, the LLM-free defaults elsewhere. Outcomes of
// LLM steps are appended to log.
func (e *Engine) policy(log *llm.Log) memory.Policy {
	var p memory.Policy
	if e.llmOn(llm.PurposeExtract) {
		p.Extractor = llm.Extractor{C: e.llm, Log: log}
	}
	if e.llmOn(llm.PurposeSynthesize) {
		p.Synthesizer = llm.Synthesizer{C: e.llm, Log: log}
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
			return llm.Planner{C: e.llm, Log: log}, nil
		}
		return memory.Heuristic{}, nil
	}
	return nil, fmt.Errorf("unknown scheduler %q (want fixed or planner)", name)
}
