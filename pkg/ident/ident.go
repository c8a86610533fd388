// Package ident checks identifiers: the user, item, unit and session ids that
// recmem compares byte for byte. Two different ids must never become the same
// one, so an id is refused (never repaired) when it holds something a JSON
// decoder rewrites or a reader cannot see:
//
//   - invalid UTF-8, which a JSON decoder replaces with U+FFFD;
//   - U+FFFD itself, because an id that holds it may be one whose invalid
//     bytes or lone surrogate ("\ud800") were already replaced on the way in:
//     "u\xff" and "u\xfe" both arrive as "u\ufffd";
//   - control characters (U+0000 to U+001F, U+007F to U+009F), NUL included.
//
// Free text (titles, unit text, queries) is not checked here: it is kept as
// decoded (docs/limits.md).
package ident

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrEmpty is the error of an empty id.
var ErrEmpty = errors.New("required")

// Check returns nil when s is a usable id of at most max bytes, else an error
// saying what is wrong and where ("contains U+0000 (a control character) at
// byte 2"). Cost O(len(s)).
func Check(s string, max int) error {
	switch {
	case s == "":
		return ErrEmpty
	case len(s) > max:
		return fmt.Errorf("longer than %d bytes", max)
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Errorf("invalid UTF-8 at byte %d (ids are compared byte for byte and never repaired)", i)
		case r == utf8.RuneError:
			return fmt.Errorf("contains U+FFFD at byte %d: the replacement character stands for invalid UTF-8 or a lone surrogate, which could make two ids one", i)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			return fmt.Errorf("contains U+%04X (a control character) at byte %d", r, i)
		}
		i += n
	}
	return nil
}
