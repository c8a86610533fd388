package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
)

// unitsState is the state document of a memory holding n short agent-memory
// units, built natively (the most instance memory per document byte, see
// docs/limits.md).
func unitsState(t testing.TB, n int) []byte {
	t.Helper()
	e := engine.New()
	const batch = 5000
	for i := 0; i < n; i += batch {
		b := []byte(`{"units":[`)
		for j := i; j < min(n, i+batch); j++ {
			if j > i {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `{"id":"u%d","session":"s%d","speaker":"Ana","text":"turn %d about pottery classes and marathon training"}`, j, j/20, j)
		}
		b = append(b, `]}`...)
		if _, err := e.Call("add_units", b); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := e.Call("export_state", nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestHammerLargeStates replays the integrator's crash (issue 17, item 1) at
// a smaller scale: one instance with a 64 MiB memory cap is sent the same
// large state many times in a row, the way one instance of `recmem serve`
// with a 512 MiB cap was sent a 30,000-unit state 12 times. Every request
// must succeed; an instance must never be reused after a trap; a state too
// large to serve is refused with 413 before any import; a trap answers 500
// with a plain message. Concurrent requests run too, under -race
// (build.sh runs -run TestHammer with -race).
func TestHammerLargeStates(t *testing.T) {
	ctx := context.Background()
	const pages = 1024 // 64 MiB
	c, err := host.NewClient(ctx, host.ClientOptions{
		Options:   host.Options{WasmPath: testWasm, CacheDir: filepath.Join(t.TempDir(), "c"), MaxPages: pages},
		Instances: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	// No bound on unpacking (its states of near-identical units pack 16 to
	// 1): the instance's memory is what this test presses on.
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{MaxExpansion: -1}))
	defer srv.Close()

	doc := unitsState(t, 3000) // 0.34 MB, about 25 MB of instance memory to import
	req := host.EdgeRequest{State: host.PackState(doc), Tag: host.StateTag(doc), Input: json.RawMessage(`{"journal_limit":1}`)}
	for i := range 12 {
		code, body := post(t, srv.URL+"/v1/get_memory", req)
		if code != 200 {
			t.Fatalf("request %d: %d %.300s", i+1, code, body)
		}
	}

	big := unitsState(t, 10000) // 1.1 MB: more than a 64 MiB instance can import
	code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{State: host.PackState(big), Tag: host.StateTag(big)})
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "nothing was imported") {
		t.Fatalf("a state too large to serve: %d %.300s", code, body)
	}

	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				if code, body := post(t, srv.URL+"/v1/get_memory", req); code != 200 {
					errs <- fmt.Sprintf("worker %d: %d %.200s", w, code, body)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestTrapDiscardsTheInstance: a call that traps (here: an import larger
// than the instance's memory cap, let through by a raised state limit)
// answers 500 with a plain message, and the next request runs on a new
// instance instead of faulting the host.
func TestTrapDiscardsTheInstance(t *testing.T) {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{
		Options:   host.Options{WasmPath: testWasm, CacheDir: filepath.Join(t.TempDir(), "c"), MaxPages: 400}, // 25 MiB
		Instances: 1,
		MaxState:  64 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	// No bound on unpacking: the state of 5,000 identical-looking units
	// packs 18 to 1.
	srv := httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{MaxExpansion: -1}))
	defer srv.Close()
	big := unitsState(t, 5000)
	code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{State: host.PackState(big), Tag: host.StateTag(big)})
	var e host.EdgeError
	json.Unmarshal(body, &e)
	if code != 500 || strings.Contains(e.Error.Message, "wasm") || !strings.Contains(e.Error.Message, "instance was discarded") {
		t.Fatalf("a trap: %d %s", code, body)
	}
	for i := range 3 {
		if code, body := post(t, srv.URL+"/v1/get_memory", host.EdgeRequest{}); code != 200 {
			t.Fatalf("request %d after the trap: %d %.300s", i+1, code, body)
		}
	}
}
