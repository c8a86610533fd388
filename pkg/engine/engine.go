// Package engine is recmem's single entry point: one user's client-held state and
// the named exports that read and change it.
//
// The plugin, the Go host's native mode and the conformance runner all go through
// Engine.Call, so every host runs exactly the same code on the same bytes. An export
// takes JSON and returns JSON; an export that fails returns an error naming the
// offending field and leaves the state exactly as it was.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/recmem/recmem/pkg/llm"
)

// MaxInputBytes bounds the JSON input of one call (16 MiB). Larger inputs are
// refused before any decoding work is done.
const MaxInputBytes = 16 << 20

// Handler runs one export against the engine's state. It returns a value that is
// encoded as the export's JSON output, or an error. A handler that returns an
// error must leave the state untouched.
type Handler func(e *Engine, input []byte) (any, error)

// registry maps export names to handlers. It is filled by init functions of this
// package and never changed afterwards.
var registry = map[string]Handler{}

func register(name string, h Handler) {
	if _, dup := registry[name]; dup {
		panic("engine: export registered twice: " + name)
	}
	registry[name] = h
}

// Exports lists the export names in sorted order.
func Exports() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Engine holds one user's state. It keeps nothing that export_state does not
// return. An Engine is not safe for concurrent use; hosts run one per goroutine.
type Engine struct {
	doc *Document
	rec *recAsset // the catalog loaded by load_catalog (rank_exports.go); not user state
	// llm and llmSteps are host configuration (SetLLM), not user state.
	llm      llm.Completer
	llmSteps map[string]bool
}

// New returns an engine holding an empty state with default parameters.
func New() *Engine {
	return &Engine{doc: NewDocument()}
}

// ErrUnknownExport is returned by Call for a name that no handler serves.
var ErrUnknownExport = errors.New("engine: unknown export")

// Call runs the named export on input and returns its JSON output. Errors are
// prefixed with the export name, so a host can show them as they are.
func (e *Engine) Call(name string, input []byte) ([]byte, error) {
	h, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownExport, name)
	}
	if len(input) > MaxInputBytes {
		return nil, fmt.Errorf("%s: input is %d bytes, more than the limit of %d", name, len(input), MaxInputBytes)
	}
	out, err := h(e, input)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if raw, ok := out.(rawJSON); ok {
		return raw, nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("%s: encoding output: %w", name, err)
	}
	return b, nil
}

// rawJSON is a handler's output already encoded, byte for byte as
// json.Marshal would have encoded its value (hot exports write their outputs
// with pkg/jsonenc: reflection costs 10-20x more inside WebAssembly).
type rawJSON []byte

// Document returns the engine's current state document. The caller must not
// change it.
func (e *Engine) Document() *Document { return e.doc }

func init() {
	register("exports", func(e *Engine, _ []byte) (any, error) {
		return map[string]any{"exports": Exports(), "schema": SchemaName, "schema_version": SchemaVersion}, nil
	})
}
