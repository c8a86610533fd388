//go:build !linux

package host

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator leaves instances' memory to wazero where it cannot be
// mapped (see memory_linux.go).
func memoryAllocator() experimental.MemoryAllocator { return nil }
