package host_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
)

// TestPhasesThroughThePlugin: with Options.Phases the module times a call's
// phases with the WASI clock the host gives it; without, it answers none.
func TestPhasesThroughThePlugin(t *testing.T) {
	ctx := context.Background()
	for _, on := range []bool{false, true} {
		rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, Phases: on,
			CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-"+runtime.GOARCH)})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close(ctx)
		in, err := rt.NewInstance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close(ctx)
		if _, err := in.Call("add_units", []byte(`{"units":[{"id":"u1","session":"s1","speaker":"Ann","text":"The pottery class moved to Thursday."}]}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := in.Call("select_slate", []byte(`{"query":"When is the pottery class?"}`)); err != nil {
			t.Fatal(err)
		}
		got, err := engine.Phases.Call(in, struct{}{})
		if err != nil {
			t.Fatal(err)
		}
		if !on {
			if got.Export != "" || len(got.Phases) != 0 {
				t.Errorf("phases without the config: %+v", got)
			}
			continue
		}
		var total int64
		for _, p := range got.Phases {
			total += p.Ns
		}
		if got.Export != "select_slate" || len(got.Phases) != 18 || got.Phases[0].Name != "decode" || total <= 0 {
			t.Errorf("phases of a selection: %+v", got)
		}
	}
}
