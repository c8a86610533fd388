package slate

import (
	"slices"
	"strconv"

	"github.com/recmem/recmem/pkg/jsonenc"
)

// MarshalJSON encodes a Result exactly as encoding/json encodes its fields
// (the same bytes: struct fields in order, omitempty as tagged, map keys
// sorted, floats and strings by pkg/jsonenc, without HTML escaping, which
// json.Marshal then applies to the whole output as it does to its own). It exists because reflection
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
	b = jsonenc.AppendStringHTML(b, r.Ranker, html)
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
			b = jsonenc.AppendStringHTML(b, id, html)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func (c *Chosen) appendJSON(b []byte, html bool) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = jsonenc.AppendStringHTML(b, c.ID, html)
	b = append(b, `,"session":`...)
	b = jsonenc.AppendStringHTML(b, c.Session, html)
	b = append(b, `,"line":`...)
	b = jsonenc.AppendStringHTML(b, c.Line, html)
	b = append(b, `,"tokens":`...)
	b = strconv.AppendInt(b, int64(c.Tokens), 10)
	b = append(b, `,"rank":`...)
	b = strconv.AppendInt(b, int64(c.Rank), 10)
	b = append(b, `,"score":`...)
	var err error
	if b, err = jsonenc.AppendFloat(b, c.Score); err != nil {
		return nil, err
	}
	b = append(b, `,"reason":`...)
	b = jsonenc.AppendStringHTML(b, c.Reason, html)
	if len(c.Features) > 0 {
		b = append(b, `,"features":`...)
		if b, err = appendFeatureMap(b, c.Features, html); err != nil {
			return nil, err
		}
	}
	if len(c.Contributions) > 0 {
		b = append(b, `,"contributions":`...)
		if b, err = appendFeatureMap(b, c.Contributions, html); err != nil {
			return nil, err
		}
	}
	if len(c.PartScores) > 0 {
		b = append(b, `,"part_scores":[`...)
		for i, v := range c.PartScores {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = jsonenc.AppendFloat(b, v); err != nil {
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
			out[i] = append(jsonenc.AppendString(nil, k), ':') // feature names have no HTML characters
		}
		return out
	}()
)

// appendFeatureMap appends m with its keys sorted. A map keyed by exactly the
// feature names (the usual case) uses their presorted order.
func appendFeatureMap(b []byte, m map[string]float64, html bool) ([]byte, error) {
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
			if b, err = jsonenc.AppendFloat(b, v); err != nil {
				return nil, err
			}
		}
		if ok {
			return append(b, '}'), nil
		}
		b = b[:start]
	}
	return jsonenc.AppendFloatMapHTML(b, m, html)
}
