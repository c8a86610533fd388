//go:build !linux

package bench

// haveThreadCPU says selfCPU reads the calling thread's CPU time here.
const haveThreadCPU = false

// selfCPU is -1: this system's thread CPU clock is not read (Linux only).
func selfCPU() int64 { return -1 }
