package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
)

// decodeStrict decodes one JSON value from input into v, refusing unknown fields
// and trailing data. An empty input decodes as {}. Errors name the field at fault
// in the form "input.signals.action: ...".
func decodeStrict(input []byte, v any) error {
	trimmed := bytes.TrimSpace(input)
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describeJSONError(err, trimmed)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("input: unexpected data after the JSON value")
	}
	return nil
}

// jsonKind names a Go type by the JSON value it decodes from, so messages
// never show Go internals.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

// describeJSONError turns encoding/json errors into messages that name the field
// or the byte offset of the problem.
func describeJSONError(err error, data []byte) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var field *memory.FieldError
	switch {
	case errors.As(err, &field):
		return fmt.Errorf("input.%s: %w", field.Field, field.Err)
	case errors.As(err, &syn):
		return fmt.Errorf("input: malformed JSON at byte %d: %s", syn.Offset, syn.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "(top level)"
		}
		return fmt.Errorf("input.%s: expected %s, got JSON %s", field, jsonKind(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("input: truncated JSON (%d bytes)", len(data))
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("input: unknown field %s", f)
	}
	return fmt.Errorf("input: %s", strings.TrimPrefix(msg, "json: "))
}
