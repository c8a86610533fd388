package host

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// kernel is one instance's side of the Extism host ABI, the functions a
// go-pdk plugin imports from "extism:host/env", implemented in Go: a store of
// memory blocks that the plugin and the host exchange bytes through (the
// plugin copies in and out with load and store calls), the call's input, its
// output and error blocks, and the manifest config.
//
// Blocks are bump-allocated in one byte slice and all released by reset,
// which runs before every call; free only forgets a block. Offset 0 is never
// a block: it means "none", as in Extism. Every access is bounds-checked
// against the live blocks' storage, and a bad one fails the call with a
// message (wazero turns the panic into the call's error).
type kernel struct {
	mem    []byte
	blocks map[uint64]uint64 // offset → length of live blocks
	limit  int               // most bytes the blocks may hold

	input  []byte
	output struct{ off, n uint64 }
	errOff uint64
	config map[string]string
}

// kernelBase is the first block's offset: offsets below it are never valid.
const kernelBase = 8

func newKernel(config map[string]string, limit int) *kernel {
	return &kernel{mem: make([]byte, kernelBase, 4096), blocks: map[uint64]uint64{}, limit: limit, config: config}
}

// reset drops every block, the input, the output and the error. Cost O(1)
// amortised (the storage is kept for the next call).
func (k *kernel) reset(input []byte) {
	k.mem = k.mem[:kernelBase]
	clear(k.blocks)
	k.input = input
	k.output.off, k.output.n, k.errOff = 0, 0, 0
}

// alloc returns the offset of a new zeroed block of n bytes, or 0 when the
// blocks would exceed the limit. Offsets are 8-byte aligned.
func (k *kernel) alloc(n uint64) uint64 {
	off := uint64(len(k.mem)+7) &^ 7
	end := off + n
	if n > uint64(k.limit) || end > uint64(k.limit) {
		return 0
	}
	if end > uint64(cap(k.mem)) {
		grown := make([]byte, end, max(end, 2*uint64(cap(k.mem))))
		copy(grown, k.mem)
		k.mem = grown
	} else {
		k.mem = k.mem[:end]
		clear(k.mem[off:end])
	}
	if n == 0 {
		// A zero-length block still needs an offset of its own.
		k.mem = append(k.mem, 0)
	}
	k.blocks[off] = n
	return off
}

// block returns the bytes of the live block at off.
func (k *kernel) block(off uint64) ([]byte, error) {
	n, ok := k.blocks[off]
	if !ok {
		return nil, fmt.Errorf("extism: no memory block at offset %d", off)
	}
	return k.mem[off : off+n], nil
}

// write stores b in a new block and returns its offset (0 when out of room).
func (k *kernel) write(b []byte) uint64 {
	off := k.alloc(uint64(len(b)))
	if off != 0 {
		copy(k.mem[off:], b)
	}
	return off
}

// span checks that [off, off+n) lies in the blocks' storage.
func (k *kernel) span(off, n uint64) {
	if off < kernelBase || off+n < off || off+n > uint64(len(k.mem)) {
		panic(fmt.Errorf("extism: access of %d bytes at offset %d is outside the plugin's memory blocks", n, off))
	}
}

type kernelKey struct{}

// kernelOf is the kernel the host put in the call's context.
func kernelOf(ctx context.Context) *kernel {
	k, _ := ctx.Value(kernelKey{}).(*kernel)
	if k == nil {
		panic(errors.New("extism: host function called outside a recmem call"))
	}
	return k
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// kernelFunction is one "extism:host/env" export.
type kernelFunction struct {
	name            string
	params, results []api.ValueType
	fn              func(k *kernel, stack []uint64)
}

// kernelFunctions are the functions of the Extism host ABI that go-pdk
// plugins import (go-pdk v1.1.3's env.go and memory), except HTTP and
// variables, which a recmem module never uses: a module that imports them
// fails to instantiate with wazero's message naming the missing import.
var kernelFunctions = []kernelFunction{
	{"alloc", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) { s[0] = k.alloc(s[0]) }},
	{"free", []api.ValueType{i64}, nil, func(k *kernel, s []uint64) { delete(k.blocks, s[0]) }},
	{"length", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) { s[0] = k.blocks[s[0]] }},
	{"length_unsafe", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) { s[0] = k.blocks[s[0]] }},
	{"load_u8", []api.ValueType{i64}, []api.ValueType{i32}, func(k *kernel, s []uint64) {
		k.span(s[0], 1)
		s[0] = uint64(k.mem[s[0]])
	}},
	{"load_u64", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) {
		k.span(s[0], 8)
		s[0] = binary.LittleEndian.Uint64(k.mem[s[0]:])
	}},
	{"store_u8", []api.ValueType{i64, i32}, nil, func(k *kernel, s []uint64) {
		k.span(s[0], 1)
		k.mem[s[0]] = byte(s[1])
	}},
	{"store_u64", []api.ValueType{i64, i64}, nil, func(k *kernel, s []uint64) {
		k.span(s[0], 8)
		binary.LittleEndian.PutUint64(k.mem[s[0]:], s[1])
	}},
	{"input_length", nil, []api.ValueType{i64}, func(k *kernel, s []uint64) { s[0] = uint64(len(k.input)) }},
	{"input_load_u8", []api.ValueType{i64}, []api.ValueType{i32}, func(k *kernel, s []uint64) {
		if s[0] >= uint64(len(k.input)) {
			panic(fmt.Errorf("extism: input read at %d past its %d bytes", s[0], len(k.input)))
		}
		s[0] = uint64(k.input[s[0]])
	}},
	{"input_load_u64", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) {
		if s[0]+8 < s[0] || s[0]+8 > uint64(len(k.input)) {
			panic(fmt.Errorf("extism: input read at %d past its %d bytes", s[0], len(k.input)))
		}
		s[0] = binary.LittleEndian.Uint64(k.input[s[0]:])
	}},
	{"output_set", []api.ValueType{i64, i64}, nil, func(k *kernel, s []uint64) {
		k.span(s[0], s[1])
		k.output.off, k.output.n = s[0], s[1]
	}},
	{"error_set", []api.ValueType{i64}, nil, func(k *kernel, s []uint64) { k.errOff = s[0] }},
	{"config_get", []api.ValueType{i64}, []api.ValueType{i64}, func(k *kernel, s []uint64) {
		key, err := k.block(s[0])
		if err != nil {
			panic(err)
		}
		v, ok := k.config[string(key)]
		s[0] = 0
		if ok {
			s[0] = k.write([]byte(v))
		}
	}},
	{"get_log_level", nil, []api.ValueType{i32}, func(k *kernel, s []uint64) { s[0] = uint64(logLevelOff) }},
	{"log_debug", []api.ValueType{i64}, nil, func(*kernel, []uint64) {}},
	{"log_info", []api.ValueType{i64}, nil, func(*kernel, []uint64) {}},
	{"log_warn", []api.ValueType{i64}, nil, func(*kernel, []uint64) {}},
	{"log_error", []api.ValueType{i64}, nil, func(*kernel, []uint64) {}},
	{"log_trace", []api.ValueType{i64}, nil, func(*kernel, []uint64) {}},
}

// logLevelOff is the level that turns a plugin's logging off (go-pdk logs a
// message only when its level is at least the host's).
const logLevelOff = 0x7fffffff

// instantiateKernel adds the "extism:host/env" module to r.
func instantiateKernel(ctx context.Context, r wazero.Runtime) error {
	b := r.NewHostModuleBuilder("extism:host/env")
	for _, f := range kernelFunctions {
		fn := f.fn
		b.NewFunctionBuilder().
			WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) { fn(kernelOf(ctx), stack) }), f.params, f.results).
			Export(f.name)
	}
	_, err := b.Instantiate(ctx)
	return err
}
