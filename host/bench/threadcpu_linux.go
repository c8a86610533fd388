//go:build linux

package bench

import (
	"syscall"
	"unsafe"
)

// haveThreadCPU says selfCPU reads the calling thread's CPU time here.
const haveThreadCPU = true

// selfCPU is the calling OS thread's CPU time in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID), or -1 when it cannot be read. With the calling
// goroutine locked to its thread (runtime.LockOSThread), the difference of
// two readings is the CPU a call took, whatever else the machine runs: on a
// loaded machine a call's wall time also counts the time its thread waited
// for a processor. Cost: one system call (vDSO-less, under a microsecond).
func selfCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return -1
	}
	return ts.Nano()
}
