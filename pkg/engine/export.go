package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Export is one export of the module, declared once: its name (the wasm
// export and the /v1/ path), a one-line doc, whether a call can change the
// state, its limits, the Go types its input and output decode into, how
// recmem.js binds it to a method, and the handler that runs it.
//
// Every host is generated from or dispatches through this declaration: the
// plugin's //go:wasmexport glue, recmem.js's method table, recmem.d.ts, the
// page's list of exports that never change the state and docs/exports.md
// (`go generate ./pkg/engine`), Engine.Call, and the typed Go calls (Func).
type Export struct {
	Name    string
	Doc     string
	Mutates bool    // a call may change the state: hosts save it after the call
	Limits  []Limit // bounds checked before any work, beside MaxInputBytes
	JS      Binding
	In, Out reflect.Type
	// run decodes the input, runs the export and encodes its output. A run
	// that fails leaves the state as it was.
	run func(e *Engine, input []byte) ([]byte, error)
}

// Limit is one bound of an export's input, for the docs.
type Limit struct {
	Field string // the input field, "input" for the whole input
	Max   int
	Unit  string // "bytes", "items", "tokens", ...
}

// Binding is how recmem.js names an export's call (and how the generated
// recmem.d.ts types it).
//
//   - Method is the method's name.
//   - Args are input fields taken positionally, in order.
//   - Options are input fields taken from a trailing options object.
//   - Whole: the one argument is the whole input object.
//   - Raw: the one argument is sent as it is: text or bytes, or a value
//     encoded as JSON (documents and catalogs).
//   - Text: the output is returned as the module's text, not parsed.
//   - Pick: the method returns this field of the output.
//   - Hand: recmem.js writes the method by hand (the state document's
//     seal); it is declared in recmem.d.ts all the same.
type Binding struct {
	Method  string
	Args    []string
	Options []Option
	Whole   bool
	Raw     bool
	Text    bool
	Pick    string
	Hand    bool
}

// Option is one input field of a method's options object: its JavaScript
// name, the input key it fills, and a default (a JavaScript literal, "" for
// none: the key is then sent only when given).
type Option struct {
	Name, Key, Default string
}

// Func is an Export typed by its input and output: the handle Go callers use
// (Call), natively or through the .wasm.
type Func[In, Out any] struct{ *Export }

// appender is an output that encodes itself (hot outputs, written without
// reflection, byte for byte as json.Marshal would).
type appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// declare fills x's types from In and Out and its runner from handle, whose
// output is encoded with AppendJSON when it has one, else json.Marshal.
func declare[In, Out any](x Export, handle func(e *Engine, input []byte) (Out, error)) Func[In, Out] {
	x.In, x.Out = reflect.TypeFor[In](), reflect.TypeFor[Out]()
	x.run = func(e *Engine, input []byte) ([]byte, error) {
		out, err := handle(e, input)
		if err != nil {
			return nil, err
		}
		e.timer.Mark("run") // what the handler did after its last mark
		defer e.timer.Mark("encode")
		if a, ok := any(out).(appender); ok {
			return a.AppendJSON(nil)
		}
		if a, ok := any(&out).(appender); ok {
			return a.AppendJSON(nil)
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("encoding output: %w", err)
		}
		return b, nil
	}
	return Func[In, Out]{&x}
}

// Caller runs an export by name on JSON: an *Engine natively, a plugin
// instance or a host session through the .wasm, or anything else that speaks
// the exports.
type Caller interface {
	Call(export string, input []byte) ([]byte, error)
}

// Raw is an input passed to the module as it is: a state document, a
// catalog asset (whose binary form is not JSON).
type Raw []byte

// Call runs f on c with in encoded as JSON (a Raw input as it is) and decodes
// the output into Out. Cost: one encoding and one decoding beside the export
// itself.
func (f Func[In, Out]) Call(c Caller, in In) (Out, error) {
	var out Out
	b, ok := any(in).(Raw)
	if !ok {
		var err error
		if b, err = json.Marshal(in); err != nil {
			return out, fmt.Errorf("%s: encoding input: %w", f.Name, err)
		}
	}
	raw, err := c.Call(f.Name, b)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("%s: decoding output: %w", f.Name, err)
	}
	return out, nil
}
