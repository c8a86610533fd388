package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
)

// TestConformance runs every conformance case through the Go host on the
// .wasm module, holding it to the same bytes as the native run, and checks
// that the module's outputs equal the native engine's, case by case.
func TestConformance(t *testing.T) {
	cases, err := conformance.Load("../testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	rt := openRuntime(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.ID(), func(t *testing.T) {
			in, err := rt.NewInstance(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close(ctx)
			got, err := conformance.Run(c, in)
			if err != nil {
				t.Fatal(err)
			}
			if err := conformance.Check(c, got); err != nil {
				t.Fatal(err)
			}
			native, err := conformance.Run(c, engine.New())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Output, native.Output) || got.Err != native.Err || !bytes.Equal(got.State, native.State) {
				t.Fatalf("wasm and native differ:\nwasm:   %s %s\nnative: %s %s", got.Output, got.Err, native.Output, native.Err)
			}
		})
	}
	t.Logf("%d conformance cases through the Go host", len(cases))
}

// TestEveryEngineExportIsExported checks that the module exports a wasm
// function for every export the engine registers, and nothing is missing.
func TestEveryEngineExportIsExported(t *testing.T) {
	rt := openRuntime(t)
	ctx := context.Background()
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(ctx)
	out, err := in.Call("exports", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Exports []string `json:"exports"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Exports) == 0 {
		t.Fatal("module lists no exports")
	}
	for _, name := range engine.Exports() {
		if _, err := in.Call(name, []byte("{")); err != nil && err.Error() == `engine: unknown export "`+name+`"` {
			t.Errorf("engine export %q has no wasm export in plugin/", name)
		}
	}
}
