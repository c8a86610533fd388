package main

import (
	"fmt"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
)

// docsTable writes the generated part of docs/exports.md: one row per
// export and the TypeScript shapes of every input and output.
func docsTable(exports []*engine.Export, ts *typeScript) string {
	var b strings.Builder
	b.WriteString("Generated from `pkg/engine/exports.go` by `go generate ./pkg/engine`; do not edit by hand.\n")
	b.WriteString("*Changes state*: hosts save the state after a successful call. Every input is also bounded to\n")
	fmt.Fprintf(&b, "%d bytes.\n\n", engine.MaxInputBytes)
	b.WriteString("| export | changes state | `recmem.js` | input | output | limits | what it does |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, x := range exports {
		var limits []string
		for _, l := range x.Limits {
			limits = append(limits, fmt.Sprintf("`%s` ≤ %d %s", l.Field, l.Max, l.Unit))
		}
		mut := ""
		if x.Mutates {
			mut = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | `%s` | `%s` | %s | %s |\n", x.Name, mut, x.JS.Method,
			cell(ts.ref(x.In)), cell(ts.ref(x.Out)), strings.Join(limits, ", "), x.Doc)
	}
	b.WriteString("\nThe shapes, in TypeScript notation as `web/recmem.d.ts` declares them (`?` marks a member\nthat may be absent):\n\n```ts\n")
	b.WriteString(ts.declarations())
	b.WriteString("```\n")
	return b.String()
}

// cell makes a type readable inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
