// Package host runs the recmem WebAssembly module on wazero through the Extism
// Go SDK. Compile the module once with Open, then take one Instance per
// goroutine: an Instance holds one user's state and is not safe for concurrent
// use, while a Runtime is.
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"

	hostllm "github.com/recmem/recmem/host/llm"
)

// Options configure a Runtime. The zero value of every field means its
// documented default.
type Options struct {
	// Wasm is the module's bytes. When nil, WasmPath is read; when that is empty
	// too, FindWasm locates out/plugin.wasm.
	Wasm     []byte
	WasmPath string
	// CacheDir holds wazero's compiled-code cache, so a second start skips
	// compilation (about 2 s down to about 0.2 s). Empty means DefaultCacheDir();
	// "-" disables the disk cache.
	CacheDir string
	// MaxPages caps each instance's linear memory in 64 KiB pages
	// (default 8192 = 512 MiB).
	MaxPages uint32
	// Timeout bounds every call into the module (default 30 s).
	Timeout time.Duration
	// LLM answers the module's llm_complete calls (docs/llm.md). Nil means
	// no LLM: every LLM step gets an error answer and runs its LLM-free
	// policy. Which steps ask the LLM at all is LLMSteps.
	LLM hostllm.Completer
	// LLMSteps lists the steps that use the LLM: any of extract, plan,
	// synthesize, rank. Empty means none (the LLM-free defaults). It reaches
	// the module as the manifest config key "llm_steps".
	LLMSteps []string
	// Functions are extra host functions offered to the module.
	Functions []extism.HostFunction
}

const (
	defaultMaxPages = 8192
	defaultTimeout  = 30 * time.Second
)

// Runtime is a compiled recmem module. It is safe for concurrent use.
type Runtime struct {
	compiled *extism.CompiledPlugin
	cache    wazero.CompilationCache
	wasmSize int
}

// Open compiles the module (or loads it from the cache directory).
func Open(ctx context.Context, opts Options) (*Runtime, error) {
	wasm := opts.Wasm
	if wasm == nil {
		path := opts.WasmPath
		if path == "" {
			var err error
			if path, err = FindWasm(); err != nil {
				return nil, err
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("host: reading module: %w", err)
		}
		wasm = b
	}
	maxPages := opts.MaxPages
	if maxPages == 0 {
		maxPages = defaultMaxPages
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = defaultTimeout
	}
	rc := wazero.NewRuntimeConfig()
	var cache wazero.CompilationCache
	if opts.CacheDir != "-" {
		dir := opts.CacheDir
		if dir == "" {
			dir = DefaultCacheDir()
		}
		if dir != "" {
			c, err := wazero.NewCompilationCacheWithDir(dir)
			if err != nil {
				return nil, fmt.Errorf("host: compilation cache %s: %w", dir, err)
			}
			cache = c
			rc = rc.WithCompilationCache(c)
		}
	}
	manifest := extism.Manifest{
		Wasm:    []extism.Wasm{extism.WasmData{Data: wasm, Name: "main"}},
		Memory:  &extism.ManifestMemory{MaxPages: maxPages},
		Timeout: uint64(timeout / time.Millisecond),
	}
	if len(opts.LLMSteps) > 0 {
		manifest.Config = map[string]string{"llm_steps": strings.Join(opts.LLMSteps, ",")}
	}
	funcs := append([]extism.HostFunction{llmFunction(opts.LLM)}, opts.Functions...)
	compiled, err := extism.NewCompiledPlugin(ctx, manifest, extism.PluginConfig{
		EnableWasi:    true,
		RuntimeConfig: rc,
	}, funcs)
	if err != nil {
		if cache != nil {
			cache.Close(ctx)
		}
		return nil, fmt.Errorf("host: compiling module: %w", err)
	}
	return &Runtime{compiled: compiled, cache: cache, wasmSize: len(wasm)}, nil
}

// WasmSize is the size of the module in bytes.
func (r *Runtime) WasmSize() int { return r.wasmSize }

// Close releases the compiled module and the cache handle.
func (r *Runtime) Close(ctx context.Context) error {
	err := r.compiled.Close(ctx)
	if r.cache != nil {
		err = errors.Join(err, r.cache.Close(ctx))
	}
	return err
}

// Instance is one module instance holding one user's state. Not safe for
// concurrent use.
type Instance struct {
	p *extism.Plugin
}

// NewInstance instantiates the module and runs its initialisation, so the first
// real call does not pay for it.
func (r *Runtime) NewInstance(ctx context.Context) (*Instance, error) {
	p, err := r.compiled.Instance(ctx, extism.PluginInstanceConfig{
		ModuleConfig: wazero.NewModuleConfig().WithSysWalltime().WithSysNanotime(),
	})
	if err != nil {
		return nil, fmt.Errorf("host: instantiating module: %w", err)
	}
	in := &Instance{p: p}
	// The Go reactor's _initialize runs lazily at the first call; pay it here.
	if _, err := in.CallContext(ctx, "exports", nil); err != nil {
		p.Close(ctx)
		return nil, fmt.Errorf("host: first call: %w", err)
	}
	return in, nil
}

// Call runs an export with a background context.
func (i *Instance) Call(export string, input []byte) ([]byte, error) {
	return i.CallContext(context.Background(), export, input)
}

// CallContext runs an export. The error of a failed export is the module's own
// message, unchanged.
func (i *Instance) CallContext(ctx context.Context, export string, input []byte) ([]byte, error) {
	if !i.p.FunctionExists(export) {
		return nil, fmt.Errorf("engine: unknown export %q", export)
	}
	_, out, err := i.p.CallWithContext(ctx, export, input)
	if err != nil {
		return nil, err
	}
	// The SDK's output buffer is reused by the next call.
	return append([]byte(nil), out...), nil
}

// Close frees the instance.
func (i *Instance) Close(ctx context.Context) error { return i.p.Close(ctx) }

// DefaultCacheDir is $RECMEM_CACHE_DIR, else the user cache directory's
// recmem/wazero folder, else "" (no disk cache).
func DefaultCacheDir() string {
	if d := os.Getenv("RECMEM_CACHE_DIR"); d != "" {
		return d
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "recmem", "wazero")
}

// FindWasm locates the module: $RECMEM_WASM, then out/plugin.wasm beside the
// executable's parent directory, then out/plugin.wasm in the working directory
// or any of its parents.
func FindWasm() (string, error) {
	if p := os.Getenv("RECMEM_WASM"); p != "" {
		return p, nil
	}
	var tried []string
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(filepath.Dir(exe)), "out", "plugin.wasm")
		if fileExists(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			p := filepath.Join(dir, "out", "plugin.wasm")
			if fileExists(p) {
				return p, nil
			}
			tried = append(tried, p)
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", fmt.Errorf("host: plugin.wasm not found (run ./build.sh, or set RECMEM_WASM); looked in %v", tried)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
