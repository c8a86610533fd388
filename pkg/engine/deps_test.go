package engine_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// runtimePackages may be linked into the module (docs/architecture.md);
// labPackages, the offline side, may not.
var (
	runtimePackages = []string{"engine", "intent", "catalog", "ident", "jsonenc", "text", "memory", "cf",
		"topk", "lexical", "vector", "rank", "llm", "slate", "seal", "phase"}
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

// TestImportRules holds the layers of docs/architecture.md over every
// package of the module (its code, not its tests): pkg/ never imports host/
// or plugin/; only plugin/ imports go-pdk; only host/ imports wazero or an
// Extism SDK; a runtime package imports no lab package, and of the world
// outside the standard library only what the table allows it.
func TestImportRules(t *testing.T) {
	const mod = "github.com/recmem/recmem/"
	runtimeThirdParty := []string{"github.com/valyala/fastjson", "github.com/cespare/xxhash/v2"}
	imports := map[string][]string{}
	for _, goos := range []string{"", "wasip1"} {
		cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../...")
		if goos != "" {
			cmd.Env = append(cmd.Environ(), "GOOS="+goos, "GOARCH=wasm")
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list ../../... (GOOS=%q): %v", goos, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			rel, ok := strings.CutPrefix(f[0], mod)
			if !ok {
				continue
			}
			for _, imp := range f[1:] {
				if !slices.Contains(imports[rel], imp) {
					imports[rel] = append(imports[rel], imp)
				}
			}
		}
	}
	if _, ok := imports["plugin"]; !ok || len(imports) < 20 {
		t.Fatalf("go list found %d packages, plugin among them: %v", len(imports), ok)
	}
	for pkg, imps := range imports {
		name, inPkg := strings.CutPrefix(pkg, "pkg/")
		inHost := pkg == "host" || strings.HasPrefix(pkg, "host/")
		runtime := inPkg && slices.Contains(runtimePackages, name)
		for _, imp := range imps {
			rel, ours := strings.CutPrefix(imp, mod)
			third := !ours && strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
			switch {
			case inPkg && ours && !strings.HasPrefix(rel, "pkg/"):
				t.Errorf("%s imports %s: pkg/ never imports host/ or plugin/", pkg, rel)
			case strings.HasPrefix(imp, "github.com/extism/go-pdk") && pkg != "plugin":
				t.Errorf("%s imports go-pdk: only plugin/ does", pkg)
			case (strings.HasPrefix(imp, "github.com/tetratelabs/wazero") || strings.HasPrefix(imp, "github.com/extism/go-sdk")) && !inHost:
				t.Errorf("%s imports %s: only host/ runs the module", pkg, imp)
			case runtime && ours && slices.Contains(labPackages, strings.TrimPrefix(rel, "pkg/")):
				t.Errorf("runtime package %s imports the lab package %s", pkg, rel)
			case runtime && third && !slices.Contains(runtimeThirdParty, imp):
				t.Errorf("runtime package %s imports %s, which docs/architecture.md does not allow it", pkg, imp)
			}
		}
	}
}

// TestArchitectureDocListsThePackages reads the layer table of
// docs/architecture.md: its exports and runtime rows together, and its lab
// row, name exactly the packages these tests hold.
func TestArchitectureDocListsThePackages(t *testing.T) {
	b, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		layer := strings.TrimSpace(cells[1])
		switch layer {
		case "exports": // pkg/engine, the runtime's top
			layer = "runtime"
		case "runtime", "lab":
		default:
			continue
		}
		for _, p := range strings.Split(cells[2], ",") {
			rows[layer] = append(rows[layer], strings.Trim(strings.TrimSpace(p), "`"))
		}
	}
	for layer, want := range map[string][]string{"runtime": runtimePackages, "lab": labPackages} {
		got := slices.Sorted(slices.Values(rows[layer]))
		if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
			t.Errorf("docs/architecture.md's %s row lists %v; the tests hold %v", layer, got, w)
		}
	}
}
