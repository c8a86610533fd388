package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// comments holds the doc comments of the Go types the declarations come
// from, keyed "pkg.Type" and "pkg.Type.Field", read from the source of the
// packages under pkg/ (the generator runs from the repository).
type comments struct{ m map[string]string }

func (c *comments) of(key string) string { return c.m[key] }

// sourceRoot is where readComments finds pkg/: set by main from -root.
var sourceRoot = "."

// readComments parses every non-test Go file of pkg/*. O(source size).
func readComments() *comments {
	c := &comments{m: map[string]string{}}
	dirs, _ := filepath.Glob(filepath.Join(sourceRoot, "pkg", "*"))
	fset := token.NewFileSet()
	for _, dir := range dirs {
		pkg := filepath.Base(dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
			if err != nil {
				continue
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(g.Specs) == 1 {
						doc = g.Doc
					}
					key := pkg + "." + ts.Name.Name
					c.m[key] = text(doc)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						d := text(fl.Doc)
						if d == "" {
							d = text(fl.Comment)
						}
						for _, n := range fl.Names {
							c.m[key+"."+n.Name] = d
						}
					}
				}
			}
		}
	}
	return c
}

// text is a comment group's text, or "".
func text(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return strings.TrimSpace(g.Text())
}
