package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	extism "github.com/extism/go-sdk"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
)

// TestStandardExtismABI runs every conformance case without an LLM script on
// two more paths and holds them to the native engine's bytes: this host with
// the module's direct input and output turned off (the Extism kernel of
// kernel.go carries input, output and errors), and go-sdk, Extism's own Go
// host, which proves the module is an ordinary Extism plugin outside
// recmem's host too (the JavaScript SDK's run is web/test/conformance).
func TestStandardExtismABI(t *testing.T) {
	cases, err := conformance.LoadAll("../testdata/conformance", "../testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt, err := host.OpenExtismABI(ctx, host.Options{WasmPath: testWasm, CacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	sdk, err := extism.NewCompiledPlugin(ctx, extism.Manifest{Wasm: []extism.Wasm{extism.WasmFile{Path: testWasm}}},
		extism.PluginConfig{EnableWasi: true}, []extism.HostFunction{noLLM()})
	if err != nil {
		t.Fatal(err)
	}
	defer sdk.Close(ctx)
	n := 0
	for _, c := range cases {
		if c.LLM != nil {
			continue
		}
		n++
		t.Run(c.ID(), func(t *testing.T) {
			native, err := conformance.Run(c, engine.New())
			if err != nil {
				t.Fatal(err)
			}
			in, err := rt.NewInstance(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close(ctx)
			p, err := sdk.Instance(ctx, extism.PluginInstanceConfig{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(ctx)
			for name, caller := range map[string]engine.Caller{"extism-abi": in, "go-sdk": sdkCaller{p}} {
				got, err := conformance.Run(c, caller)
				if err != nil {
					t.Fatal(name, err)
				}
				if !bytes.Equal(got.Output, native.Output) || got.Err != native.Err || !bytes.Equal(got.State, native.State) {
					t.Fatalf("%s and native differ:\n%s: %s %s\nnative: %s %s", name, name, got.Output, got.Err, native.Output, native.Err)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no cases")
	}
}

// sdkCaller calls the module through go-sdk.
type sdkCaller struct{ p *extism.Plugin }

func (s sdkCaller) Call(export string, input []byte) ([]byte, error) {
	if !s.p.FunctionExists(export) {
		return nil, errors.New(`engine: unknown export "` + export + `"`)
	}
	_, out, err := s.p.Call(export, input)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), out...), nil
}

// noLLM is an llm_complete for go-sdk that answers every request with an
// error, as a host without a model does.
func noLLM() extism.HostFunction {
	return extism.NewHostFunctionWithStack("llm_complete", func(ctx context.Context, p *extism.CurrentPlugin, stack []uint64) {
		b, _ := json.Marshal(llm.Response{Error: "no LLM configured in this host"})
		off, err := p.WriteBytes(b)
		if err != nil {
			panic(err)
		}
		stack[0] = off
	}, []extism.ValueType{extism.ValueTypeI64}, []extism.ValueType{extism.ValueTypeI64})
}
