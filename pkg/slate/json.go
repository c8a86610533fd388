package slate

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// MarshalJSON encodes a Result exactly as encoding/json encodes its fields
// (the same bytes: struct fields in order, omitempty as tagged, map keys
// sorted, floats in encoding/json's format, strings escaped as
// encoding/json does without HTML escaping, which json.Marshal then applies
// to the whole output as it does to its own). It exists because reflection
// and sorting map keys were a large part of a selection's time in
// WebAssembly. Cost O(output size + keys · log keys per map).
func (r Result) MarshalJSON() ([]byte, error) {
	return r.appendJSON(make([]byte, 0, 256+len(r.Units)*2560), false)
}

// AppendJSON appends to b exactly the bytes json.Marshal writes for r (with
// its HTML escaping of <, > and &). A caller writing the result itself saves
// json.Marshal's second pass over MarshalJSON's output (it validates and
// compacts a Marshaler's bytes), about as long as the encoding itself.
func (r Result) AppendJSON(b []byte) ([]byte, error) { return r.appendJSON(b, true) }

func (r Result) appendJSON(b []byte, html bool) ([]byte, error) {
	b = append(b, `{"ranker":`...)
	b = appendJSONString(b, r.Ranker, html)
	b = append(b, `,"budget":`...)
	b = strconv.AppendInt(b, int64(r.Budget), 10)
	b = append(b, `,"tokens":`...)
	b = strconv.AppendInt(b, int64(r.Tokens), 10)
	b = append(b, `,"pool":`...)
	b = strconv.AppendInt(b, int64(r.Pool), 10)
	b = append(b, `,"units":`...)
	if r.Units == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Units {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = r.Units[i].appendJSON(b, html); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if len(r.PoolIDs) > 0 {
		b = append(b, `,"pool_ids":[`...)
		for i, id := range r.PoolIDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, id, html)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func (c *Chosen) appendJSON(b []byte, html bool) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, c.ID, html)
	b = append(b, `,"session":`...)
	b = appendJSONString(b, c.Session, html)
	b = append(b, `,"line":`...)
	b = appendJSONString(b, c.Line, html)
	b = append(b, `,"tokens":`...)
	b = strconv.AppendInt(b, int64(c.Tokens), 10)
	b = append(b, `,"rank":`...)
	b = strconv.AppendInt(b, int64(c.Rank), 10)
	b = append(b, `,"score":`...)
	var err error
	if b, err = appendJSONFloat(b, c.Score); err != nil {
		return nil, err
	}
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, c.Reason, html)
	if len(c.Features) > 0 {
		b = append(b, `,"features":`...)
		if b, err = appendJSONMap(b, c.Features, html); err != nil {
			return nil, err
		}
	}
	if len(c.Contributions) > 0 {
		b = append(b, `,"contributions":`...)
		if b, err = appendJSONMap(b, c.Contributions, html); err != nil {
			return nil, err
		}
	}
	if len(c.PartScores) > 0 {
		b = append(b, `,"part_scores":[`...)
		for i, v := range c.PartScores {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSONFloat(b, v); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// sortedFeatureNames is FeatureNames in byte order, the order encoding/json
// gives map keys; featureKeys are the same names quoted, with the colon.
var (
	sortedFeatureNames = func() []string {
		s := slices.Clone(FeatureNames)
		slices.Sort(s)
		return s
	}()
	featureKeys = func() [][]byte {
		out := make([][]byte, len(sortedFeatureNames))
		for i, k := range sortedFeatureNames {
			out[i] = append(appendJSONString(nil, k, true), ':') // feature names have no HTML characters
		}
		return out
	}()
)

// appendJSONMap appends m with its keys sorted. A map keyed by exactly the
// feature names (the usual case) uses their presorted order.
func appendJSONMap(b []byte, m map[string]float64, html bool) ([]byte, error) {
	start := len(b)
	if len(m) == len(sortedFeatureNames) {
		b = append(b, '{')
		ok := true
		for i, k := range sortedFeatureNames {
			v, found := m[k]
			if !found {
				ok = false
				break
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, featureKeys[i]...)
			var err error
			if b, err = appendJSONFloat(b, v); err != nil {
				return nil, err
			}
		}
		if ok {
			return append(b, '}'), nil
		}
		b = b[:start]
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k, html)
		b = append(b, ':')
		var err error
		if b, err = appendJSONFloat(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

var errNonFinite = errors.New("slate: cannot encode a NaN or infinite score")

// appendJSONFloat appends f as encoding/json writes a float64: like
// strconv's shortest 'f' format, switching to 'e' below 1e-6 and from 1e21,
// with the exponent's leading zero dropped (ES6 number formatting).
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errNonFinite
	}
	// Fast path for a multiple of 1e-6 as round6 makes them (k/1e6 exactly,
	// |k| < 1e15): its shortest decimal is k's digits with six decimals,
	// trailing zeros dropped, since no shorter decimal is that close.
	if k := math.Round(f * 1e6); k/1e6 == f && math.Abs(k) < 1e15 && (k != 0 || !math.Signbit(f)) {
		return appendMicros(b, int64(k)), nil
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
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

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string: \" \\
// \b \f \n \r \t, other control bytes as \u00XX, invalid UTF-8 as \ufffd,
// U+2028 and U+2029 escaped, and with html <, > and & as \u003c, \u003e and
// \u0026.
func appendJSONString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
