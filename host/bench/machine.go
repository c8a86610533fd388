package bench

import (
	"os"
	"runtime"
	"strings"
)

// machine describes where the figures were measured: the OS and
// architecture, the logical CPUs and GOMAXPROCS, the Go version and the
// processor's name.
func machine() map[string]any {
	return map[string]any{"goos": runtime.GOOS, "goarch": runtime.GOARCH, "cpus": runtime.NumCPU(),
		"gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version(), "cpu": cpuModel()}
}

// cpuModel is the processor's name from /proc/cpuinfo ("" elsewhere).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	return modelName(string(b))
}

// modelName is the first "model name" field of a /proc/cpuinfo text, "" when
// there is none.
func modelName(cpuinfo string) string {
	for _, line := range strings.Split(cpuinfo, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
