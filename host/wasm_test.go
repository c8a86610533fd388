package host_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/recmem/recmem/host"
)

// testWasm is the module under test: $RECMEM_WASM when set (./build.sh test
// sets it to the freshly built out/plugin.wasm), else a build of ./plugin made
// once for this test binary, so a test never runs a stale module.
var testWasm string

func TestMain(m *testing.M) {
	code, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code(m))
}

func setup() (func(*testing.M) int, error) {
	if p := os.Getenv("RECMEM_WASM"); p != "" {
		testWasm = p
		return (*testing.M).Run, nil
	}
	dir, err := os.MkdirTemp("", "recmem-wasm")
	if err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "plugin.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./plugin")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building plugin for tests: %v\n%s", err, b)
	}
	testWasm = out
	// The examples open the module the way a user would, by FindWasm.
	os.Setenv("RECMEM_WASM", out)
	return func(m *testing.M) int {
		defer os.RemoveAll(dir)
		return m.Run()
	}, nil
}

// openRuntime compiles the module under test with a per-test cache directory.
func openRuntime(t testing.TB) *host.Runtime {
	t.Helper()
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-"+runtime.GOARCH)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(ctx) })
	return rt
}
