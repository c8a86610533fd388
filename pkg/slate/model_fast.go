package slate

import (
	"errors"
	"fmt"

	"github.com/valyala/fastjson"
)

// parseModelFast reads a model's JSON with fastjson instead of reflection,
// which costs several times more inside WebAssembly (the embedded model is
// parsed at the first selection, part of a cold start). It reads the fields
// encoding/json would and nothing else; TestParseModelFast holds it to
// json.Unmarshal on the embedded model. O(len(b)).
func parseModelFast(b []byte) (*Model, error) {
	var p fastjson.Parser
	v, err := p.ParseBytes(b)
	if err != nil {
		return nil, err
	}
	m := &Model{}
	if err := m.readFast(v); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Model) readFast(v *fastjson.Value) error {
	return fields(v, func(key string, x *fastjson.Value) (err error) {
		switch key {
		case "kind":
			m.Kind, err = str(x)
		case "note":
			m.Note, err = str(x)
		case "bias":
			m.Bias, err = x.Float64()
		case "features":
			m.Features, err = strs(x)
		case "mean":
			m.Mean, err = floats(x)
		case "scale":
			m.Scale, err = floats(x)
		case "weights":
			m.Weights, err = floats(x)
		case "trees":
			m.Trees, err = list(x, func(e *fastjson.Value) (Tree, error) {
				var t Tree
				err := t.readFast(e)
				return t, err
			})
		case "parts":
			m.Parts, err = list(x, func(e *fastjson.Value) (Model, error) {
				var p Model
				err := p.readFast(e)
				return p, err
			})
		default:
			err = errors.New("unknown field")
		}
		return err
	})
}

func (t *Tree) readFast(v *fastjson.Value) error {
	return fields(v, func(key string, x *fastjson.Value) (err error) {
		switch key {
		case "feature":
			t.Feature, err = ints(x)
		case "threshold":
			t.Threshold, err = floats(x)
		case "left":
			t.Left, err = ints(x)
		case "right":
			t.Right, err = ints(x)
		case "value":
			t.Value, err = floats(x)
		default:
			err = errors.New("unknown field")
		}
		return err
	})
}

// fields calls set for each member of the object v, and joins the errors,
// each named by its key.
func fields(v *fastjson.Value, set func(key string, x *fastjson.Value) error) error {
	o, err := v.Object()
	if err != nil {
		return err
	}
	var errs []error
	o.Visit(func(key []byte, x *fastjson.Value) {
		if err := set(string(key), x); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
		}
	})
	return errors.Join(errs...)
}

// array is x's elements, nil for JSON null (as encoding/json leaves a slice).
func array(x *fastjson.Value) ([]*fastjson.Value, error) {
	if x.Type() == fastjson.TypeNull {
		return nil, nil
	}
	return x.Array()
}

func str(x *fastjson.Value) (string, error) {
	if x.Type() == fastjson.TypeNull {
		return "", nil
	}
	b, err := x.StringBytes()
	return string(b), err
}

// list reads a JSON array (nil for null) with elem reading each element.
func list[T any](x *fastjson.Value, elem func(*fastjson.Value) (T, error)) ([]T, error) {
	arr, err := array(x)
	if err != nil || arr == nil {
		return nil, err
	}
	out := make([]T, len(arr))
	for i, e := range arr {
		if out[i], err = elem(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func strs(x *fastjson.Value) ([]string, error) { return list(x, str) }

func floats(x *fastjson.Value) ([]float64, error) {
	return list(x, func(e *fastjson.Value) (float64, error) { return e.Float64() })
}

func ints(x *fastjson.Value) ([]int, error) {
	return list(x, func(e *fastjson.Value) (int, error) { return e.Int() })
}
