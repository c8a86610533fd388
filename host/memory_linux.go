//go:build linux

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapMemory is an instance's linear memory in an anonymous mapping of its
// maximum size: the kernel commits pages as the module touches them, so
// growing never copies the memory (wazero's default appends to a Go slice,
// copying everything the module holds each time it grows, and leaves the
// old copies to the host's garbage collector).
type mmapMemory struct{ buf []byte }

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(m.buf)) {
		return nil // past the maximum: the module's memory.grow fails
	}
	return m.buf[:size]
}

func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf[:cap(m.buf)])
		m.buf = nil
	}
}

// memoryAllocator maps each instance's memory at its maximum size, reserved
// but not committed (MAP_NORESERVE); where the mapping fails it falls back
// to wazero's own growth.
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{max: max}
		}
		return &mmapMemory{buf: b[:0]}
	})
}
