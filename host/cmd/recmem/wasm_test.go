package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	moduleOnce sync.Once
	modulePath string
	moduleErr  error
)

// testModule is the .wasm under test: $RECMEM_WASM (./build.sh test sets it
// to the fresh build), else a build of ./plugin made once per test binary.
func testModule(t *testing.T) string {
	t.Helper()
	moduleOnce.Do(func() {
		if p := os.Getenv("RECMEM_WASM"); p != "" {
			modulePath = p
			return
		}
		dir, err := os.MkdirTemp("", "recmem-cli-wasm")
		if err != nil {
			moduleErr = err
			return
		}
		modulePath = filepath.Join(dir, "plugin.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", modulePath, "./plugin")
		cmd.Dir = "../../.."
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			moduleErr = err
			t.Logf("%s", out)
		}
	})
	if moduleErr != nil {
		t.Fatal(moduleErr)
	}
	return modulePath
}
