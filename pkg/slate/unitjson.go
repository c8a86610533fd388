package slate

import (
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/recmem/recmem/pkg/jsonenc"
)

// parsers are reused across calls: a fastjson.Parser keeps its buffers.
var parsers fastjson.ParserPool

// unitFields are the JSON names of Unit's fields, in its order.
var unitFields = [...]string{"id", "session", "date", "time", "speaker", "text", "user", "kind"}

// ParseUnits decodes units without reflection, which costs 10-20x more
// inside WebAssembly than natively: b is a JSON array of units (key "") or
// an object whose only member, key, holds one. It takes only the plain
// shape, where its result is by construction the one encoding/json gives
// with unknown fields refused: valid JSON (no control character inside a
// string, which fastjson does not check), no \u escape of a surrogate
// (which the two decoders may read differently when unpaired; any other
// \u escape, such as the \u0026 json.Marshal writes for &, reads the same),
// objects whose keys are distinct, spelled exactly as Unit's fields, and
// whose values are strings of valid UTF-8. For any other input ok is false,
// and the caller decodes with encoding/json, which decodes it or names what
// is wrong. O(len(b)).
func ParseUnits(input []byte, key string) (units []Unit, ok bool) {
	if !jsonenc.ReadsAlike(input) || fastjson.ValidateBytes(input) != nil {
		return nil, false
	}
	p := parsers.Get()
	defer parsers.Put(p)
	v, err := p.ParseBytes(input)
	if err != nil {
		return nil, false
	}
	arr := v
	if key != "" {
		top, err := v.Object()
		if err != nil || top.Len() != 1 {
			return nil, false
		}
		arr = top.Get(key)
	}
	if arr == nil || arr.Type() != fastjson.TypeArray {
		return nil, false
	}
	elems, _ := arr.Array()
	units = make([]Unit, len(elems))
	for i, e := range elems {
		o, err := e.Object()
		if err != nil {
			return nil, false
		}
		var seen [len(unitFields)]bool
		ok = true
		o.Visit(func(key []byte, v *fastjson.Value) {
			if !ok {
				return
			}
			f := -1
			for k, name := range unitFields {
				if string(key) == name {
					f = k
					break
				}
			}
			if f < 0 || seen[f] || v.Type() != fastjson.TypeString {
				ok = false
				return
			}
			seen[f] = true
			b, _ := v.StringBytes()
			if !utf8.Valid(b) {
				ok = false
				return
			}
			s := string(b)
			u := &units[i]
			switch f {
			case 0:
				u.ID = s
			case 1:
				u.Session = s
			case 2:
				u.Date = s
			case 3:
				u.Time = s
			case 4:
				u.Speaker = s
			case 5:
				u.Text = s
			case 6:
				u.User = s
			case 7:
				u.Kind = s
			}
		})
		if !ok {
			return nil, false
		}
	}
	return units, true
}
