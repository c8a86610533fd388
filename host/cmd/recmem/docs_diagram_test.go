package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// diagramPath matches a repository path in a diagram's labels: a top-level
// directory of the project followed by at least one more name.
var diagramPath = regexp.MustCompile(`\b(?:web|plugin|pkg|host|docs|out)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]`)

// diagram checks a Mermaid block of the docs: it must be a flowchart whose
// every named file or directory exists (out/ is built; a * globs), so that a
// moved file cannot leave the picture behind.
func (e *docEnv) diagram(t *testing.T, b docBlock) {
	if !strings.HasPrefix(strings.TrimSpace(b.text), "flowchart") {
		t.Fatalf("a mermaid block of the docs is a flowchart; this one starts %.30q", b.text)
	}
	paths := diagramPath.FindAllString(b.text, -1)
	if len(paths) == 0 {
		t.Fatal("the diagram names no file of the repository")
	}
	for _, p := range paths {
		if strings.HasPrefix(p, "out/") {
			continue
		}
		m, err := filepath.Glob(filepath.Join(repo, p))
		if err != nil || len(m) == 0 {
			if _, err := os.Stat(filepath.Join(repo, p)); err != nil {
				t.Errorf("the diagram names %s, which does not exist", p)
			}
		}
	}
}
