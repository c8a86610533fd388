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
// checksum; version 3 added memory.client_ids.
const (
	SchemaName    = "recmem.state"
	SchemaVersion = 3
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

func init() {
	register("export_state", func(e *Engine, _ []byte) (any, error) {
		return e.doc.sealed()
	})
	register("import_state", func(e *Engine, input []byte) (any, error) {
		d, err := decodeDocument(input)
		if err != nil {
			return nil, err
		}
		e.doc = d
		return map[string]any{"ok": true, "version": d.Version, "summary": d.Memory.Summary()}, nil
	})
	register("reset", func(e *Engine, input []byte) (any, error) {
		var in struct {
			Config memory.Config `json:"config"`
		}
		if err := decodeStrict(input, &in); err != nil {
			return nil, err
		}
		if err := in.Config.Validate(); err != nil {
			return nil, fmt.Errorf("input.config.%w", err)
		}
		d := NewDocument()
		d.Memory = memory.New(in.Config)
		e.doc = d
		return map[string]any{"ok": true, "config": d.Memory.Config}, nil
	})
}
