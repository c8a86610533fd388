// Package engine is recmem's single entry point: one user's client-held state and
// the named exports that read and change it.
//
// The plugin, the Go host's native mode and the conformance runner all go through
// Engine.Call, so every host runs exactly the same code on the same bytes. An export
// takes JSON and returns JSON; an export that fails returns an error naming the
// offending field and leaves the state exactly as it was.
package engine

import (
	"errors"
	"fmt"

	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/phase"
)

// MaxInputBytes bounds the JSON input of one call (16 MiB). Larger inputs are
// refused before any decoding work is done.
const MaxInputBytes = 16 << 20

// Engine holds one user's state. It keeps nothing that export_state does not
// return. An Engine is not safe for concurrent use; hosts run one per goroutine.
type Engine struct {
	doc *Document
	rec *recAsset // the catalog loaded by load_catalog (rank_exports.go); not user state
	// llm and llmSteps are host configuration (SetLLM), not user state.
	llm      llm.Completer
	llmSteps map[string]bool
	llmSet   llm.Settings // SetLLMModel: prompt profile and rank weight
	// lin is what the engine knows of the binary state its caller holds,
	// and memDirty whether the memory may have changed since (binary.go):
	// export_state's deltas. Neither is state: both follow from the last
	// import or export.
	lin      lineage
	memDirty bool
	// timer times the phases of each call when the host gave a clock
	// (SetClock), and timed names the export it timed last; host
	// configuration, not state. Nil: nothing is timed.
	timer *phase.Timer
	timed string
}

// New returns an engine holding an empty state with default parameters.
func New() *Engine {
	return &Engine{doc: NewDocument()}
}

// ErrUnknownExport is returned by Call for a name that no export has.
var ErrUnknownExport = errors.New("engine: unknown export")

// Call runs the named export on input and returns its JSON output. Errors are
// prefixed with the export name, so a host can show them as they are.
func (e *Engine) Call(name string, input []byte) ([]byte, error) {
	x, ok := byName[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownExport, name)
	}
	return e.Run(x, input)
}

// Run runs export x on input: Call without the lookup, for hosts that hold
// the descriptor (the plugin's generated glue).
func (e *Engine) Run(x *Export, input []byte) ([]byte, error) {
	if len(input) > MaxInputBytes {
		return nil, fmt.Errorf("%s: input is %d bytes, more than the limit of %d", x.Name, len(input), MaxInputBytes)
	}
	if e.timer != nil && x != Phases.Export {
		e.timer.Start()
		e.timed = x.Name
	}
	out, err := x.run(e, input)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.Name, err)
	}
	if x.Mutates {
		switch x {
		case AddUnits.Export, DeleteUnits.Export, Purge.Export, ImportState.Export:
		default:
			e.memDirty = true
		}
	}
	return out, nil
}

// SetClock gives the engine a clock to time the phases of each call with
// (the phases export answers where the last call's time went); nil, the
// default, times nothing. The module reads no clock of its own: the plugin
// sets one when the host's manifest config has "phases": "on". Timing costs
// a clock read per phase, a few dozen per call at most.
func (e *Engine) SetClock(c phase.Clock) {
	e.timer, e.timed = phase.New(c), ""
}

// PhasesOutput is where the last call's time went, when the host gave the
// engine a clock: the export timed and its phases in the order they first
// ended, each with its nanoseconds (docs/phases.md names them). Without a
// clock, the default, both are empty.
type PhasesOutput struct {
	Export string       `json:"export"`
	Phases []phase.Span `json:"phases"`
}

func phasesExport(e *Engine, _ []byte) (PhasesOutput, error) {
	out := PhasesOutput{Export: e.timed, Phases: e.timer.Spans()}
	if out.Phases == nil {
		out.Phases = []phase.Span{}
	}
	return out, nil
}

// rawJSON is a handler's output already encoded, byte for byte as
// json.Marshal would have encoded its value (hot exports write their outputs
// with pkg/jsonenc: reflection costs 10-20x more inside WebAssembly).
type rawJSON []byte

// AppendJSON appends r.
func (r rawJSON) AppendJSON(b []byte) ([]byte, error) { return append(b, r...), nil }

// Document returns the engine's current state document. The caller must not
// change it.
func (e *Engine) Document() *Document { return e.doc }

// ExportsOutput is the output of exports: the export names, sorted, the
// state document format this module writes, and the LLM configuration it runs
// with.
type ExportsOutput struct {
	Exports       []string  `json:"exports"`
	LLM           LLMConfig `json:"llm"`
	Schema        string    `json:"schema"`
	SchemaVersion int       `json:"schema_version"`
}

// LLMConfig is the host's LLM configuration as the module applies it
// (llm_steps, llm_model): the steps that ask the model, and the measured
// settings of the model named (llm.ForModel), so that a host can say which
// steps are on and why.
type LLMConfig struct {
	// Steps are the steps that ask the host's LLM, in the order of
	// LLMSteps; empty when none does.
	Steps []string `json:"steps"`
	// Model is the measured model whose settings apply ("smollm2-135m-
	// instruct"), or "" for a model nothing was measured with (or none).
	Model string `json:"model,omitempty"`
	// Helps are the steps measured to help with that model: the default
	// when the host names no steps. Empty for every model measured so far.
	Helps []string `json:"helps"`
	// Measured says where the figures behind Helps are.
	Measured string `json:"measured,omitempty"`
	// Prompts is the prompt profile: "full" or "compact".
	Prompts string `json:"prompts"`
}

func exportsExport(e *Engine, _ []byte) (ExportsOutput, error) {
	return ExportsOutput{Exports: names, LLM: e.llmConfig(), Schema: SchemaName, SchemaVersion: SchemaVersion}, nil
}
