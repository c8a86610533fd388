package engine

import (
	"errors"
	"fmt"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// SchemaName and SchemaVersion identify the state document format
// (docs/state-format.md). A document with a newer version is refused; an
// older one is migrated on import (integrity.go). Version 2 added the
// checksum.
const (
	SchemaName    = "recmem.state"
	SchemaVersion = 2
)

// Document is the whole client-held state of one user: everything an engine
// knows. Exported by export_state and restored by import_state; a round trip is
// byte-identical.
type Document struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Checksum is "sha256:" and the hex SHA-256 of the document's canonical
	// form without the checksum: a damaged or altered document is refused on
	// import. Set by export_state.
	Checksum string        `json:"checksum,omitempty"`
	Memory   *memory.State `json:"memory"`
	// Units is the slate-selection memory (pkg/slate): stored turns and
	// records, encoded as an array in insertion order; absent until units are
	// first added.
	Units *slate.Store `json:"units,omitempty"`
}

// NewDocument returns an empty document with default parameters.
func NewDocument() *Document {
	return &Document{Schema: SchemaName, Version: SchemaVersion, Memory: memory.New(memory.Config{})}
}

// Validate checks the document's header and every section, naming the first
// field at fault.
func (d *Document) Validate() error {
	switch {
	case d.Schema != SchemaName:
		return fmt.Errorf("state.schema: want %q, got %q", SchemaName, d.Schema)
	case d.Version > SchemaVersion:
		return fmt.Errorf("state.version: document version %d is newer than this module supports (%d)", d.Version, SchemaVersion)
	case d.Version < 1:
		return fmt.Errorf("state.version: must be at least 1, got %d", d.Version)
	case d.Memory == nil:
		return errors.New("state.memory: missing")
	}
	if err := d.Memory.Validate(); err != nil {
		return fmt.Errorf("state.memory.%w", err)
	}
	if d.Units != nil {
		if err := d.Units.Validate(); err != nil {
			return fmt.Errorf("state.units: %w", err)
		}
	}
	return nil
}

// AppendJSON appends d sealed: its checksum set from its canonical form,
// encoded exactly as json.Marshal encodes it (export_state's output).
func (d *Document) AppendJSON(b []byte) ([]byte, error) {
	out, err := d.sealed()
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

func exportStateExport(e *Engine, _ []byte) (*Document, error) { return e.doc, nil }

// ImportStateOutput is what import_state restored.
type ImportStateOutput struct {
	OK      bool           `json:"ok"`
	Summary memory.Summary `json:"summary"`
	Version int            `json:"version"`
}

func importStateExport(e *Engine, input []byte) (ImportStateOutput, error) {
	d, err := decodeDocument(input)
	if err != nil {
		return ImportStateOutput{}, err
	}
	e.doc = d
	return ImportStateOutput{true, d.Memory.Summary(), d.Version}, nil
}

// ResetInput is the input of reset: the memory's parameters (zero fields
// mean the documented defaults).
type ResetInput struct {
	Config memory.Config `json:"config,omitzero"`
}

// ResetOutput is the parameters the new memory has.
type ResetOutput struct {
	Config memory.Config `json:"config"`
	OK     bool          `json:"ok"`
}

func resetExport(e *Engine, input []byte) (ResetOutput, error) {
	var in ResetInput
	if err := decodeStrict(input, &in); err != nil {
		return ResetOutput{}, err
	}
	if err := in.Config.Validate(); err != nil {
		return ResetOutput{}, fmt.Errorf("input.config.%w", err)
	}
	d := NewDocument()
	d.Memory = memory.New(in.Config)
	e.doc = d
	return ResetOutput{d.Memory.Config, true}, nil
}
