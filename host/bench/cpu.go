package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// procCPU is the CPU time so far of process pid's main thread and of all
// its live threads, read from Linux's /proc: each thread's schedstat (its
// time on a CPU, in nanoseconds), or its stat (user plus system time, in
// clock ticks, taken as 10 ms) on a kernel without schedstat. O(threads).
func procCPU(pid int) (main, all time.Duration, err error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, t := range tasks {
		d, err := threadCPU(filepath.Join("/proc", strconv.Itoa(pid), "task", t.Name()))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // the thread ended
			}
			return 0, 0, err
		}
		all += d
		if t.Name() == strconv.Itoa(pid) {
			main = d
		}
	}
	return main, all, nil
}

// threadCPU is the CPU time of the thread whose /proc directory is dir.
func threadCPU(dir string) (time.Duration, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "schedstat")); err == nil {
		return parseSchedstat(b)
	}
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return 0, err
	}
	return parseStatTicks(b)
}

// parseSchedstat reads the first field of a schedstat line: the time spent
// on a CPU, in nanoseconds.
func parseSchedstat(b []byte) (time.Duration, error) {
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0, errors.New("schedstat: empty")
	}
	ns, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("schedstat: %w", err)
	}
	return time.Duration(ns), nil
}

// parseStatTicks reads utime and stime (fields 14 and 15) of a stat line,
// counted after the command name, which is in parentheses and may hold
// spaces; a tick is taken as 10 ms (USER_HZ 100, Linux's value on every
// architecture it is built for by default).
func parseStatTicks(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("stat: no command name")
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, errors.New("stat: too few fields")
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
