// Package host runs the recmem WebAssembly module on wazero. Compile the
// module once with Open, then take one Instance per goroutine: an Instance
// holds one user's state and is not safe for concurrent use, while a Runtime
// is.
//
// The module is a standard Extism plugin (go-pdk), which the JavaScript SDK
// and go-sdk run as well. This host implements the Extism host ABI itself
// (kernel.go) on bare wazero and calls the module's exports through
// function handles it keeps, with recmem's direct input and output
// (plugin/direct.go): an empty call costs a few microseconds instead of the
// ~150 µs of go-sdk, which looks up and allocates every kernel function anew
// on each call.
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/recmem/recmem/pkg/llm"
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
	// (default 8192 = 512 MiB). A call that needs more traps, and its
	// instance is discarded (see TrapError).
	MaxPages uint32
	// RecycleBytes is the memory budget of a pooled instance: one whose
	// linear memory has grown past it is closed when it is released, and the
	// pool makes a new one, because linear memory never shrinks. The default,
	// 0, is half of MaxPages (256 MiB), which leaves the next request at
	// least as much room to grow again.
	RecycleBytes int64
	// Timeout, when positive, bounds every call into the module: a call that
	// runs out of time fails and closes its instance, wherever it is. The
	// default, 0, sets no such bound, because interrupting a call anywhere
	// needs termination checks compiled into every loop and function entry
	// of the module, which makes Go's WebAssembly code run 4 to 10 times
	// slower under wazero (measured: an export that encodes a small JSON
	// object, 21 µs without, 105 µs with; importing the binary state of
	// 2,000 LoCoMo turns, 32 ms without, 158 ms with).
	//
	// Without it, a call whose context has a deadline (CallContext) is still
	// cut off past that deadline at the module's next clock reading: Go's
	// runtime reads the clock at every garbage collection, every few
	// milliseconds of an allocating call (measured: every 3 to 7 ms while
	// importing a state), so a long import or call is stopped soon after
	// its deadline and its instance discarded, at no cost to calls that
	// finish in time. A call that reads no clock runs to its end, fails
	// then, and its instance is discarded too.
	Timeout time.Duration
	// LLM answers the module's llm_complete calls (docs/llm.md). Nil means
	// no LLM: every LLM step gets an error answer and runs its LLM-free
	// policy. Which steps ask the LLM at all is LLMSteps.
	LLM llm.Completer
	// LLMSteps lists the steps that use the LLM: any of extract, plan,
	// synthesize, rank. Empty means the steps measured to help with
	// LLMModel (llm.ForModel), and none when LLMModel is empty or was never
	// measured. It reaches the module as the manifest config key "llm_steps".
	LLMSteps []string
	// LLMModel names the model the LLM runs (an endpoint's model id, a GGUF
	// file, a recording's source): it chooses the prompt profile, the
	// default steps and the weight of the model's ranking (llm.ForModel).
	// It reaches the module as the config key "llm_model".
	LLMModel string
	// LLMRankWeight, when set, overrides the model's rank weight (a fitting
	// run sets it); config key "llm_rank_weight".
	LLMRankWeight *float64
	// Functions are extra host functions offered to the module in the
	// "extism:host/user" namespace.
	Functions []HostFunction
	// Phases gives the module a clock (the manifest config "phases": "on")
	// to time the phases of each call, which the phases export then
	// answers (docs/phases.md). Off by default: the module then reads no
	// clock.
	Phases bool
	// Nanotime, when set, is the module's monotonic clock (WASI's
	// clock_time_get for CLOCK_MONOTONIC) instead of the host's: host/bench
	// passes the calling thread's CPU time, so that the phases of a call
	// count its own work on a machine other processes load. It must never
	// decrease for the instances' calls (a thread's CPU time does not while
	// every call runs on that thread).
	Nanotime func() int64
}

// HostFunction is a function the module may import from "extism:host/user"
// with the signature (i64) -> i64 of llm_complete: it receives the bytes of
// the Extism memory block the module passes and answers the bytes of the
// block it returns. An error fails the module's call with its message.
type HostFunction struct {
	Name string
	Fn   func(ctx context.Context, in []byte) ([]byte, error)
}

const (
	defaultMaxPages = 8192
	// kernelLimit caps the bytes one call may keep in Extism memory blocks
	// (inputs, outputs and host-function messages of the standard path).
	kernelLimit = 256 << 20
)

// Runtime is a compiled recmem module. It is safe for concurrent use.
type Runtime struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	wasmSize int
	timeout  time.Duration
	maxBytes int64 // MaxPages in bytes
	recycle  int64 // Options.RecycleBytes, resolved
	config   map[string]string
	exports  map[string]bool // the module's exports that take no argument and return an i32
	direct   bool            // the module has recmem_input and recmem_output
	// extismABI forces the standard Extism input and output (tests).
	extismABI bool
	nanotime  func() int64 // Options.Nanotime
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
	// Interrupting a running call needs termination checks compiled into
	// every loop and function entry of the module: only with a timeout.
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(opts.Timeout > 0).WithMemoryLimitPages(maxPages)
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
	r := &Runtime{rt: wazero.NewRuntimeWithConfig(ctx, rc), cache: cache, wasmSize: len(wasm),
		timeout: timeout, config: map[string]string{}, exports: map[string]bool{},
		maxBytes: int64(maxPages) << 16, recycle: opts.RecycleBytes, nanotime: opts.Nanotime}
	if r.recycle <= 0 {
		r.recycle = r.maxBytes / 2
	}
	if len(opts.LLMSteps) > 0 {
		r.config["llm_steps"] = strings.Join(opts.LLMSteps, ",")
	}
	if opts.LLMModel != "" {
		r.config["llm_model"] = opts.LLMModel
	}
	if opts.LLMRankWeight != nil {
		r.config["llm_rank_weight"] = strconv.FormatFloat(*opts.LLMRankWeight, 'g', -1, 64)
	}
	if opts.Phases {
		r.config["phases"] = "on"
	}
	fail := func(err error) (*Runtime, error) {
		r.Close(ctx)
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, r.rt); err != nil {
		return fail(fmt.Errorf("host: WASI: %w", err))
	}
	if err := instantiateKernel(ctx, r.rt); err != nil {
		return fail(fmt.Errorf("host: Extism kernel: %w", err))
	}
	user := r.rt.NewHostModuleBuilder("extism:host/user")
	for _, f := range append([]HostFunction{llmFunction(opts.LLM)}, opts.Functions...) {
		addUserFunction(user, f)
	}
	if _, err := user.Instantiate(ctx); err != nil {
		return fail(fmt.Errorf("host: host functions: %w", err))
	}
	compiled, err := r.rt.CompileModule(ctx, wasm)
	if err != nil {
		return fail(fmt.Errorf("host: compiling module: %w", err))
	}
	r.compiled = compiled
	for name, def := range compiled.ExportedFunctions() {
		if len(def.ParamTypes()) == 0 && len(def.ResultTypes()) == 1 && def.ResultTypes()[0] == api.ValueTypeI32 &&
			name != "_initialize" && !strings.HasPrefix(name, "recmem_") {
			r.exports[name] = true
		}
	}
	_, hasIn := compiled.ExportedFunctions()["recmem_input"]
	_, hasOut := compiled.ExportedFunctions()["recmem_output"]
	r.direct = hasIn && hasOut
	return r, nil
}

// addUserFunction adds f to the "extism:host/user" module: it reads the
// block the module passes, runs f, and returns the offset of a block holding
// the answer.
func addUserFunction(b wazero.HostModuleBuilder, f HostFunction) {
	fn := f
	b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
		k := kernelOf(ctx)
		in, err := k.block(stack[0])
		if err != nil {
			panic(fmt.Errorf("%s: %w", fn.Name, err))
		}
		out, err := fn.Fn(ctx, append([]byte(nil), in...))
		if err != nil {
			panic(fmt.Errorf("%s: %w", fn.Name, err))
		}
		off := k.write(out)
		if off == 0 {
			panic(fmt.Errorf("%s: %d-byte answer does not fit the module's memory blocks", fn.Name, len(out)))
		}
		stack[0] = off
	}), []api.ValueType{i64}, []api.ValueType{i64}).Export(fn.Name)
}

// WasmSize is the size of the module in bytes.
func (r *Runtime) WasmSize() int { return r.wasmSize }

// MaxMemory is the most linear memory one instance may have, in bytes
// (Options.MaxPages).
func (r *Runtime) MaxMemory() int64 { return r.maxBytes }

// Close releases the compiled module, every instance and the cache handle.
func (r *Runtime) Close(ctx context.Context) error {
	err := r.rt.Close(ctx)
	if r.cache != nil {
		err = errors.Join(err, r.cache.Close(ctx))
	}
	return err
}

// Instance is one module instance holding one user's state. Not safe for
// concurrent use.
type Instance struct {
	r       *Runtime
	mod     api.Module
	k       *kernel
	fns     map[string]api.Function // exports, looked up once
	in, out api.Function            // recmem_input, recmem_output (nil: standard Extism path)
	stack   []uint64
	calling string // the export of the call in progress, for TrapError
	// trap is the first trap of a call into the module (nil: none). The
	// module's runtime may be left in any state by a trap, so the instance
	// never runs another call: calling into it again can fault the host.
	trap *TrapError
	// takenAt and takenMem are when a pool handed the instance out, and its
	// memory then (Pool.Usage).
	takenAt  time.Time
	takenMem int
	// deadline is the wall-clock deadline of the call in progress, in unix
	// nanoseconds (0: none): the module's clock readings past it stop the
	// call (clock).
	deadline atomic.Int64
}

// errPastDeadline stops a call that reads the clock past its deadline.
var errPastDeadline = errors.New("the call passed its deadline")

// clock is the module's monotonic clock, which also stops the call in
// progress once its deadline has passed: the panic unwinds through wazero,
// which returns it as the call's error. Cost: a time.Now per reading.
func (i *Instance) clock() int64 {
	now := time.Now()
	if d := i.deadline.Load(); d != 0 && now.UnixNano() > d {
		panic(errPastDeadline)
	}
	if i.r.nanotime != nil {
		return i.r.nanotime() // Options.Nanotime: the bench's thread CPU time
	}
	return now.Sub(clockEpoch).Nanoseconds()
}

// wallClock is the module's wall clock, with clock's deadline.
func (i *Instance) wallClock() (int64, int32) {
	now := time.Now()
	if d := i.deadline.Load(); d != 0 && now.UnixNano() > d {
		panic(errPastDeadline)
	}
	return now.Unix(), int32(now.Nanosecond())
}

// clockEpoch is the origin of the instances' monotonic clock.
var clockEpoch = time.Now()

// TrapError is a call that did not return normally: the module trapped (out
// of memory, a runtime fault), a host function it called failed, or the
// call ran out of time. The instance is unusable afterwards (Instance.Trapped)
// and a Pool discards it; nothing the call did can be exported.
type TrapError struct {
	Export string
	// Cause is wazero's error, with the module's stack trace.
	Cause error
}

func (e *TrapError) Error() string {
	return fmt.Sprintf("host: the module failed while running %s and its instance was discarded: %v", e.Export, e.Cause)
}

func (e *TrapError) Unwrap() error { return e.Cause }

// ErrInstanceTrapped is the error of a call on an instance after a trap.
var ErrInstanceTrapped = errors.New("host: the instance trapped in an earlier call and runs nothing more")

// NewInstance instantiates the module, runs its initialisation (the Go
// reactor's _initialize) and a first call, so the first real call does not
// pay for them.
func (r *Runtime) NewInstance(ctx context.Context) (*Instance, error) {
	in := &Instance{r: r, k: newKernel(r.config, kernelLimit), fns: map[string]api.Function{}, stack: make([]uint64, 1)}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").
		WithWalltime(in.wallClock, sys.ClockResolution(time.Microsecond)).WithNanotime(in.clock, 1)
	ictx := experimental.WithMemoryAllocator(context.WithValue(ctx, kernelKey{}, in.k), memoryAllocator())
	mod, err := r.rt.InstantiateModule(ictx, r.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("host: instantiating module: %w", err)
	}
	in.mod = mod
	if r.direct && !r.extismABI {
		in.in, in.out = mod.ExportedFunction("recmem_input"), mod.ExportedFunction("recmem_output")
	}
	if _, err := in.CallContext(ctx, "exports", nil); err != nil {
		mod.Close(ctx)
		return nil, fmt.Errorf("host: first call: %w", err)
	}
	return in, nil
}

// Has reports whether the module has the export.
func (i *Instance) Has(export string) bool { return i.r.exports[export] }

// Call runs an export with a background context.
func (i *Instance) Call(export string, input []byte) ([]byte, error) {
	return i.CallContext(context.Background(), export, input)
}

// CallContext runs an export. The error of a failed export is the module's own
// message, unchanged. The output is the caller's to keep. A context that is
// already done starts no call; one that ends during the call interrupts it
// only when the Runtime has a Timeout (see Options.Timeout).
func (i *Instance) CallContext(ctx context.Context, export string, input []byte) ([]byte, error) {
	if !i.r.exports[export] {
		return nil, fmt.Errorf("engine: unknown export %q", export)
	}
	if i.trap != nil {
		return nil, fmt.Errorf("%w (%s)", ErrInstanceTrapped, i.trap.Export)
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a spent deadline starts no call
	}
	f := i.fns[export]
	if f == nil {
		f = i.mod.ExportedFunction(export)
		i.fns[export] = f
	}
	ctx = context.WithValue(ctx, kernelKey{}, i.k)
	i.calling = export
	if i.r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, i.r.timeout)
		defer cancel()
	}
	if d, ok := ctx.Deadline(); ok {
		i.deadline.Store(d.UnixNano())
		defer i.deadline.Store(0)
		out, err := i.callDirect(ctx, f, input)
		if err == nil && ctx.Err() != nil {
			// It ended past its deadline without reading the clock: the
			// caller is told it ran out of time, and the instance serves no
			// one again, as if it had been cut off.
			err = i.callError(ctx, errPastDeadline)
		}
		return out, err
	}
	return i.callDirect(ctx, f, input)
}

// callDirect runs an export through recmem's direct input and output, or
// the standard Extism ABI when the module lacks them.
func (i *Instance) callDirect(ctx context.Context, f api.Function, input []byte) ([]byte, error) {
	if i.in == nil {
		return i.callExtism(ctx, f, input)
	}
	i.k.reset(nil)
	i.stack[0] = uint64(len(input))
	if err := i.in.CallWithStack(ctx, i.stack); err != nil {
		return nil, i.callError(ctx, err)
	}
	if len(input) > 0 && !i.mod.Memory().Write(uint32(i.stack[0]), input) {
		return nil, i.callError(ctx, fmt.Errorf("input of %d bytes does not fit the module's memory", len(input)))
	}
	if err := f.CallWithStack(ctx, i.stack); err != nil {
		return nil, i.callError(ctx, err)
	}
	rc := uint32(i.stack[0])
	if err := i.out.CallWithStack(ctx, i.stack); err != nil {
		return nil, i.callError(ctx, err)
	}
	ptr, n := uint32(i.stack[0]>>32), uint32(i.stack[0])
	var out []byte
	if n > 0 {
		b, ok := i.mod.Memory().Read(ptr, n)
		if !ok {
			return nil, i.callError(ctx, fmt.Errorf("output [%d, +%d) is outside the module's memory", ptr, n))
		}
		out = append([]byte(nil), b...)
	}
	if rc != 0 {
		return nil, errors.New(string(out))
	}
	return out, nil
}

// callExtism runs an export through the standard Extism ABI: the input and
// the output go through the kernel's blocks.
func (i *Instance) callExtism(ctx context.Context, f api.Function, input []byte) ([]byte, error) {
	i.k.reset(input)
	if err := f.CallWithStack(ctx, i.stack); err != nil {
		return nil, i.callError(ctx, err)
	}
	if uint32(i.stack[0]) != 0 {
		msg, err := i.k.block(i.k.errOff)
		if err != nil {
			return nil, fmt.Errorf("host: the module failed without an error message (%v)", err)
		}
		return nil, errors.New(string(msg))
	}
	o := i.k.output
	if o.n == 0 {
		return []byte{}, nil
	}
	return append([]byte(nil), i.k.mem[o.off:o.off+o.n]...), nil
}

// callError records a trap or a timeout: the instance runs nothing more.
func (i *Instance) callError(ctx context.Context, err error) error {
	if ctx.Err() != nil || errors.Is(err, errPastDeadline) {
		err = fmt.Errorf("call stopped past its deadline (the instance is discarded): %w", errors.Join(err, context.DeadlineExceeded))
	}
	i.trap = &TrapError{Export: i.calling, Cause: err}
	return i.trap
}

// Trapped reports whether a call trapped on this instance: it then runs
// nothing more, and must be closed.
func (i *Instance) Trapped() bool { return i.trap != nil }

// MemoryBytes is the size of the instance's linear memory: what the module
// holds now, state, indexes and the Go heap's headroom included (it never
// shrinks).
func (i *Instance) MemoryBytes() int { return int(i.mod.Memory().Size()) }

// Close frees the instance.
func (i *Instance) Close(ctx context.Context) error { return i.mod.Close(ctx) }

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
