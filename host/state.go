package host

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/seal"
)

// A binary state (docs/state-binary.md) is a base piece and the segments
// that followed it, concatenated; each piece starts with a 32-byte header
// whose bytes 8-11 give the body's length, and ends with an 8-byte
// checksum. Sealed by a host, it is the concatenation of sealed pieces.
const (
	pieceHeader  = 32
	pieceTrailer = 8
)

// IsBinaryState reports whether state (bare or sealed) is a binary state.
func IsBinaryState(state []byte) bool {
	if _, rest, ok := cutSealLine(state); ok {
		state = rest
	}
	return engine.IsBinaryState(state)
}

// cutSealLine splits a sealed document or piece at its seal line.
func cutSealLine(b []byte) (line string, rest []byte, ok bool) {
	if !bytes.HasPrefix(b, []byte(seal.Prefix)) {
		return "", b, false
	}
	l, rest, ok := bytes.Cut(b, []byte{'\n'})
	return string(l), rest, ok
}

// pieceLen is the length of the binary piece at the start of b, or an
// error when b does not start with a whole one.
func pieceLen(b []byte) (int, error) {
	if len(b) < pieceHeader+pieceTrailer || !engine.IsBinaryState(b) {
		return 0, errors.New("state: not a binary state piece")
	}
	n := pieceHeader + int(binary.LittleEndian.Uint32(b[8:])) + pieceTrailer
	if n > len(b) {
		return 0, fmt.Errorf("state: truncated piece: %d bytes of %d", len(b), n)
	}
	return n, nil
}

// openPieces checks the seal of every piece of a sealed binary state and
// returns the bare state (the pieces without their seal lines).
func openPieces(key, sealed []byte) ([]byte, error) {
	var out []byte
	for len(sealed) > 0 {
		line, rest, ok := cutSealLine(sealed)
		if !ok {
			return nil, seal.ErrUnsealed
		}
		n, err := pieceLen(rest)
		if err != nil {
			return nil, err
		}
		if err := seal.Verify(key, rest[:n], line); err != nil {
			return nil, err
		}
		out = append(out, rest[:n]...)
		sealed = rest[n:]
	}
	return out, nil
}

// sealPieces seals every piece of a bare binary state.
func sealPieces(key, bare []byte) ([]byte, error) {
	var out []byte
	for len(bare) > 0 {
		n, err := pieceLen(bare)
		if err != nil {
			return nil, err
		}
		out = append(out, seal.Seal(key, bare[:n])...)
		bare = bare[n:]
	}
	return out, nil
}

// AppendState returns the state a caller holds after an export's piece
// (Session.ExportDelta, or the stateless API's delta): state itself when
// piece is empty (nothing changed), piece alone when it is a whole state (a
// base: compaction, or a state the instance could not write a delta of),
// else state with the segment appended. Sealed states and pieces work the
// same way. It never copies into state's array.
func AppendState(state, piece []byte) []byte {
	if len(piece) == 0 {
		return state
	}
	_, bare, _ := cutSealLine(piece)
	if len(bare) > 5 && engine.IsBinaryState(bare) && bare[5] == 'B' {
		return piece
	}
	out := make([]byte, 0, len(state)+len(piece))
	return append(append(out, state...), piece...)
}
