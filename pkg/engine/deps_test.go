package engine_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// runtimePackages may be linked into the module (docs/architecture.md);
// labPackages, the offline side, may not.
var (
	runtimePackages = []string{"engine", "intent", "catalog", "ident", "jsonenc", "text", "memory", "cf",
		"topk", "lexical", "vector", "rank", "llm", "slate", "seal"}
	labPackages = []string{"dataset", "rec", "slatelab", "intentlab", "workload", "conformance"}
)

// TestRuntimeLinksNoLab lists the module's dependency closure (go list -deps
// ./plugin, for GOOS=wasip1): it must hold no lab package, and nothing of
// this repository but the runtime packages and plugin/ itself.
func TestRuntimeLinksNoLab(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "../../plugin")
	cmd.Env = append(cmd.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ../../plugin: %v", err)
	}
	const mod = "github.com/recmem/recmem/"
	seen := 0
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, mod)
		if !ok {
			continue
		}
		seen++
		name, isPkg := strings.CutPrefix(rel, "pkg/")
		switch {
		case rel == "plugin":
		case isPkg && slices.Contains(labPackages, name):
			t.Errorf("the module links the offline package %s", rel)
		case !isPkg || !slices.Contains(runtimePackages, name):
			t.Errorf("the module links %s, which is not a runtime package (add it to runtimePackages and docs/architecture.md if it is one)", rel)
		}
	}
	if seen < 3 {
		t.Fatalf("go list found %d packages of this module: %s", seen, out)
	}
}
