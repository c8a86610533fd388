package engine

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// The binary state (docs/state-binary.md): a base piece holding the whole
// state, then segments each holding what changed since the piece before.
// A piece is a 32-byte header, a body of sections, and the XXH64 of both.
const (
	binaryMagic   = "RMSB"
	binaryVersion = 1
	headerLen     = 32
	trailerLen    = 8
	kindBase      = 'B'
	kindSegment   = 'S'
	// Body sections: a tag byte, a 4-byte little-endian length, the bytes.
	sectionMemory = 'M' // the memory, as the JSON document's "memory"
	sectionUnits  = 'U' // the units (slate.Store.AppendBinary, AppendSegment)
	checksumTag   = "xxh64:"
	// firstBinaryVersion is the first document version a binary state
	// carried: pieces of versions 3 to SchemaVersion are read, an older
	// piece's memory migrated as an older JSON document is.
	firstBinaryVersion = 3
)

// IsBinaryState reports whether b starts like a binary state rather than a
// JSON document.
func IsBinaryState(b []byte) bool { return len(b) >= 4 && string(b[:4]) == binaryMagic }

// piece is one parsed piece of a binary state.
type piece struct {
	kind    byte
	version uint32 // the document version whose content it carries
	seq     uint32
	base    uint64
	body    []byte
	sum     uint64
	size    int // header, body and checksum
}

// formatSum writes a binary state's checksum as export_state's base takes it.
func formatSum(sum uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], sum)
	return checksumTag + hex.EncodeToString(b[:])
}

// parseSum reads a checksum written by formatSum, naming field on error.
func parseSum(field, s string) (uint64, error) {
	h, ok := strings.CutPrefix(s, checksumTag)
	if !ok || len(h) != 16 {
		return 0, fmt.Errorf("%s: want %s and 16 hex digits, got %q", field, checksumTag, s)
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return 0, fmt.Errorf("%s: want %s and 16 hex digits, got %q", field, checksumTag, s)
	}
	return binary.BigEndian.Uint64(b), nil
}

// Checksum returns the checksum of a binary state (its last piece's) as
// export_state's base takes it, reading only its last 8 bytes; "" when b is
// not a binary state.
func Checksum(b []byte) string {
	if !IsBinaryState(b) || len(b) < headerLen+trailerLen {
		return ""
	}
	return formatSum(binary.LittleEndian.Uint64(b[len(b)-trailerLen:]))
}

// parsePieces splits a binary state into its pieces, checking every header,
// checksum and link of the chain: a base first, then at most MaxSegments
// segments numbered 1, 2, ... each naming the checksum of the piece before.
// Cost O(len(b)).
func parsePieces(b []byte) ([]piece, error) {
	var out []piece
	for off := 0; off < len(b); {
		name := "state.binary"
		if len(out) > 0 {
			name = fmt.Sprintf("state.binary.segments[%d]", len(out)-1)
		}
		if len(out) > MaxSegments {
			return nil, fmt.Errorf("%s: more than %d segments after the base, the most one import applies (export_state writes the whole state before that: compact_after is at most %d)", name, MaxSegments, MaxSegments)
		}
		rest := b[off:]
		if len(rest) < headerLen+trailerLen {
			return nil, fmt.Errorf("%s: truncated: %d bytes at byte %d, less than a piece's header and checksum", name, len(rest), off)
		}
		if string(rest[:4]) != binaryMagic {
			return nil, fmt.Errorf("%s: no piece at byte %d (want %q, the binary state's magic)", name, off, binaryMagic)
		}
		if rest[4] != binaryVersion {
			return nil, fmt.Errorf("%s: binary format version %d, this module reads %d", name, rest[4], binaryVersion)
		}
		p := piece{kind: rest[5]}
		if p.kind != kindBase && p.kind != kindSegment {
			return nil, fmt.Errorf("%s: unknown kind %q (want B or S)", name, p.kind)
		}
		if binary.LittleEndian.Uint16(rest[6:]) != 0 || binary.LittleEndian.Uint32(rest[28:]) != 0 {
			return nil, fmt.Errorf("%s: reserved header bytes are not zero", name)
		}
		n := uint64(binary.LittleEndian.Uint32(rest[8:]))
		if n > uint64(len(rest)-headerLen-trailerLen) {
			return nil, fmt.Errorf("%s: truncated: the header says %d bytes of body, %d are left", name, n, len(rest)-headerLen-trailerLen)
		}
		p.version = binary.LittleEndian.Uint32(rest[24:])
		if p.version < firstBinaryVersion || p.version > SchemaVersion {
			return nil, fmt.Errorf("%s: carries a version %d document, this module reads versions %d to %d", name, p.version, firstBinaryVersion, SchemaVersion)
		}
		p.size = headerLen + int(n) + trailerLen
		p.sum = binary.LittleEndian.Uint64(rest[headerLen+n:])
		if xxhash.Sum64(rest[:headerLen+n]) != p.sum {
			return nil, fmt.Errorf("%s: checksum does not match the content (truncated, damaged or changed after export)", name)
		}
		p.seq = binary.LittleEndian.Uint32(rest[12:])
		p.base = binary.LittleEndian.Uint64(rest[16:])
		p.body = rest[headerLen : headerLen+n]
		switch {
		case len(out) == 0 && p.kind != kindBase:
			return nil, fmt.Errorf("%s: starts with a segment: a binary state starts with its base", name)
		case len(out) == 0 && (p.seq != 0 || p.base != 0):
			return nil, fmt.Errorf("%s: a base has sequence 0 and no base", name)
		case len(out) > 0 && p.kind != kindSegment:
			return nil, fmt.Errorf("%s: a second base at byte %d (a state has one base, then segments)", name, off)
		case len(out) > 0 && p.seq != out[len(out)-1].seq+1:
			return nil, fmt.Errorf("%s: segment number %d where %d comes next (segments out of order)", name, p.seq, out[len(out)-1].seq+1)
		case len(out) > 0 && p.base != out[len(out)-1].sum:
			return nil, fmt.Errorf("%s: applies to state %s, but the state before it is %s (a delta of another state)", name, formatSum(p.base), formatSum(out[len(out)-1].sum))
		}
		out = append(out, p)
		off += p.size
	}
	if len(out) == 0 {
		return nil, errors.New("state.binary: empty")
	}
	return out, nil
}

// sections splits a piece's body into its sections by tag, in order, each
// at most once.
func sections(name string, body []byte) (map[byte][]byte, error) {
	out := map[byte][]byte{}
	for off := 0; off < len(body); {
		if len(body)-off < 5 {
			return nil, fmt.Errorf("%s: truncated section at byte %d", name, off)
		}
		tag := body[off]
		n := int(binary.LittleEndian.Uint32(body[off+1:]))
		off += 5
		if n > len(body)-off {
			return nil, fmt.Errorf("%s: section %q says %d bytes, %d are left", name, tag, n, len(body)-off)
		}
		if tag != sectionMemory && tag != sectionUnits {
			return nil, fmt.Errorf("%s: unknown section %q", name, tag)
		}
		if _, dup := out[tag]; dup {
			return nil, fmt.Errorf("%s: section %q twice", name, tag)
		}
		out[tag] = body[off : off+n]
		off += n
	}
	return out, nil
}

// appendSection appends a section whose content fill appends.
func appendSection(b []byte, tag byte, fill func([]byte) []byte) []byte {
	b = append(b, tag, 0, 0, 0, 0)
	start := len(b)
	b = fill(b)
	binary.LittleEndian.PutUint32(b[start-4:], uint32(len(b)-start))
	return b
}

// lineage is what the engine knows of the binary state its caller holds:
// the checksum and sequence of its last piece, the sizes of its base and
// segments (for compaction), and the memory section it holds. valid is
// false when the caller holds no binary state of this memory (a JSON
// import, a reset): a delta is then impossible.
type lineage struct {
	valid     bool
	sum       uint64
	seq       uint32
	baseBytes int
	segBytes  int
	memory    []byte
	units     bool // the state holds a units section
}

// binaryLimits bound the units a binary state may hold: MaxUnits units,
// and no more text than a JSON document this module imports could hold.
var binaryLimits = slate.Limits{Units: MaxUnits, TextBytes: MaxInputBytes}

// Compaction defaults (export_state's compact_after and compact_ratio).
const (
	DefaultCompactAfter = 16
	DefaultCompactRatio = 0.5
)

// MaxSegments is the most segments a binary state may carry after its
// base: import refuses more before reading any, and export_state's
// compact_after is at most this, so the module never writes a state it
// would refuse. Each segment costs its import a pass over the units (their
// ids and sessions), so the segments bound the work as well as the bytes.
const MaxSegments = 16

// The memory budget of one import of a binary state: what its sections
// declare (slate.Measure.Bytes, and the memory sections' JSON) may take at
// most ImportMemoryBase plus ImportMemoryPerByte bytes for every byte of the
// state, and never more than ImportMemoryMax. The estimate follows what an
// import grows an instance's memory by (measured through the Go host: 51 MB
// for the 30,000 LoCoMo turns it puts at 58 MB, 70 MB for 100,000 one-word
// units it puts at 70 MB), and every state the module writes needs at most
// about 65 bytes a byte: units of one word with one-letter ids are the
// densest (TestImportBudget). What passes the budget is a state whose bytes
// declare more than the module ever writes for them, or so much that one
// instance could not hold it: refused before anything it declares is
// allocated, with the state as it was.
const (
	ImportMemoryBase    = 4 << 20
	ImportMemoryPerByte = 80
	ImportMemoryMax     = 192 << 20
	// memoryJSONFactor is the memory decoding a memory section's JSON
	// takes per byte (its values, and encoding/json's reflection).
	memoryJSONFactor = 8
)

// importBudget checks what importing the pieces ps of a binary state of n
// bytes would take, from the sizes its sections declare, against the
// import's memory budget, before anything is decoded. Cost O(n).
func importBudget(ps []piece, n int) error {
	m := slate.NewMeasure()
	largestMemory := 0
	for i, p := range ps {
		name := "state.binary"
		if i > 0 {
			name = fmt.Sprintf("state.binary.segments[%d]", i-1)
		}
		secs, err := sections(name, p.body)
		if err != nil {
			return err
		}
		largestMemory = max(largestMemory, len(secs[sectionMemory]))
		if units, ok := secs[sectionUnits]; ok {
			if err := m.Add(units, i == 0, binaryLimits); err != nil {
				return fmt.Errorf("%s.units.%w", name, err)
			}
		}
	}
	need := m.Bytes() + int64(largestMemory)*memoryJSONFactor
	budget := min(ImportMemoryBase+ImportMemoryPerByte*int64(n), ImportMemoryMax)
	if need > budget {
		return fmt.Errorf("state.binary: importing it would take about %s of memory (%d tokens, %d words, %d units, %d token ids), more than the %s one import may take for a state of %d bytes (%s plus %d bytes a byte, at most %s); nothing was imported",
			bytesWords(need), m.Tokens, m.Words, m.Added, m.IDs, bytesWords(budget), n, bytesWords(ImportMemoryBase), ImportMemoryPerByte, bytesWords(ImportMemoryMax))
	}
	return nil
}

// bytesWords writes a size in decimal units: "812 bytes", "3.4 MB".
func bytesWords(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000_000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// decodeBinary reads a binary state: its base, then its segments applied in
// order, into a new document (nothing is applied to e), and the lineage
// the state gives. What the state declares is measured against the
// import's memory budget first (importBudget).
func decodeBinary(input []byte) (*Document, lineage, error) {
	ps, err := parsePieces(input)
	if err != nil {
		return nil, lineage{}, err
	}
	if err := importBudget(ps, len(input)); err != nil {
		return nil, lineage{}, err
	}
	d := &Document{Schema: SchemaName, Version: SchemaVersion}
	lin := lineage{valid: true, baseBytes: ps[0].size}
	for i, p := range ps {
		name := "state.binary"
		if i > 0 {
			name = fmt.Sprintf("state.binary.segments[%d]", i-1)
			lin.segBytes += p.size
		}
		secs, err := sections(name, p.body)
		if err != nil {
			return nil, lineage{}, err
		}
		if mem, ok := secs[sectionMemory]; ok {
			var m memory.State
			if err := decodeStrict(mem, &m); err != nil {
				return nil, lineage{}, fmt.Errorf("%s.memory: %w", name, err)
			}
			if f := newInVersion(int(p.version), &m); f != "" {
				return nil, lineage{}, fmt.Errorf("%s.%s: not part of version %d documents", name, strings.TrimPrefix(f, "state."), p.version)
			}
			if err := m.Validate(); err != nil {
				return nil, lineage{}, fmt.Errorf("%s.memory.%w", name, err)
			}
			d.Memory, lin.memory = &m, mem
		} else if i == 0 {
			return nil, lineage{}, fmt.Errorf("%s: the base has no memory section", name)
		}
		if units, ok := secs[sectionUnits]; ok {
			lin.units = true
			if i == 0 {
				if d.Units, err = slate.ReadBinary(units, binaryLimits); err != nil {
					return nil, lineage{}, fmt.Errorf("%s.units.%w", name, err)
				}
				continue
			}
			if d.Units == nil {
				d.Units = slate.NewStore()
			}
			if err := d.Units.ApplySegment(units, binaryLimits); err != nil {
				return nil, lineage{}, fmt.Errorf("%s.units.%w", name, err)
			}
		}
	}
	last := ps[len(ps)-1]
	lin.sum, lin.seq = last.sum, last.seq
	return d, lin, nil
}

// appendPiece appends a piece of kind with body to b, returning it and the
// piece's checksum.
func appendPiece(b []byte, kind byte, seq uint32, base uint64, body []byte) ([]byte, uint64) {
	start := len(b)
	var h [headerLen]byte
	copy(h[:], binaryMagic)
	h[4], h[5] = binaryVersion, kind
	binary.LittleEndian.PutUint32(h[8:], uint32(len(body)))
	binary.LittleEndian.PutUint32(h[12:], seq)
	binary.LittleEndian.PutUint64(h[16:], base)
	binary.LittleEndian.PutUint32(h[24:], SchemaVersion)
	b = append(b, h[:]...)
	b = append(b, body...)
	sum := xxhash.Sum64(b[start:])
	return binary.LittleEndian.AppendUint64(b, sum), sum
}

// exportBinary writes the whole state as a base and makes it the lineage.
// Cost O(units' tokens + memory).
func (e *Engine) exportBinary() ([]byte, error) {
	mem, err := json.Marshal(e.doc.Memory)
	if err != nil {
		return nil, err
	}
	body := appendSection(nil, sectionMemory, func(b []byte) []byte { return append(b, mem...) })
	if e.doc.Units != nil {
		body = appendSection(body, sectionUnits, e.doc.Units.AppendBinary)
	}
	out, sum := appendPiece(make([]byte, 0, len(body)+headerLen+trailerLen), kindBase, 0, 0, body)
	e.lin = lineage{valid: true, sum: sum, baseBytes: len(out), memory: mem, units: e.doc.Units != nil}
	e.memDirty = false
	return out, nil
}

// exportDelta writes what changed since the state base as a segment, or the
// whole state when a segment cannot say it (the engine's memory does not
// descend from base) or compaction is due. Nothing changed gives no bytes.
func (e *Engine) exportDelta(base uint64, after int, ratio float64) ([]byte, error) {
	if !e.lin.valid || e.lin.sum != base || e.lin.seq+1 > uint32(after) {
		return e.exportBinary()
	}
	var body []byte
	var mem []byte
	if e.memDirty {
		var err error
		if mem, err = json.Marshal(e.doc.Memory); err != nil {
			return nil, err
		}
		if string(mem) != string(e.lin.memory) {
			body = appendSection(body, sectionMemory, func(b []byte) []byte { return append(b, mem...) })
		} else {
			mem = nil
		}
	}
	if u := e.doc.Units; u != nil && (u.Changed() || !e.lin.units) {
		body = appendSection(body, sectionUnits, u.AppendSegment)
	}
	if len(body) == 0 {
		e.memDirty = false
		return []byte{}, nil
	}
	size := headerLen + len(body) + trailerLen
	if float64(e.lin.segBytes+size) > ratio*float64(e.lin.baseBytes) {
		return e.exportBinary()
	}
	out, sum := appendPiece(make([]byte, 0, size), kindSegment, e.lin.seq+1, base, body)
	e.lin.sum, e.lin.seq = sum, e.lin.seq+1
	e.lin.segBytes += len(out)
	e.lin.units = e.doc.Units != nil
	if mem != nil {
		e.lin.memory = mem
	}
	e.memDirty = false
	return out, nil
}
