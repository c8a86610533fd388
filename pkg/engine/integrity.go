package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/memory"
)

// checksumPrefix names the checksum's algorithm in the document.
const checksumPrefix = "sha256:"

// canonical is the document's canonical form: its encoding by this module
// with the checksum left out. Two documents with the same content have the
// same canonical bytes whatever whitespace or key order they arrived with.
func (d *Document) canonical() ([]byte, error) {
	c := *d
	c.Checksum = ""
	return json.Marshal(&c)
}

// sum returns the checksum of d's canonical form.
func (d *Document) sum() (string, error) {
	b, err := d.canonical()
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return checksumPrefix + hex.EncodeToString(h[:]), nil
}

// seal sets d's checksum. Cost: one encoding and one SHA-256 of the document.
func (d *Document) seal() error {
	_, err := d.sealed()
	return err
}

// sealed sets d's checksum and returns d encoded, exactly as json.Marshal
// encodes it, from the single encoding the checksum needs: the canonical
// form with the checksum member put back after "version", where the
// Document's field order places it.
func (d *Document) sealed() (rawJSON, error) {
	b, err := d.canonical()
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(b)
	d.Checksum = checksumPrefix + hex.EncodeToString(h[:])
	head := jsonenc.AppendString([]byte(`{"schema":`), d.Schema)
	head = append(head, `,"version":`...)
	head = jsonenc.AppendInt(head, d.Version)
	if !bytes.HasPrefix(b, head) || len(b) == len(head) {
		return json.Marshal(d) // not reached for documents this package builds
	}
	out := make([]byte, 0, len(b)+len(d.Checksum)+16)
	out = append(out, head...)
	out = append(out, `,"checksum":`...)
	out = jsonenc.AppendString(out, d.Checksum)
	return append(out, b[len(head):]...), nil
}

// verify checks d's checksum against its content.
func (d *Document) verify() error {
	if d.Checksum == "" {
		return errors.New("state.checksum: missing (a version 2 document is always sealed)")
	}
	if !strings.HasPrefix(d.Checksum, checksumPrefix) {
		return fmt.Errorf("state.checksum: unknown algorithm in %q (want %s...)", d.Checksum, checksumPrefix)
	}
	want, err := d.sum()
	if err != nil {
		return err
	}
	if d.Checksum != want {
		return errors.New("state.checksum: does not match the content (the document was changed or damaged after export)")
	}
	return nil
}

// header is what import reads first, to pick the decoder for the version.
type header struct {
	Schema   string `json:"schema"`
	Version  int    `json:"version"`
	Checksum string `json:"checksum"`
}

// decodeDocument reads a state document of any supported version, migrates
// it to the current one, checks its integrity and validates it. Nothing is
// applied by this function; the caller swaps the result in.
//
// Version 1 (no checksum) migrates by sealing it; versions 2 and 3 by
// verifying their checksum, then sealing them as the current version: the
// content is unchanged (none can hold what later versions added: client_ids
// in 3; in 4, a client id's signal fingerprint, tombstones and stated
// chunks; a version 3 client id keeps no fingerprint, and a repeat of one is
// acknowledged as then). A document newer than SchemaVersion is refused.
func decodeDocument(input []byte) (*Document, error) {
	var h header
	if err := json.Unmarshal(input, &h); err != nil {
		// Let the strict decoder name the problem (truncated, malformed...).
		var d Document
		if err := decodeStrict(input, &d); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("input: %w", err)
	}
	switch {
	case h.Schema != SchemaName:
		return nil, fmt.Errorf("state.schema: want %q, got %q", SchemaName, h.Schema)
	case h.Version > SchemaVersion:
		return nil, fmt.Errorf("state.version: document version %d is newer than this module supports (%d)", h.Version, SchemaVersion)
	case h.Version < 1:
		return nil, fmt.Errorf("state.version: must be at least 1, got %d", h.Version)
	case h.Version == 1 && h.Checksum != "":
		return nil, errors.New("state.checksum: version 1 documents have no checksum")
	}
	var d Document
	if err := decodeStrict(input, &d); err != nil {
		return nil, err
	}
	if d.Version < SchemaVersion {
		if d.Version > 1 {
			if err := d.verify(); err != nil {
				return nil, err
			}
		}
		if f := newInVersion(d.Version, d.Memory); f != "" {
			return nil, fmt.Errorf("%s: not part of version %d documents", f, d.Version)
		}
		if d.Memory != nil && d.Version < 4 && slices.ContainsFunc(d.Memory.ClientIDs, func(c memory.ClientID) bool { return c.Signal != "" }) {
			return nil, fmt.Errorf("state.memory.client_ids: version %d documents keep no signal with a client id", d.Version)
		}
		d.Version = SchemaVersion
		if err := d.Validate(); err != nil {
			return nil, err
		}
		if err := d.seal(); err != nil {
			return nil, err
		}
		return &d, nil
	}
	if err := d.verify(); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}
