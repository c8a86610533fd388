package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/engine"
)

// TestGeneratedFilesAreFresh fails when a file generated from the export
// declarations differs from what exportgen would write now: run
// `go generate ./pkg/engine` and commit the result.
func TestGeneratedFilesAreFresh(t *testing.T) {
	sourceRoot = "../../.."
	files, err := Generate(sourceRoot, engine.All)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("%d files generated, want 4", len(files))
	}
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(sourceRoot, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, f.Data) {
			t.Errorf("%s is stale: run go generate ./pkg/engine", f.Path)
		}
	}
}

// TestEveryExportIsBound: each export has a JavaScript method, distinct, and
// its plugin glue names it.
func TestEveryExportIsBound(t *testing.T) {
	seen := map[string]bool{}
	glue := string(pluginGlue(engine.All))
	for _, x := range engine.All {
		if x.JS.Method == "" || seen[x.JS.Method] {
			t.Errorf("%s: method %q missing or taken twice", x.Name, x.JS.Method)
		}
		seen[x.JS.Method] = true
		if !strings.Contains(glue, "//go:wasmexport "+x.Name+"\n") {
			t.Errorf("%s: no wasm export in the plugin glue", x.Name)
		}
		if x.In == nil || x.Out == nil || x.Doc == "" {
			t.Errorf("%s: declaration lacks types or doc", x.Name)
		}
	}
}

func TestSplice(t *testing.T) {
	dir := t.TempDir()
	src := "head\n  // BEGIN GENERATED a\n  old\n  // END GENERATED a\ntail\n"
	if err := os.WriteFile(filepath.Join(dir, "f.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := splice(dir, "f.js", map[string]string{"a": "  new\n"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "head\n  // BEGIN GENERATED a\n  new\n  // END GENERATED a\ntail\n"; string(got) != want {
		t.Fatalf("splice = %q, want %q", got, want)
	}
	if _, err := splice(dir, "f.js", map[string]string{"b": ""}); err == nil {
		t.Fatal("a missing region was not reported")
	}
}

func TestCamelAndJSString(t *testing.T) {
	for in, want := range map[string]string{"apply_ops": "ApplyOps", "exports": "Exports", "get_memory": "GetMemory"} {
		if got := camel(in, true); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := camel("select_slate", false); got != "selectSlate" {
		t.Errorf("camel lower = %q", got)
	}
	if got := jsString(`it's "x"` + "\n"); got != `'it\'s "x"\n'` {
		t.Errorf("jsString = %s", got)
	}
}
