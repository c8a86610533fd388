package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
)

// siteFixture lays out a tiny web/ directory and a fake module.
func siteFixture(t *testing.T) (webDir, wasmPath string) {
	t.Helper()
	dir := t.TempDir()
	webDir = filepath.Join(dir, "web")
	files := map[string]string{
		"index.html":          "<!doctype html><title>recmem</title>",
		"app/main.js":         "export const x = 1;",
		"style.css":           "body{}",
		"catalog/demo.json":   `{"items":[]}`,
		"test/secret.mjs":     "no",
		"package.json":        "{}",
		".env":                "no",
		"node_modules/x/a.js": "no",
		"node_modules/@extism/extism/dist/browser/mod.js": "export default 1;",
	}
	for name, body := range files {
		p := filepath.Join(webDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wasmPath = filepath.Join(dir, "plugin.wasm")
	if err := os.WriteFile(wasmPath, []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	return webDir, wasmPath
}

func TestSiteHandler(t *testing.T) {
	webDir, wasmPath := siteFixture(t)
	srv := httptest.NewServer(newSiteHandler(webDir, wasmPath))
	defer srv.Close()
	cases := []struct {
		path, status, ctype, body string
	}{
		{"/", "200", "text/html", "<title>recmem</title>"},
		{"/app/main.js", "200", "text/javascript", "export const x"},
		{"/style.css", "200", "text/css", "body"},
		{"/catalog/demo.json", "200", "application/json", "items"},
		{"/out/plugin.wasm", "200", "application/wasm", "\x00asm"},
		{"/node_modules/@extism/extism/dist/browser/mod.js", "200", "text/javascript", "export default"},
		{"/node_modules/x/a.js", "404", "", ""},
		{"/test/secret.mjs", "404", "", ""},
		{"/package.json", "404", "", ""},
		{"/.env", "404", "", ""},
		{"/app/", "404", "", ""},
		{"/app/../.env", "404", "", ""},
		{"/missing.js", "404", "", ""},
	}
	for _, c := range cases {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := resp.Status[:3]; got != c.status {
			t.Errorf("%s: status %s, want %s", c.path, resp.Status, c.status)
			continue
		}
		if c.status != "200" {
			continue
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, c.ctype) {
			t.Errorf("%s: Content-Type %q, want %q", c.path, ct, c.ctype)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", c.path, cc)
		}
		if !strings.Contains(string(body), c.body) {
			t.Errorf("%s: body %q lacks %q", c.path, body, c.body)
		}
	}
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", resp.StatusCode)
	}
}

// syncBuffer is a bytes buffer safe to read while the server writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServePrintsURLAndShutsDown(t *testing.T) {
	webDir, wasmPath := siteFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, "127.0.0.1:0", webDir, wasmPath, &out) }()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(5 * time.Second); url == "" && time.Now().Before(deadline); {
		url = re.FindString(out.String())
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("no URL printed: %q", out.String())
	}
	resp, err := http.Get(url + "out/plugin.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/wasm" {
		t.Errorf("Content-Type %q", ct)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("no stop message: %q", out.String())
	}
}

func TestServeErrors(t *testing.T) {
	webDir, wasmPath := siteFixture(t)
	if err := serve(context.Background(), "127.0.0.1:0", t.TempDir(), wasmPath, io.Discard); err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("empty web dir: %v", err)
	}
	if err := serve(context.Background(), "127.0.0.1:0", webDir, filepath.Join(t.TempDir(), "none.wasm"), io.Discard); err == nil {
		t.Error("missing module: no error")
	}
	if code := runServe([]string{"extra"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
}

func TestFindWebFromWorkingDirectory(t *testing.T) {
	webDir, _ := siteFixture(t)
	sub := filepath.Join(filepath.Dir(webDir), "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	got, err := findWeb()
	if err != nil {
		t.Fatal(err)
	}
	if got != webDir {
		t.Errorf("findWeb() = %q, want %q", got, webDir)
	}
}

func TestReadSealKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	good := write("good", strings.Repeat("k", 32)+"\n")
	if key, err := readSealKey(good); err != nil || string(key) != strings.Repeat("k", 32) {
		t.Errorf("a 32-byte key with a newline: %q %v", key, err)
	}
	if _, err := readSealKey(write("short", "abc\n")); err == nil || !strings.Contains(err.Error(), "the key is 3 bytes, fewer than 32") {
		t.Errorf("a short key: %v", err)
	}
	if _, err := readSealKey(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file: no error")
	}
	var stderr strings.Builder
	if code := runServe([]string{"--seal-key-file", filepath.Join(dir, "short")}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "--seal-key-file") {
		t.Errorf("a short key file: exit %d, %q", code, stderr.String())
	}
}

// TestServeSealsStates: recmem serve --seal-key-file tags the states of
// /v1 with their seal and refuses a state tagged with a plain checksum.
func TestServeSealsStates(t *testing.T) {
	webDir, _ := siteFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	go serveWith(ctx, serveConfig{addr: "127.0.0.1:0", web: webDir, wasm: testModule(t), sealKey: []byte(strings.Repeat("s", 32))}, &out)
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); {
		url = re.FindString(out.String())
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("no URL printed: %q", out.String())
	}
	resp, err := http.Post(url+"v1/record", "application/json", strings.NewReader(`{"input":{"signals":[{"user":"u","item":"a","action":"like","time":1}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	var r host.EdgeResponse
	json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if !strings.HasPrefix(r.Tag, "hmac-sha256:") {
		t.Fatalf("tag %q", r.Tag)
	}
	doc, _ := host.UnpackState(r.State, 1<<20)
	body, _ := json.Marshal(host.EdgeRequest{State: r.State, Tag: host.StateTag(doc)})
	resp, err = http.Post(url+"v1/get_memory", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 422 {
		t.Fatalf("a state with a plain checksum tag: %d", resp.StatusCode)
	}
}
