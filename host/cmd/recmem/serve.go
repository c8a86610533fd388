package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/seal"
)

func init() {
	commands["serve"] = command{
		summary: "serve the web page and the module: recmem serve [--addr 127.0.0.1:8080]",
		run:     runServe,
	}
}

// extismBrowser is the only part of web/node_modules the server exposes: the
// self-contained ES module build of @extism/extism that the page imports.
const extismBrowser = "/node_modules/@extism/extism/dist/browser/"

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0 picks a free port)")
	web := fs.String("web", "", "the page's `DIR` (default: web/ beside bin/, else in the working directory or a parent)")
	wasm := fs.String("wasm", "", "the module's `FILE` (default: $RECMEM_WASM, else out/plugin.wasm found like web/)")
	catalog := fs.String("catalog", "", "catalog `FILE` loaded into every instance of the stateless API (/v1/), for rank")
	instances := fs.Int("instances", 0, "instances the stateless API runs at once (default: the cores)")
	warm := fs.Int("warm", 0, "instances the stateless API keeps warm, holding the states they served last: a request whose state has the tag of one skips the import (default: as many as --instances; -1: none)")
	baseTag := fs.Bool("base-tag", false, "let a request name its state by the tag this server answered with (\"base_tag\", and a \"delta\" to append) instead of sending it, answered from a warm instance holding it, else 409: the tag then works like a bearer token for that memory (docs/http.md)")
	maxExpansion := fs.Int("max-expansion", 6, "unpack a request's state or delta to at most `N` bytes a byte of its gzip, or 256 KiB, whichever is more, and refuse more with 413 before importing anything: the work of a request grows with the bytes it sends (docs/http.md; -1: no bound but the state limit)")
	sealKeyFile := fs.String("seal-key-file", "", "seal the stateless API's states with the key in `FILE` (at least 32 bytes; trailing whitespace is ignored): a state is then accepted only with the seal this server gave it (docs/http.md)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "recmem serve: unexpected argument", fs.Arg(0))
		return 2
	}
	if *maxExpansion == 0 || *maxExpansion < -1 {
		fmt.Fprintln(stderr, "recmem serve: --max-expansion: want at least 1 byte a byte, or -1 for no bound")
		return 2
	}
	if *baseTag && *warm < 0 {
		fmt.Fprintln(stderr, "recmem serve: --base-tag: a state is served by its tag only from a warm instance, and --warm -1 keeps none")
		return 2
	}
	var key []byte
	if *sealKeyFile != "" {
		var err error
		if key, err = readSealKey(*sealKeyFile); err != nil {
			fmt.Fprintln(stderr, "recmem serve: --seal-key-file:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serveWith(ctx, serveConfig{addr: *addr, web: *web, wasm: *wasm, catalog: *catalog, instances: *instances, warm: *warm, baseTag: *baseTag, maxExpansion: *maxExpansion, sealKey: key, errorLog: stderr}, stdout); err != nil {
		fmt.Fprintln(stderr, "recmem serve:", err)
		return 1
	}
	return 0
}

// serveConfig is what recmem serve serves.
type serveConfig struct {
	addr, web, wasm string
	catalog         string // optional catalog for the stateless API
	instances       int    // the API's pool size (0: the cores)
	warm            int    // warm instances (0: as many as instances, negative: none)
	baseTag         bool   // requests may name their state by tag (EdgeOptions.BaseTag)
	maxExpansion    int    // EdgeOptions.MaxExpansion (0: its default)
	sealKey         []byte // seals the API's states (nil: tags are plain checksums)
	errorLog        io.Writer
}

// readSealKey reads a seal key file: its bytes without trailing whitespace,
// at least seal.MinKeyLen of them.
func readSealKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key := bytes.TrimRight(b, " \t\r\n")
	if err := seal.CheckKey(key); err != nil {
		return nil, fmt.Errorf("%s: %w (make one with: head -c 32 /dev/urandom | base64 > %s)", path, err, path)
	}
	return key, nil
}

// serve listens on addr and serves the page until ctx is done, then shuts down
// gracefully, letting requests in flight finish for up to five seconds.
func serve(ctx context.Context, addr, webDir, wasmPath string, stdout io.Writer) error {
	return serveWith(ctx, serveConfig{addr: addr, web: webDir, wasm: wasmPath}, stdout)
}

// serveWith serves the page at / and the stateless API at /v1/ (docs/http.md).
func serveWith(ctx context.Context, cfg serveConfig, stdout io.Writer) error {
	addr, webDir, wasmPath := cfg.addr, cfg.web, cfg.wasm
	var err error
	if webDir == "" {
		if webDir, err = findWeb(); err != nil {
			return err
		}
	}
	if st, err := os.Stat(filepath.Join(webDir, "index.html")); err != nil || st.IsDir() {
		return fmt.Errorf("%s has no index.html", webDir)
	}
	if wasmPath == "" {
		if wasmPath, err = host.FindWasm(); err != nil {
			return err
		}
	}
	if _, err := os.Stat(wasmPath); err != nil {
		return err
	}
	var cat []byte
	if cfg.catalog != "" {
		if cat, err = os.ReadFile(cfg.catalog); err != nil {
			return err
		}
	}
	client, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: wasmPath}, Instances: cfg.instances, Warm: cfg.warm, Catalog: cat, SealKey: cfg.sealKey})
	if err != nil {
		return err
	}
	defer client.Close(context.Background())
	mux := http.NewServeMux()
	var errLog *log.Logger
	if cfg.errorLog != nil {
		errLog = log.New(cfg.errorLog, "", log.LstdFlags)
	}
	mux.Handle("/v1/", host.NewEdgeHandler(client, host.EdgeOptions{ErrorLog: errLog, BaseTag: cfg.baseTag, MaxExpansion: cfg.maxExpansion}))
	mux.Handle("/", newSiteHandler(webDir, wasmPath))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stdout, "recmem serve: http://%s/ (web %s, module %s); stateless API at /v1/<export>; Ctrl-C stops\n", ln.Addr(), webDir, wasmPath)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	fmt.Fprintln(stdout, "recmem serve: stopped")
	return err
}

// newSiteHandler serves webDir at /, wasmPath at /out/plugin.wasm, and of
// webDir/node_modules only the @extism/extism browser build. Tests, dot files
// and the rest of node_modules are not served. Every response says
// "Cache-Control: no-cache", so a rebuilt module or page is picked up at the
// next load while unchanged files still revalidate cheaply (Last-Modified).
func newSiteHandler(webDir, wasmPath string) http.Handler {
	files := http.FileServer(http.Dir(webDir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if p == "/out/plugin.wasm" {
			f, err := os.Open(wasmPath)
			if err != nil {
				http.Error(w, "module not found", http.StatusNotFound)
				return
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/wasm")
			http.ServeContent(w, r, "plugin.wasm", st.ModTime(), f)
			return
		}
		if hidden(p) || (p != "/" && strings.HasSuffix(r.URL.Path, "/")) { // no directory listings
			http.NotFound(w, r)
			return
		}
		if ct := contentType(p); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		files.ServeHTTP(w, r)
	})
}

// hidden reports whether a cleaned URL path must not be served.
func hidden(p string) bool {
	if strings.HasPrefix(p, "/node_modules/") || p == "/node_modules" {
		return !strings.HasPrefix(p, extismBrowser)
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	switch first {
	case "test", "e2e", "test-results", "package.json", "package-lock.json":
		return true
	}
	return false
}

// contentType fixes the types that matter to a browser, independently of the
// machine's MIME tables: ES modules must be JavaScript, the module wasm.
func contentType(p string) string {
	switch path.Ext(p) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".wasm":
		return "application/wasm"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	}
	return ""
}

// findWeb locates the page: web/ beside the executable's parent directory
// (bin/recmem -> web/), then web/ in the working directory or a parent.
func findWeb() (string, error) {
	var tried []string
	ok := func(dir string) bool {
		tried = append(tried, dir)
		st, err := os.Stat(filepath.Join(dir, "index.html"))
		return err == nil && !st.IsDir()
	}
	if exe, err := os.Executable(); err == nil {
		if d := filepath.Join(filepath.Dir(filepath.Dir(exe)), "web"); ok(d) {
			return d, nil
		}
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if d := filepath.Join(dir, "web"); ok(d) {
				return d, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", fmt.Errorf("web/index.html not found (use --web DIR); looked in %v", tried)
}
