package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/llm"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
)

// TestConformance runs every conformance case through the Go host on the
// .wasm module, holding it to the same bytes as the native run, and checks
// that the module's outputs equal the native engine's, case by case.
func TestConformance(t *testing.T) {
	cases, err := conformance.LoadAll("../testdata/conformance", "../testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plain := openRuntime(t)
	// Cases with a scripted LLM run on a runtime whose llm_complete answers
	// from the current case's script, one runtime per set of LLM steps.
	script := &switchableLLM{}
	scripted := map[string]*host.Runtime{}
	parent := t
	for _, c := range cases {
		t.Run(c.ID(), func(t *testing.T) {
			rt := plain
			if c.LLM != nil {
				key := strings.Join(c.LLM.Steps, ",")
				if scripted[key] == nil {
					r, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache"), LLM: script, LLMSteps: c.LLM.Steps})
					if err != nil {
						t.Fatal(err)
					}
					parent.Cleanup(func() { r.Close(ctx) })
					scripted[key] = r
				}
				rt = scripted[key]
				script.set(c.LLM)
			}
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
			e := engine.New()
			if c.LLM != nil {
				e.SetLLM(c.LLM, c.LLM.Steps)
			}
			native, err := conformance.Run(c, e)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Output, native.Output) || got.Err != native.Err || !bytes.Equal(got.State, native.State) {
				t.Fatalf("wasm and native differ:\nwasm:   %s %s\nnative: %s %s", got.Output, got.Err, native.Output, native.Err)
			}
		})
	}
	t.Logf("%d conformance and hostile cases through the Go host", len(cases))
}

// switchableLLM answers llm_complete from the script of the case running now.
type switchableLLM struct {
	mu sync.Mutex
	s  *conformance.LLMScript
}

func (l *switchableLLM) set(s *conformance.LLMScript) {
	l.mu.Lock()
	l.s = s
	l.mu.Unlock()
}

func (l *switchableLLM) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	l.mu.Lock()
	s := l.s
	l.mu.Unlock()
	return s.Complete(context.Background(), r)
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
	for _, name := range engine.Names() {
		if _, err := in.Call(name, []byte("{")); err != nil && err.Error() == `engine: unknown export "`+name+`"` {
			t.Errorf("engine export %q has no wasm export in plugin/", name)
		}
	}
}
