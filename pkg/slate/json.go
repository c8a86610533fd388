package slate

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

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
	if c.Hop != "" {
		b = append(b, `,"hop":`...)
		b = jsonenc.AppendStringHTML(b, c.Hop, html)
	}
	if len(c.Matched) > 0 {
		b = append(b, `,"matched":[`...)
		for i, w := range c.Matched {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonenc.AppendStringHTML(b, w, html)
		}
		b = append(b, ']')
	}
	if c.Why != "" {
		b = append(b, `,"why":`...)
		b = jsonenc.AppendStringHTML(b, c.Why, html)
	}
	if len(c.Features) > 0 {
		b = append(b, `,"features":`...)
		if b, err = appendValues(b, c.Features, html); err != nil {
			return nil, err
		}
	}
	if len(c.Contributions) > 0 {
		b = append(b, `,"contributions":`...)
		if b, err = appendValues(b, c.Contributions, html); err != nil {
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
// gives map keys, and sortedFeatureIdx their positions in FeatureNames.
var (
	sortedFeatureNames = func() []string {
		s := slices.Clone(FeatureNames)
		slices.Sort(s)
		return s
	}()
	sortedFeatureIdx = func() []int {
		out := make([]int, len(sortedFeatureNames))
		for i, f := range sortedFeatureNames {
			out[i] = slices.Index(FeatureNames, f)
		}
		return out
	}()
)

// Values are named numbers in order of name: a chosen unit's features, or
// their contributions to its score. They encode as the JSON object a
// map[string]float64 encodes as (keys sorted), and decode from any JSON
// object of numbers; building and encoding them hashes nothing, which
// matters inside WebAssembly.
type Values []Value

// Value is one named number.
type Value struct {
	Name  string
	Value float64
	// feature is 1 + the position of Name in FeatureNames when Select set
	// it (0 otherwise): the encoder then copies the name's encoded key.
	feature int16
}

// featureKeys are FeatureNames encoded as JSON object keys, colon included
// (feature names hold no character that needs escaping).
var featureKeys = func() [][]byte {
	out := make([][]byte, len(FeatureNames))
	for j, f := range FeatureNames {
		out[j] = append(jsonenc.AppendString(nil, f), ':')
	}
	return out
}()

// Get returns the value named name. O(log len(v)).
func (v Values) Get(name string) (float64, bool) {
	i, ok := slices.BinarySearchFunc(v, name, func(x Value, n string) int { return strings.Compare(x.Name, n) })
	if !ok {
		return 0, false
	}
	return v[i].Value, true
}

// Map returns the values as a map.
func (v Values) Map() map[string]float64 {
	m := make(map[string]float64, len(v))
	for _, x := range v {
		m[x.Name] = x.Value
	}
	return m
}

// MarshalJSON encodes v as a JSON object, keys in order (see appendValues).
func (v Values) MarshalJSON() ([]byte, error) { return appendValues(nil, v, false) }

// UnmarshalJSON decodes a JSON object of numbers, sorting it by name.
func (v *Values) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(Values, 0, len(m))
	for k, x := range m {
		out = append(out, Value{Name: k, Value: x})
	}
	slices.SortFunc(out, func(a, b Value) int { return strings.Compare(a.Name, b.Name) })
	*v = out
	return nil
}

// appendValues appends v as a JSON object in its order (by name, as Select
// builds it and UnmarshalJSON sorts it; a Values built by hand out of order
// encodes in that order).
func appendValues(b []byte, v Values, html bool) ([]byte, error) {
	// The keys (pre-encoded for features) and numbers laid side by side,
	// then written in one call (jsonenc.AppendFields).
	var kb [64][]byte
	var vb [64]float64
	keys, vals := kb[:0], vb[:0]
	for _, x := range v {
		if x.feature > 0 {
			keys = append(keys, featureKeys[x.feature-1])
		} else {
			keys = append(keys, append(jsonenc.AppendStringHTML(nil, x.Name, html), ':'))
		}
		vals = append(vals, x.Value)
	}
	b = append(b, '{')
	b, err := jsonenc.AppendFields(b, keys, vals)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}
