// Package seal authenticates a state document with a key that only the host
// holds: HMAC-SHA-256 over the document's exact bytes.
//
// The document's own checksum (docs/state-format.md) guards integrity, not
// authenticity: anyone can change a document and compute the checksum again.
// A seal cannot be recomputed without the key, so a host that seals what it
// hands out and opens only sealed documents knows each one is a document it
// wrote, unchanged. The seal knows nothing of the document's format (bytes
// in, MAC out); a sealed document is the line "hmac-sha256:<64 hex digits>"
// and a newline, followed by the document's bytes.
package seal

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// Prefix names the algorithm in a seal.
const Prefix = "hmac-sha256:"

// MinKeyLen is the shortest key accepted: 32 bytes, the output size of
// SHA-256 (RFC 2104 advises keys no shorter than the hash output).
const MinKeyLen = 32

// Errors of Verify and Open.
var (
	// ErrUnsealed: the document carries no seal (or another algorithm's).
	ErrUnsealed = errors.New("seal: missing (this host only accepts documents it sealed)")
	// ErrMismatch: the seal is not this key's seal of these bytes, so the
	// document was changed after it was sealed, or sealed with another key.
	ErrMismatch = errors.New("seal: does not match the document (changed after it was sealed, or sealed with another key)")
)

// CheckKey refuses a key shorter than MinKeyLen.
func CheckKey(key []byte) error {
	if len(key) < MinKeyLen {
		return fmt.Errorf("seal: the key is %d bytes, fewer than %d", len(key), MinKeyLen)
	}
	return nil
}

// Sum is the seal of doc under key: Prefix and the hex HMAC-SHA-256.
// Cost: one pass over doc.
func Sum(key, doc []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(doc)
	return Prefix + hex.EncodeToString(m.Sum(nil))
}

// Verify checks that mac is key's seal of doc, in constant time.
func Verify(key, doc []byte, mac string) error {
	if len(mac) != len(Prefix)+2*sha256.Size || mac[:len(Prefix)] != Prefix {
		return ErrUnsealed
	}
	if !hmac.Equal([]byte(mac), []byte(Sum(key, doc))) {
		return ErrMismatch
	}
	return nil
}

// Seal returns doc sealed under key: its seal line, then doc.
func Seal(key, doc []byte) []byte {
	out := make([]byte, 0, len(Prefix)+2*sha256.Size+1+len(doc))
	out = append(out, Sum(key, doc)...)
	out = append(out, '\n')
	return append(out, doc...)
}

// Open checks a sealed document and returns the document's bytes (a slice
// of sealed). Unsealed input gives ErrUnsealed, an altered or foreign one
// ErrMismatch.
func Open(key, sealed []byte) ([]byte, error) {
	line, doc, ok := bytes.Cut(sealed, []byte{'\n'})
	if !ok || !bytes.HasPrefix(line, []byte(Prefix)) {
		return nil, ErrUnsealed
	}
	if err := Verify(key, doc, string(line)); err != nil {
		return nil, err
	}
	return doc, nil
}
