package seal

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestSumRFC4231 checks Sum against RFC 4231's HMAC-SHA-256 test cases 1
// and 2.
func TestSumRFC4231(t *testing.T) {
	tests := []struct{ key, data, want string }{
		{strings.Repeat("\x0b", 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{"Jefe", "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
	}
	for _, tt := range tests {
		if got := Sum([]byte(tt.key), []byte(tt.data)); got != Prefix+tt.want {
			t.Errorf("Sum(%q, %q) = %s, want %s%s", tt.key, tt.data, got, Prefix, tt.want)
		}
	}
}

func TestSealOpen(t *testing.T) {
	key := bytes.Repeat([]byte("k"), 32)
	other := bytes.Repeat([]byte("o"), 32)
	doc := []byte(`{"schema":"recmem.state","version":3}`)
	sealed := Seal(key, doc)
	if got, err := Open(key, sealed); err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("Open(Seal(doc)) = %q, %v", got, err)
	}
	flipped := bytes.Replace(sealed, []byte(`3}`), []byte(`4}`), 1)
	tests := []struct {
		name string
		key  []byte
		in   []byte
		want error
	}{
		{"unsealed", key, doc, ErrUnsealed},
		{"altered", key, flipped, ErrMismatch},
		{"re-sealed by another key", key, Seal(other, doc), ErrMismatch},
		{"another key opening", other, sealed, ErrMismatch},
		{"truncated seal", key, append([]byte(Prefix+"00\n"), doc...), ErrUnsealed},
		{"a checksum line", key, append([]byte("sha256:00\n"), doc...), ErrUnsealed},
	}
	for _, tt := range tests {
		if _, err := Open(tt.key, tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	if err := CheckKey(key[:31]); err == nil || err.Error() != "seal: the key is 31 bytes, fewer than 32" {
		t.Errorf("CheckKey(31 bytes) = %v", err)
	}
}
