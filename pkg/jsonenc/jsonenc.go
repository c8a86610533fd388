// Package jsonenc appends JSON scalars to a byte slice exactly as
// encoding/json's Marshal writes them: strings with its escaping (HTML
// characters, control characters, U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD) and float64 values in its ES6-like format. Hot exports
// encode their outputs with it instead of reflection, which costs 10-20x
// more inside WebAssembly, and their bytes stay identical on every host.
package jsonenc

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
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
	plain := &plainASCII
	if escapeHTML {
		plain = &plainASCIIHTML
	}
	// Bytes that need a look show in a word as: a high bit, a byte below
	// 0x20, or a byte equal to one of quote, backslash (and <, >, & with
	// HTML escaping). Each test is a classic bit trick that never misses a
	// byte (it may flag a plain word, which then goes byte by byte); they
	// are written out here because a call per word costs more than the
	// tests in Go's WebAssembly.
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	const qt, bs, lt, gt, am = lo * '"', lo * '\\', lo * '<', lo * '>', lo * '&'
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look (most text).
		if i+8 <= len(s) {
			x := load8(s, i)
			q, b := x^qt, x^bs
			bad := x&hi | (x-lo*0x20)&^x&hi | (q-lo)&^q&hi | (b-lo)&^b&hi
			if escapeHTML {
				l, g, a := x^lt, x^gt, x^am
				bad |= (l-lo)&^l&hi | (g-lo)&^g&hi | (a-lo)&^a&hi
			}
			if bad == 0 {
				i += 8
				continue
			}
		}
		c := s[i]
		if plain[c] {
			i++
			continue
		}
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

// plainASCII marks the bytes written as they are: ASCII but the quote, the
// backslash and control characters; plainASCIIHTML leaves <, > and & out
// too.
var plainASCII, plainASCIIHTML = func() (a, h [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		a[c] = c != '"' && c != '\\'
		h[c] = a[c] && c != '<' && c != '>' && c != '&'
	}
	return a, h
}()

// load8 is the eight bytes of s at i as one word (in the machine's order,
// which the tests on it do not depend on). i+8 must be at most len(s).
func load8(s string, i int) uint64 {
	return *(*uint64)(unsafe.Pointer(unsafe.StringData(s[i : i+8])))
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
	return AppendFields(dst, nil, []float64{f})
}

// appendFloat is AppendFloat past AppendFields' common numbers.
func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, ErrNonFinite
	}
	// k/1e6 == f exactly, |k| < 1e15: the shortest decimal of f is k's
	// digits with six decimals, trailing zeros dropped, since no shorter
	// decimal lies that close. (k is f·1e6 rounded half away from zero,
	// without math.Round's branches; a k that is not f's is caught by the
	// test.)
	if m := f * 1e6; m > -1e15 && m < 1e15 {
		k := int64(m + math.Copysign(0.5, m))
		if float64(k)/1e6 == f && (k != 0 || !math.Signbit(f)) {
			return appendMicros(dst, k), nil
		}
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

// AppendFields appends the members of a JSON object whose values are
// numbers, without the braces: for each i, keys[i] (a key already encoded,
// colon included; none when keys is nil), then vals[i] as AppendFloat
// writes it, a comma between members. The common numbers, multiples of
// 1e-6 below 10 in magnitude (rounded scores and features), are written in
// place without a call or a branch on their digits: the fraction's six
// digits two at a time from a table, then the length cut by its trailing
// zeros, counted arithmetically. Calls and branches are what cost in Go's
// WebAssembly. (k/1e6 == f with |k| < 1e15 means the shortest decimal of f
// is k's digits with six decimals, trailing zeros dropped: no shorter
// decimal lies that close.) O(len(vals) + bytes of the keys).
func AppendFields(dst []byte, keys [][]byte, vals []float64) ([]byte, error) {
	for i, f := range vals {
		var key []byte
		if keys != nil {
			key = keys[i]
		}
		n := len(dst)
		if cap(dst)-n < len(key)+10 {
			dst = slices.Grow(dst, len(key)+10)
		}
		b := dst[:n+len(key)+10]
		b[n] = ','
		n += b2i(i > 0)
		n += copyShort(b[n:], key)
		m := f * 1e6
		k := int64(m + math.Copysign(0.5, m))
		if !(m > -1e7 && m < 1e7) || float64(k)/1e6 != f || k == 0 && math.Signbit(f) {
			var err error
			if dst, err = appendFloat(b[:n], f); err != nil {
				return dst, err
			}
			continue
		}
		neg := k < 0
		u := uint64(k)
		if neg {
			u = -u
		}
		whole, frac := int(u/1e6), int(u%1e6)
		b[n] = '-'
		n += b2i(neg)
		b[n] = byte('0' + whole)
		p, q, r := frac/10000, frac/100%100, frac%100
		b[n+1] = '.'
		b[n+2], b[n+3] = pairs[2*p], pairs[2*p+1]
		b[n+4], b[n+5] = pairs[2*q], pairs[2*q+1]
		b[n+6], b[n+7] = pairs[2*r], pairs[2*r+1]
		// The whole digit, then the point and six digits less the
		// trailing zeros when there is a fraction.
		tz := b2i(frac%10 == 0) + b2i(frac%100 == 0) + b2i(frac%1000 == 0) + b2i(frac%10000 == 0) + b2i(frac%100000 == 0)
		dst = b[:n+1+(7-tz)&-b2i(frac != 0)]
	}
	return dst, nil
}

// copyShort copies src into dst (which has room) and returns its length:
// eight bytes at a time while they last, then byte by byte, instead of a
// call to memmove for the short keys of AppendFields.
func copyShort(dst, src []byte) int {
	i := 0
	for ; i+8 <= len(src); i += 8 {
		_ = dst[i+7]
		*(*uint64)(unsafe.Pointer(&dst[i])) = *(*uint64)(unsafe.Pointer(&src[i]))
	}
	for ; i < len(src); i++ {
		dst[i] = src[i]
	}
	return len(src)
}

// appendMicros appends k·10⁻⁶ in decimal: "-0.030488", "2", "0.5".
func appendMicros(b []byte, k int64) []byte {
	neg := k < 0
	u := uint64(k)
	if neg {
		u = -u
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, u/1e6, 10)
	return appendFrac(b, int(u%1e6))
}

// appendFrac appends ".dddddd" for frac (0 < frac < 1e6), trailing zeros
// dropped, or nothing for 0.
func appendFrac(b []byte, frac int) []byte {
	if frac == 0 {
		return b
	}
	d := []byte{'.', pairs[2*(frac/10000)], pairs[2*(frac/10000)+1], pairs[2*(frac/100%100)], pairs[2*(frac/100%100)+1], pairs[2*(frac%100)], pairs[2*(frac%100)+1]}
	n := 7
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// pairs holds "00" to "99" in order.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

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

// ReadsAlike reports whether fastjson and encoding/json read the JSON text b
// alike, as far as the bytes decide: no control character sits inside a
// string (JSON forbids it; fastjson lets it through), and no \u escape
// names a UTF-16 surrogate (an unpaired one becomes U+FFFD in encoding/json;
// any other \u escape, such as the \u0026 json.Marshal writes for &, reads
// the same). Decoders that take fastjson's fast path when it holds, and
// encoding/json's otherwise, give encoding/json's results. It may say no to
// a text that reads alike (a literal backslash before "ud800"), which only
// sends it the slow way. O(len(b)).
func ReadsAlike(b []byte) bool {
	return !surrogateEscape(b) && !controlInString(b)
}

// surrogateEscape reports whether b holds a \u escape whose four hex digits
// are a UTF-16 surrogate (D800 to DFFF), or a \u not followed by four
// characters.
func surrogateEscape(b []byte) bool {
	for {
		i := bytes.Index(b, []byte(`\u`))
		if i < 0 {
			return false
		}
		if i+6 > len(b) {
			return true
		}
		if d := b[i+2] | 0x20; d == 'd' && (b[i+3] >= '8' && b[i+3] <= '9' || b[i+3]|0x20 >= 'a' && b[i+3]|0x20 <= 'f') {
			return true
		}
		b = b[i+2:]
	}
}

// controlInString reports whether a control character (below 0x20) sits
// inside a JSON string of b. The strings are walked only when b has such a
// byte at all.
func controlInString(b []byte) bool {
	i := 0
	for i < len(b) && b[i] >= 0x20 {
		i++
	}
	if i == len(b) {
		return false
	}
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case in && c < 0x20:
			return true
		case in && c == '\\':
			i++ // the escaped byte
		case c == '"':
			in = !in
		}
	}
	return false
}
