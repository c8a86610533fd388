package catalog

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"slices"

	"github.com/recmem/recmem/pkg/intent"
)

// Magic starts every binary catalog.
const Magic = "RMCAT"

// Encode writes the binary form:
//
//	"RMCAT" uvarint(version) string(dataset) uvarint(#meta) string...
//	uvarint(n) n × (string(id) #meta × string)
//	n × f32(pop)  n × f32(recent)  uvarint(dim)  n × (f32(scale) dim × int8)  n × f32(bias)
//	uvarint(sdim) 2 × n × (f32(scale) sdim × int8)  [n × f32(bias) if sdim > 0]
//	2 × n × (uvarint(k) k × (uvarint(item) u16(weight·65535)))   transitions, co-occurrence
//	uvarint(#weights) × (string(name) f64(weight) f64(scale))     sorted by name
//	#meta × (string(type) string(unit) u8(inferred))              version 2: the facets
//	string(intent table as JSON, "" for none)                      version 2
//	u32(CRC-32 IEEE of everything before)
//
// Strings are uvarint length + UTF-8, numbers little-endian. Factors are
// quantized to int8 with scale max|v|/127 per item; sparse weights, which lie
// in [0, 1], to 16 bits. O(size).
func (c *Catalog) Encode() []byte {
	var w enc
	w.b = append(w.b, Magic...)
	w.uv(Version)
	w.str(c.Dataset)
	w.uv(len(c.MetaNames))
	for _, m := range c.MetaNames {
		w.str(m)
	}
	w.uv(len(c.IDs))
	for i, id := range c.IDs {
		w.str(id)
		for _, m := range c.Meta[i] {
			w.str(m)
		}
	}
	for _, p := range c.Pop {
		w.f32(p)
	}
	for _, p := range c.Recent {
		w.f32(p)
	}
	w.uv(c.Dim)
	w.matrix(c.Factors, c.Dim)
	for _, b := range c.Bias {
		w.f32(b)
	}
	w.uv(c.SeqDim)
	w.matrix(c.SeqCtx, c.SeqDim)
	w.matrix(c.SeqItem, c.SeqDim)
	for _, b := range c.SeqBias {
		w.f32(b)
	}
	for _, rows := range [][][]Neighbor{c.Trans, c.CoOc} {
		for _, row := range rows {
			w.uv(len(row))
			for _, nb := range row {
				w.uv(int(nb.Item))
				q := math.Round(math.Min(1, math.Max(0, float64(nb.Weight))) * 65535)
				w.b = binary.LittleEndian.AppendUint16(w.b, uint16(q))
			}
		}
	}
	names := make([]string, 0, len(c.Weights))
	for n := range c.Weights {
		names = append(names, n)
	}
	slices.Sort(names)
	w.uv(len(names))
	for _, n := range names {
		w.str(n)
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(c.Weights[n]))
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(c.Scales[n]))
	}
	for k := range c.MetaNames {
		f := Facet{Type: TypeText}
		if k < len(c.Facets) {
			f = c.Facets[k]
		}
		w.str(f.Type)
		w.str(f.Unit)
		inferred := byte(0)
		if f.Inferred {
			inferred = 1
		}
		w.b = append(w.b, inferred)
	}
	table := ""
	if c.Intent != nil {
		if b, err := json.Marshal(c.Intent); err == nil { // a Table always marshals
			table = string(b)
		}
	}
	w.str(table)
	return binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b))
}

// IsBinary reports whether b starts like a binary catalog.
func IsBinary(b []byte) bool { return bytes.HasPrefix(b, []byte(Magic)) }

// Decode reads the binary form written by Encode, checking the checksum, the
// version and every index. O(size).
func Decode(b []byte) (*Catalog, error) {
	if !IsBinary(b) || len(b) < len(Magic)+4 {
		return nil, fmt.Errorf("%w: missing %q header", ErrFormat, Magic)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch (truncated or corrupted)", ErrFormat)
	}
	r := dec{b: body[len(Magic):]}
	version := r.uv()
	if r.err == nil && (version > Version || version < 1) {
		return nil, fmt.Errorf("%w: version %d, this module reads up to %d", ErrFormat, version, Version)
	}
	c := &Catalog{Dataset: r.str()}
	c.MetaNames = make([]string, r.count())
	for k := range c.MetaNames {
		c.MetaNames[k] = r.str()
	}
	n := r.count()
	c.IDs, c.Meta = make([]string, n), make([][]string, n)
	for i := 0; i < n && r.err == nil; i++ {
		c.IDs[i] = r.str()
		c.Meta[i] = make([]string, len(c.MetaNames))
		for k := range c.Meta[i] {
			c.Meta[i][k] = r.str()
		}
	}
	c.Pop, c.Recent = make([]float32, n), make([]float32, n)
	for i := range c.Pop {
		c.Pop[i] = r.f32()
	}
	for i := range c.Recent {
		c.Recent[i] = r.f32()
	}
	c.Dim = r.count()
	c.Factors = r.matrix(n, c.Dim)
	c.Bias = make([]float32, n)
	for i := range c.Bias {
		c.Bias[i] = r.f32()
	}
	c.SeqDim = r.count()
	c.SeqCtx = r.matrix(n, c.SeqDim)
	c.SeqItem = r.matrix(n, c.SeqDim)
	if c.SeqDim > 0 {
		c.SeqBias = make([]float32, n)
		for i := range c.SeqBias {
			c.SeqBias[i] = r.f32()
		}
	}
	c.Trans, c.CoOc = make([][]Neighbor, n), make([][]Neighbor, n)
	for _, rows := range [][][]Neighbor{c.Trans, c.CoOc} {
		for i := 0; i < n && r.err == nil; i++ {
			rows[i] = make([]Neighbor, r.count())
			for k := range rows[i] {
				rows[i][k].Item = int32(r.uv())
				if q := r.bytes(2); q != nil {
					rows[i][k].Weight = float32(binary.LittleEndian.Uint16(q)) / 65535
				}
			}
		}
	}
	nw := r.count()
	c.Weights, c.Scales = make(map[string]float64, nw), make(map[string]float64, nw)
	for range nw {
		name := r.str()
		c.Weights[name] = r.f64()
		c.Scales[name] = r.f64()
	}
	if version >= 2 && r.err == nil {
		c.Facets = make([]Facet, len(c.MetaNames))
		for k, n := range c.MetaNames {
			c.Facets[k] = Facet{Name: n, Type: r.str(), Unit: r.str()}
			if b := r.bytes(1); b != nil {
				c.Facets[k].Inferred = b[0] == 1
			}
		}
		if t := r.str(); t != "" && r.err == nil {
			tab, err := intent.ParseTable([]byte(t))
			if err != nil {
				return nil, fmt.Errorf("%w: intent table: %w", ErrFormat, err)
			}
			c.Intent = tab
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes of trailing data", ErrFormat, len(r.b))
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	return c, nil
}

type enc struct{ b []byte }

func (w *enc) uv(v int)      { w.b = binary.AppendUvarint(w.b, uint64(v)) }
func (w *enc) str(s string)  { w.uv(len(s)); w.b = append(w.b, s...) }
func (w *enc) f32(f float32) { w.b = binary.LittleEndian.AppendUint32(w.b, math.Float32bits(f)) }

// matrix writes the rows×dim matrix m, each row int8-quantized with scale
// max|v|/127.
func (w *enc) matrix(m []float32, dim int) {
	if dim == 0 {
		return
	}
	for i := 0; i < len(m)/dim; i++ {
		v := m[i*dim : (i+1)*dim]
		mx := float32(0)
		for _, x := range v {
			mx = max(mx, float32(math.Abs(float64(x))))
		}
		scale := mx / 127
		w.f32(scale)
		for _, x := range v {
			q := 0.0
			if scale > 0 {
				q = math.Round(float64(x / scale))
			}
			w.b = append(w.b, byte(int8(q)))
		}
	}
}

type dec struct {
	b   []byte
	err error
}

func (r *dec) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: truncated", ErrFormat)
	}
	r.b = nil
}

func (r *dec) uv() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > math.MaxInt32 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

// count reads a length and checks it cannot exceed the remaining bytes, so a
// corrupted length never allocates a huge slice.
func (r *dec) count() int {
	v := r.uv()
	if v > len(r.b) {
		r.fail()
		return 0
	}
	return v
}

func (r *dec) bytes(n int) []byte {
	if n > len(r.b) {
		r.fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// matrix reads n quantized rows of dim values and dequantizes them.
func (r *dec) matrix(n, dim int) []float32 {
	if n*dim > len(r.b) {
		r.fail()
		return nil
	}
	m := make([]float32, 0, n*dim)
	for i := 0; i < n && dim > 0 && r.err == nil; i++ {
		scale := r.f32()
		for _, q := range r.bytes(dim) {
			m = append(m, float32(int8(q))*scale)
		}
	}
	if r.err != nil {
		return nil
	}
	return m
}

func (r *dec) str() string { return string(r.bytes(r.uv())) }

func (r *dec) f32() float32 {
	if b := r.bytes(4); b != nil {
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	}
	return 0
}

func (r *dec) f64() float64 {
	if b := r.bytes(8); b != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}
