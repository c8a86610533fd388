package engine_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
)

// TestOutputsMatchTheirDeclaredTypes holds every export's declared output
// type (engine.All, from which recmem.d.ts and docs/exports.md are
// generated) to the outputs the module really writes: each conformance and
// hostile case's output decodes into it with no unknown key, and encodes
// back to the same JSON value.
func TestOutputsMatchTheirDeclaredTypes(t *testing.T) {
	cases, err := conformance.LoadAll(conformanceDir, hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, c := range cases {
		if _, isErr := c.WantError(); len(c.Want) == 0 || isErr {
			continue
		}
		x, ok := engine.Lookup(c.Export)
		if !ok {
			continue
		}
		t.Run(c.ID(), func(t *testing.T) {
			out := reflect.New(x.Out)
			dec := json.NewDecoder(bytes.NewReader(c.Want))
			dec.DisallowUnknownFields()
			if err := dec.Decode(out.Interface()); err != nil {
				t.Fatalf("%s output does not decode into %s: %v\n%s", c.Export, x.Out, err, c.Want)
			}
			back, err := json.Marshal(out.Elem().Interface())
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(c.Want, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(back, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s output through %s changes:\n was %s\n now %s", c.Export, x.Out, c.Want, back)
			}
			checked[c.Export]++
		})
	}
	for _, x := range engine.All {
		if checked[x.Name] == 0 && x.Name != "exports" {
			t.Errorf("no conformance case checks the output of %s", x.Name)
		}
	}
}
