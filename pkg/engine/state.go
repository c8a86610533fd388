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
// checksum; version 3 added memory.client_ids; version 4 keeps with each
// client id the fingerprint of its signal, and added memory.tombstones and a
// chunk's stated (the user's edits that steer).
const (
	SchemaName    = "recmem.state"
	SchemaVersion = 4
)

// newInVersion says, for a document of version v (older than SchemaVersion)
// that holds memory a version-v document cannot hold, which field: such a
// document was not written by a module of that version. "" when none.
func newInVersion(v int, m *memory.State) string {
	if m == nil {
		return ""
	}
	if v < 3 && m.ClientIDs != nil {
		return "state.memory.client_ids"
	}
	if v < 4 {
		if m.Tombstones != nil {
			return "state.memory.tombstones"
		}
		for i, c := range m.Chunks {
			if c.Stated {
				return fmt.Sprintf("state.memory.chunks[%d].stated", i)
			}
		}
	}
	return ""
}

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
	// binary, when set, is export_state's output in binary form (or empty:
	// no change since the base asked for), which AppendJSON writes as it is.
	binary []byte
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
// encoded exactly as json.Marshal encodes it (export_state's output). A
// document export_state wrote in binary form appends those bytes instead.
func (d *Document) AppendJSON(b []byte) ([]byte, error) {
	if d.binary != nil {
		return append(b, d.binary...), nil
	}
	out, err := d.sealed()
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// ExportStateInput is the input of export_state: the form of the state,
// and for the binary form the state the caller holds, to write only what
// changed since (docs/state-binary.md).
type ExportStateInput struct {
	// Format is "json" (the default, the document of docs/state-format.md)
	// or "binary".
	Format string `json:"format,omitempty"`
	// Base, binary only, is the checksum ("xxh64:" and 16 hex digits) of a
	// binary state the caller holds: the output is then a segment to append
	// to it, the whole state when a segment cannot say the change or
	// compaction is due, or nothing when nothing changed.
	Base string `json:"base,omitempty"`
	// CompactAfter (1 to 16, default 16) and CompactRatio (above 0, at
	// most 100, default 0.5): with Base, the whole state is written instead
	// of a segment when the state would pass CompactAfter segments, or its
	// segments CompactRatio times the size of its base.
	CompactAfter int     `json:"compact_after,omitempty"`
	CompactRatio float64 `json:"compact_ratio,omitempty"`
}

func exportStateExport(e *Engine, input []byte) (*Document, error) {
	var in ExportStateInput
	if err := decodeStrict(input, &in); err != nil {
		return nil, err
	}
	switch in.Format {
	case "", "json":
		if in.Base != "" || in.CompactAfter != 0 || in.CompactRatio != 0 {
			return nil, errors.New("input.base: only for the binary format (give \"format\": \"binary\")")
		}
		return e.doc, nil
	case "binary":
	default:
		return nil, fmt.Errorf("input.format: want \"json\" or \"binary\", got %q", in.Format)
	}
	after, ratio := in.CompactAfter, in.CompactRatio
	switch {
	case after == 0:
		after = DefaultCompactAfter
	case after < 1 || after > MaxSegments:
		return nil, fmt.Errorf("input.compact_after: must be between 1 and %d (the most segments an import applies), got %d", MaxSegments, after)
	}
	switch {
	case ratio == 0:
		ratio = DefaultCompactRatio
	case !(ratio > 0 && ratio <= 100):
		return nil, fmt.Errorf("input.compact_ratio: must be above 0 and at most 100, got %g", ratio)
	}
	var out []byte
	var err error
	if in.Base == "" {
		out, err = e.exportBinary()
	} else {
		var base uint64
		if base, err = parseSum("input.base", in.Base); err != nil {
			return nil, err
		}
		out, err = e.exportDelta(base, after, ratio)
	}
	if err != nil {
		return nil, err
	}
	return &Document{binary: out}, nil
}

// ImportStateOutput is what import_state restored. For a binary state it
// also gives the form, the state's checksum (export_state's base for the
// next delta) and how many segments it applied after the base.
type ImportStateOutput struct {
	OK       bool           `json:"ok"`
	Summary  memory.Summary `json:"summary"`
	Version  int            `json:"version"`
	Format   string         `json:"format,omitempty"`
	Checksum string         `json:"checksum,omitempty"`
	Segments int            `json:"segments,omitempty"`
}

func importStateExport(e *Engine, input []byte) (ImportStateOutput, error) {
	if IsBinaryState(input) {
		d, lin, err := decodeBinary(input)
		if err != nil {
			return ImportStateOutput{}, err
		}
		e.doc, e.lin, e.memDirty = d, lin, false
		return ImportStateOutput{OK: true, Summary: d.Memory.Summary(), Version: d.Version, Format: "binary",
			Checksum: formatSum(lin.sum), Segments: int(lin.seq)}, nil
	}
	d, err := decodeDocument(input)
	if err != nil {
		return ImportStateOutput{}, err
	}
	e.doc, e.lin = d, lineage{}
	return ImportStateOutput{OK: true, Summary: d.Memory.Summary(), Version: d.Version}, nil
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
	e.doc, e.lin = d, lineage{}
	return ResetOutput{d.Memory.Config, true}, nil
}
