// Package jsonenc appends JSON scalars to a byte slice exactly as
// encoding/json's Marshal writes them: strings with its escaping (HTML
// characters, control characters, U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD) and float64 values in its ES6-like format. Hot exports
// encode their outputs with it instead of reflection, which costs 10-20x
// more inside WebAssembly, and their bytes stay identical on every host.
package jsonenc

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, as json.Marshal writes it.
// O(len(s)).
func AppendString(dst []byte, s string) []byte { return AppendStringHTML(dst, s, true) }

// AppendStringHTML is AppendString with the escaping of <, > and & as
// \u003c, \u003e and \u0026 chosen: json.Marshal escapes them, a
// json.Encoder with SetEscapeHTML(false) does not. O(len(s)).
func AppendStringHTML(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	done := 0 // s[:done] is written
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			var esc string
			switch {
			case c == '"':
				esc = `\"`
			case c == '\\':
				esc = `\\`
			case c == '\n':
				esc = `\n`
			case c == '\r':
				esc = `\r`
			case c == '\t':
				esc = `\t`
			case c == '\b':
				esc = `\b`
			case c == '\f':
				esc = `\f`
			case c < 0x20 || (escapeHTML && (c == '<' || c == '>' || c == '&')):
				dst = append(dst, s[done:i]...)
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				i++
				done = i
				continue
			default:
				i++
				continue
			}
			dst = append(dst, s[done:i]...)
			dst = append(dst, esc...)
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[done:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[done:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		done = i
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

// ErrNonFinite is returned for a NaN or an infinity, which JSON cannot
// hold (encoding/json refuses them too).
var ErrNonFinite = errors.New("jsonenc: cannot encode a NaN or an infinity")

// AppendFloat appends f as encoding/json writes a float64: the shortest
// decimal that reads back as f, in plain notation for zero and magnitudes in
// [1e-6, 1e21), else in exponent notation without a leading zero in the
// exponent. A multiple of 1e-6 (as scores rounded to six decimals are) takes
// a fast path with the same output.
func AppendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, ErrNonFinite
	}
	// k/1e6 == f exactly, |k| < 1e15: the shortest decimal of f is k's
	// digits with six decimals, trailing zeros dropped, since no shorter
	// decimal lies that close.
	if k := math.Round(f * 1e6); k/1e6 == f && math.Abs(k) < 1e15 && (k != 0 || !math.Signbit(f)) {
		return appendMicros(dst, int64(k)), nil
	}
	abs := math.Abs(f)
	if abs == 0 || (abs >= 1e-6 && abs < 1e21) {
		return strconv.AppendFloat(dst, f, 'f', -1, 64), nil
	}
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	// "1e-07" → "1e-7": drop a zero that leads a two-digit exponent.
	if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst, nil
}

// appendMicros appends k·10⁻⁶ in decimal: "-0.030488", "2", "0.5".
func appendMicros(b []byte, k int64) []byte {
	if k < 0 {
		b = append(b, '-')
		k = -k
	}
	b = strconv.AppendInt(b, k/1e6, 10)
	frac := k % 1e6
	if frac == 0 {
		return b
	}
	var d [7]byte
	d[0] = '.'
	for i := 6; i >= 1; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 7
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}

// AppendFloatMap appends m as json.Marshal writes a map[string]float64:
// keys in byte order. O(len(m) log len(m)).
func AppendFloatMap(dst []byte, m map[string]float64) ([]byte, error) {
	return AppendFloatMapHTML(dst, m, true)
}

// AppendFloatMapHTML is AppendFloatMap with the HTML escaping of the keys
// chosen (see AppendStringHTML).
func AppendFloatMapHTML(dst []byte, m map[string]float64, escapeHTML bool) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendStringHTML(dst, k, escapeHTML)
		dst = append(dst, ':')
		var err error
		if dst, err = AppendFloat(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// AppendInt appends an integer.
func AppendInt(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }

// AppendBool appends true or false.
func AppendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }
