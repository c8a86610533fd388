package host_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
)

// TestCallTimeout: a call that runs past the host's per-call timeout is cut
// off with an error, and the host goes on.
func TestCallTimeout(t *testing.T) {
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(t.TempDir(), "c"), Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var units []string
	for i := range 3000 {
		units = append(units, fmt.Sprintf(`{"id":"u%d","session":"s%d","speaker":"Ana","text":"turn %d about pottery classes moving from Tuesday to Thursday and marathon training"}`, i, i/20, i))
	}
	_, err = in.Call("add_units", []byte(`{"units":[`+strings.Join(units, ",")+`]}`))
	if err == nil {
		// Adding 3,000 units may fit in 50 ms on a fast machine; selecting
		// from them many times cannot.
		for range 200 {
			if _, err = in.Call("select_slate", []byte(`{"query":"when is the pottery class now","budget":2000}`)); err != nil {
				break
			}
		}
		if err == nil {
			t.Fatal("200 selections over 3,000 units never hit a 50 ms timeout")
		}
	}
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("want a deadline error, got %v", err)
	}
	t.Logf("past the timeout: %v", err)
	// The runtime still serves new instances.
	in2, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatalf("after a timeout: %v", err)
	}
	in2.Close(ctx)
}

// TestMemoryCap: an instance may not grow past the host's page cap; a call
// that needs more fails with an error instead of taking the host's memory.
func TestMemoryCap(t *testing.T) {
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(t.TempDir(), "c"), MaxPages: 400}) // 25 MiB
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 60_000)
	var units []string
	for i := range 250 { // about 15 MB of text, copied several times while decoding
		units = append(units, fmt.Sprintf(`{"id":"u%d","session":"s","text":"%s"}`, i, big))
	}
	_, err = in.Call("add_units", []byte(`{"units":[`+strings.Join(units, ",")+`]}`))
	if err == nil {
		t.Fatal("a call needing more than the page cap succeeded")
	}
	t.Logf("over the cap: %v", err)
	in2, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatalf("after hitting the cap: %v", err)
	}
	if _, err := in2.Call("exports", nil); err != nil {
		t.Fatal(err)
	}
	in2.Close(ctx)
}
