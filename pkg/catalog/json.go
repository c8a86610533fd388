package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/intent"
)

// Format names the JSON form of a catalog.
const Format = "recmem.catalog"

// JSON is the human-readable form of a catalog, for small fixtures and
// conformance cases; large catalogs use the binary form.
type JSON struct {
	Format    string   `json:"format"`
	Version   int      `json:"version"`
	Dataset   string   `json:"dataset,omitempty"`
	MetaNames []string `json:"meta_names"`
	// Facets types the columns (optional; inferred from the values when
	// absent): [{"name": "genre", "type": "list"}, {"name": "year",
	// "type": "number", "unit": "year"}].
	Facets  []Facet                `json:"facets,omitempty"`
	Dim     int                    `json:"dim"`
	SeqDim  int                    `json:"seq_dim,omitempty"`
	Items   []JSONItem             `json:"items"`
	Weights map[string]JSONFeature `json:"weights,omitempty"`
	// Intent is the instruction interpreter's table for this domain
	// (pkg/intent.Table): aliases, filler words, title facets.
	Intent *intent.Table `json:"intent,omitempty"`
}

// JSONItem is one item of the JSON form.
type JSONItem struct {
	ID      string         `json:"id"`
	Meta    []MetaValue    `json:"meta"`
	Pop     float32        `json:"pop"`
	Recent  float32        `json:"recent,omitempty"`
	Factor  []float32      `json:"factor,omitempty"`
	Bias    float32        `json:"bias,omitempty"`
	SeqCtx  []float32      `json:"seq_context,omitempty"`
	SeqItem []float32      `json:"seq_factor,omitempty"`
	SeqBias float32        `json:"seq_bias,omitempty"`
	Next    []JSONNeighbor `json:"next,omitempty"`
	Similar []JSONNeighbor `json:"similar,omitempty"`
}

// MetaValue is one metadata value of the JSON form: a string, a number
// (1995, 29.99) or a list of strings (["Action", "Sci-Fi"], a list facet's
// values). It is stored as Meta stores it: a number as written, a list
// joined by ListSep.
type MetaValue struct {
	s    string
	list bool
}

// UnmarshalJSON reads a string, a number or a list of strings.
func (v *MetaValue) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		v.s = one
		return nil
	}
	var n json.Number
	if json.Unmarshal(b, &n) == nil {
		v.s = n.String()
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("want a string, a number or a list of strings")
	}
	for k, e := range many {
		if strings.Contains(e, ListSep) {
			return fmt.Errorf("list element %d: %q holds the list separator %q", k, e, ListSep)
		}
	}
	v.s, v.list = strings.Join(many, ListSep), true
	return nil
}

// MarshalJSON writes the value back as it was read.
func (v MetaValue) MarshalJSON() ([]byte, error) {
	if v.list {
		if v.s == "" {
			return []byte("[]"), nil
		}
		return json.Marshal(strings.Split(v.s, ListSep))
	}
	return json.Marshal(v.s)
}

// MetaString is a string metadata value, for building the JSON form.
func MetaString(s string) MetaValue { return MetaValue{s: s} }

// MetaList is a list metadata value, for building the JSON form.
func MetaList(vs []string) MetaValue { return MetaValue{s: strings.Join(vs, ListSep), list: true} }

// JSONNeighbor is one sparse entry, naming its item by id.
type JSONNeighbor struct {
	Item   string  `json:"item"`
	Weight float32 `json:"weight"`
}

// JSONFeature is one ranker feature's learned weight and standardization.
type JSONFeature struct {
	Weight float64 `json:"weight"`
	Scale  float64 `json:"scale"`
}

// metaFault names the first metadata value of b that MetaValue refuses
// ("items[3].meta.genre"), "" when there is none: encoding/json does not
// say where a value's own decoder failed. O(size), on an error only.
func metaFault(b []byte) string {
	var j struct {
		MetaNames []string `json:"meta_names"`
		Items     []struct {
			Meta []json.RawMessage `json:"meta"`
		} `json:"items"`
	}
	if json.Unmarshal(b, &j) != nil {
		return ""
	}
	for i, it := range j.Items {
		for k, raw := range it.Meta {
			var v MetaValue
			if v.UnmarshalJSON(raw) != nil {
				name := strconv.Itoa(k)
				if k < len(j.MetaNames) {
					name = j.MetaNames[k]
				}
				return fmt.Sprintf("items[%d].meta.%s", i, name)
			}
		}
	}
	return ""
}

// DecodeJSON reads the JSON form, refusing unknown fields. O(size).
func DecodeJSON(b []byte) (*Catalog, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var j JSON
	if err := dec.Decode(&j); err != nil {
		if where := metaFault(b); where != "" {
			return nil, fmt.Errorf("%w: %s: %w", ErrFormat, where, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	switch {
	case j.Format != Format:
		return nil, fmt.Errorf("%w: format: want %q, got %q", ErrFormat, Format, j.Format)
	case j.Version < 1 || j.Version > Version:
		return nil, fmt.Errorf("%w: version %d, this module reads 1 to %d", ErrFormat, j.Version, Version)
	}
	if j.Intent != nil {
		if err := j.Intent.Check(); err != nil {
			return nil, fmt.Errorf("%w: intent: %w", ErrFormat, err)
		}
	}
	c := &Catalog{Dataset: j.Dataset, MetaNames: j.MetaNames, Facets: j.Facets, Dim: j.Dim, SeqDim: j.SeqDim,
		Weights: map[string]float64{}, Scales: map[string]float64{}, Intent: j.Intent}
	ids := make(map[string]int, len(j.Items))
	for i, it := range j.Items {
		ids[it.ID] = i
	}
	for i, it := range j.Items {
		if len(it.Factor) != j.Dim {
			return nil, fmt.Errorf("%w: items[%d].factor: %d values, want dim %d", ErrFormat, i, len(it.Factor), j.Dim)
		}
		if len(it.SeqCtx) != j.SeqDim || len(it.SeqItem) != j.SeqDim {
			return nil, fmt.Errorf("%w: items[%d]: seq_context and seq_factor need seq_dim %d values", ErrFormat, i, j.SeqDim)
		}
		c.SeqCtx = append(c.SeqCtx, it.SeqCtx...)
		c.SeqItem = append(c.SeqItem, it.SeqItem...)
		if j.SeqDim > 0 {
			c.SeqBias = append(c.SeqBias, it.SeqBias)
		}
		c.IDs = append(c.IDs, it.ID)
		meta := make([]string, len(it.Meta))
		for k, v := range it.Meta {
			meta[k] = v.s
		}
		c.Meta = append(c.Meta, meta)
		c.Pop = append(c.Pop, it.Pop)
		c.Recent = append(c.Recent, it.Recent)
		c.Factors = append(c.Factors, it.Factor...)
		c.Bias = append(c.Bias, it.Bias)
		for s, src := range [][]JSONNeighbor{it.Next, it.Similar} {
			row := make([]Neighbor, 0, len(src))
			for k, nb := range src {
				t, ok := ids[nb.Item]
				if !ok {
					return nil, fmt.Errorf("%w: items[%d] neighbour %d: unknown item %q", ErrFormat, i, k, nb.Item)
				}
				row = append(row, Neighbor{Item: int32(t), Weight: nb.Weight})
			}
			if s == 0 {
				c.Trans = append(c.Trans, row)
			} else {
				c.CoOc = append(c.CoOc, row)
			}
		}
	}
	for name, f := range j.Weights {
		c.Weights[name], c.Scales[name] = f.Weight, f.Scale
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse reads either form: binary when b starts with Magic, JSON otherwise.
func Parse(b []byte) (*Catalog, error) {
	if IsBinary(b) {
		return Decode(b)
	}
	return DecodeJSON(b)
}
