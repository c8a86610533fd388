package engine

import (
	"strconv"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// decodeUnitsFast decodes add_units' input {"units": [...]} without
// reflection when it has the plain shape (slate.ParseUnits); ok false means
// the caller decodes it with decodeStrict, which decodes it or names what
// is wrong. FuzzDecodeUnitsFast holds the two to the same result.
func decodeUnitsFast(input []byte) ([]slate.Unit, bool) { return slate.ParseUnits(input, "units") }

// recordParsers are reused across calls: a fastjson.Parser keeps its
// buffers.
var recordParsers fastjson.ParserPool

// signalFields are the JSON names of a signal's fields, as record takes
// them.
var signalFields = [...]string{"user", "item", "action", "rating", "meta", "time", "client_id"}

// decodeRecordFast decodes record's input {"signals": [...], "maintain": s}
// without reflection (encoding/json costs 10-20x more inside WebAssembly),
// when it has the plain shape where the result is by construction the one
// the strict path gives (decodeStrict, then memory.Signal's UnmarshalJSON
// for each signal): text that fastjson and encoding/json read alike,
// objects whose keys are distinct and spelled exactly as the fields, the
// strings strings of valid UTF-8, rating and time integer literals in range,
// and meta an object of strings or arrays of strings. For anything else ok
// is false and the caller takes the strict path, which decodes it or names
// what is wrong. FuzzDecodeRecordFast holds the two to the same result.
// O(len(input)).
func decodeRecordFast(input []byte) (signals []memory.Signal, maintain string, ok bool) {
	if !jsonenc.ReadsAlike(input) || fastjson.ValidateBytes(input) != nil {
		return nil, "", false
	}
	p := recordParsers.Get()
	defer recordParsers.Put(p)
	v, err := p.ParseBytes(input)
	if err != nil {
		return nil, "", false
	}
	top, err := v.Object()
	if err != nil {
		return nil, "", false
	}
	var sigs *fastjson.Value
	ok = true
	n := 0
	top.Visit(func(key []byte, x *fastjson.Value) {
		n++
		switch string(key) {
		case "signals":
			ok = ok && sigs == nil && x.Type() == fastjson.TypeArray
			sigs = x
		case "maintain":
			s, good := jsonString(x)
			ok = ok && good && maintain == "" && s != ""
			maintain = s
		default:
			ok = false
		}
	})
	if !ok || sigs == nil {
		return nil, "", false
	}
	elems, _ := sigs.Array()
	signals = make([]memory.Signal, len(elems))
	for i, e := range elems {
		if !readSignal(e, &signals[i]) {
			return nil, "", false
		}
	}
	return signals, maintain, true
}

// readSignal reads one signal of the plain shape into g, or reports that it
// is not one.
func readSignal(e *fastjson.Value, g *memory.Signal) bool {
	o, err := e.Object()
	if err != nil {
		return false
	}
	var seen [len(signalFields)]bool
	ok := true
	o.Visit(func(key []byte, x *fastjson.Value) {
		if !ok {
			return
		}
		f := -1
		for k, name := range signalFields {
			if string(key) == name {
				f = k
				break
			}
		}
		if f < 0 || seen[f] {
			ok = false
			return
		}
		seen[f] = true
		switch f {
		case 3, 5: // rating, time
			n, good := plainInt(x)
			if !good {
				ok = false
				return
			}
			if f == 3 {
				g.Rating = int(n)
			} else {
				g.Time = n
			}
		case 4: // meta
			g.Meta, ok = plainMeta(x)
		default:
			s, good := jsonString(x)
			if !good {
				ok = false
				return
			}
			switch f {
			case 0:
				g.User = s
			case 1:
				g.Item = s
			case 2:
				g.Action = s
			case 6:
				g.ClientID = s
			}
		}
	})
	// time is required: without it the strict path names the error.
	return ok && seen[5]
}

// jsonString is a JSON string of valid UTF-8 (encoding/json replaces
// invalid bytes).
func jsonString(x *fastjson.Value) (string, bool) {
	if x.Type() != fastjson.TypeString {
		return "", false
	}
	b, _ := x.StringBytes()
	if !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

// plainInt is a JSON number written as an integer literal (encoding/json
// refuses 1.0 or 1e3 for an integer field) that fits an int64.
func plainInt(x *fastjson.Value) (int64, bool) {
	if x.Type() != fastjson.TypeNumber {
		return 0, false
	}
	lit := x.String() // the number's literal
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; (c < '0' || c > '9') && !(i == 0 && c == '-') {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	return n, err == nil
}

// plainMeta is item metadata whose every field is a string (kept as a
// one-value list) or an array of strings, as memory.Signal's decoder
// reads it; an empty object gives an empty map.
func plainMeta(x *fastjson.Value) (map[string][]string, bool) {
	o, err := x.Object()
	if err != nil {
		return nil, false
	}
	out := make(map[string][]string, o.Len())
	ok := true
	o.Visit(func(key []byte, v *fastjson.Value) {
		if !ok {
			return
		}
		k := string(key)
		if _, dup := out[k]; dup || !utf8.ValidString(k) {
			ok = false
			return
		}
		if s, good := jsonString(v); good {
			out[k] = []string{s}
			return
		}
		arr, err := v.Array()
		if err != nil {
			ok = false
			return
		}
		vals := make([]string, len(arr))
		for i, e := range arr {
			if vals[i], ok = jsonString(e); !ok {
				return
			}
		}
		out[k] = vals
	})
	return out, ok
}

// decodeRankFast decodes rank's input {"candidates": [...], "instruction":
// s, "k": n} without reflection when it has the plain shape, where the
// result is by construction the strict path's (decodeStrict with
// RankCandidate's decoder): text that fastjson and encoding/json read alike,
// keys distinct and spelled exactly as the fields, candidates that are
// strings or {"id": s, "meta": {...}} with meta's fields strings or arrays
// of strings, the instruction a string and k an integer literal. For
// anything else ok is false and the caller takes the strict path, which
// decodes it or names what is wrong. FuzzDecodeRankFast holds the two to the
// same result. O(len(input)).
func decodeRankFast(input []byte) (in RankInput, ok bool) {
	if !jsonenc.ReadsAlike(input) || fastjson.ValidateBytes(input) != nil {
		return in, false
	}
	p := recordParsers.Get()
	defer recordParsers.Put(p)
	v, err := p.ParseBytes(input)
	if err != nil {
		return in, false
	}
	top, err := v.Object()
	if err != nil {
		return in, false
	}
	var cands *fastjson.Value
	var seenK, seenInstr bool
	ok = true
	top.Visit(func(key []byte, x *fastjson.Value) {
		if !ok {
			return
		}
		switch string(key) {
		case "candidates":
			ok = cands == nil && x.Type() == fastjson.TypeArray
			cands = x
		case "instruction":
			s, good := jsonString(x)
			ok = good && !seenInstr
			seenInstr = true
			in.Instruction = &s
		case "k":
			n, good := plainInt(x)
			ok = good && !seenK && int64(int(n)) == n
			seenK = true
			in.K = int(n)
		default:
			ok = false
		}
	})
	if !ok || cands == nil {
		return RankInput{}, false
	}
	elems, _ := cands.Array()
	in.Candidates = make([]RankCandidate, len(elems))
	for i, e := range elems {
		c := &in.Candidates[i]
		if id, good := jsonString(e); good {
			c.ID = id
			continue
		}
		o, err := e.Object()
		if err != nil {
			return RankInput{}, false
		}
		var seenID, seenMeta bool
		o.Visit(func(key []byte, x *fastjson.Value) {
			if !ok {
				return
			}
			switch string(key) {
			case "id":
				c.ID, ok = jsonString(x)
				ok = ok && !seenID
				seenID = true
			case "meta":
				c.Meta, ok = plainMeta(x)
				ok = ok && !seenMeta
				seenMeta = true
				if len(c.Meta) == 0 {
					c.Meta = nil // an empty meta leaves no map there
				}
			default:
				ok = false
			}
		})
		if !ok {
			return RankInput{}, false
		}
	}
	return in, true
}

// decodeSelectFast decodes select_slate's input without reflection when it
// has the plain shape, where the result is by construction decodeStrict's:
// text that fastjson and encoding/json read alike, keys distinct and spelled
// exactly as slate.Request's, the strings strings, the numbers integer
// literals, the flags booleans, and no "model" (a model is left to the
// strict path). For anything else ok is false. FuzzDecodeSelectFast holds
// the two to the same result. O(len(input)).
func decodeSelectFast(input []byte) (req slate.Request, ok bool) {
	if !jsonenc.ReadsAlike(input) || fastjson.ValidateBytes(input) != nil {
		return req, false
	}
	p := recordParsers.Get()
	defer recordParsers.Put(p)
	v, err := p.ParseBytes(input)
	if err != nil {
		return req, false
	}
	top, err := v.Object()
	if err != nil {
		return req, false
	}
	var seen [7]bool
	ok = true
	top.Visit(func(key []byte, x *fastjson.Value) {
		if !ok {
			return
		}
		f := -1
		for k, name := range [...]string{"query", "date", "budget", "pool", "ranker", "with_pool", "explain"} {
			if string(key) == name {
				f = k
				break
			}
		}
		if f < 0 || seen[f] {
			ok = false
			return
		}
		seen[f] = true
		switch f {
		case 0:
			req.Query, ok = jsonString(x)
		case 1:
			req.Date, ok = jsonString(x)
		case 4:
			req.Ranker, ok = jsonString(x)
		case 2, 3:
			n, good := plainInt(x)
			ok = good && int64(int(n)) == n
			if f == 2 {
				req.Budget = int(n)
			} else {
				req.Pool = int(n)
			}
		case 5, 6:
			var b bool
			switch x.Type() {
			case fastjson.TypeTrue:
				b = true
			case fastjson.TypeFalse:
			default:
				ok = false
			}
			if f == 5 {
				req.WithPool = b
			} else {
				req.Explain = &b
			}
		}
	})
	if !ok {
		return slate.Request{}, false
	}
	return req, true
}
