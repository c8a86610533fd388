package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
)

// jsTable writes recmem.js's EXPORTS: each export's name, method, whether it
// mutates the state, and its doc.
func jsTable(exports []*engine.Export) string {
	var b strings.Builder
	b.WriteString("// Every export of the module: its name, the Recmem method that calls it,\n")
	b.WriteString("// whether a call can change the state (hosts save the state after those),\n")
	b.WriteString("// and what it does. Generated from pkg/engine/exports.go.\n")
	b.WriteString("export const EXPORTS = Object.freeze([\n")
	for _, x := range exports {
		fmt.Fprintf(&b, "  { name: %s, method: %s, mutates: %t, doc: %s },\n",
			jsString(x.Name), jsString(x.JS.Method), x.Mutates, jsString(x.Doc))
	}
	b.WriteString("]);\n")
	return b.String()
}

// jsMethods writes the Recmem methods, one per export.
func jsMethods(exports []*engine.Export) string {
	var b strings.Builder
	for _, x := range exports {
		j := x.JS
		params := append([]string(nil), j.Args...)
		fields := append([]string(nil), j.Args...)
		if len(j.Options) > 0 {
			var opts []string
			for _, o := range j.Options {
				p := o.Name
				if o.Default != "" {
					p += " = " + o.Default
				}
				opts = append(opts, p)
				fields = append(fields, field(o.Key, o.Name))
			}
			params = append(params, "{ "+strings.Join(opts, ", ")+" } = {}")
		}
		var input string
		switch {
		case j.Whole || j.Raw:
			input = j.Args[0]
		case len(fields) > 0:
			input = "{ " + strings.Join(fields, ", ") + " }"
		}
		call := fmt.Sprintf("this.call(%s", jsString(x.Name))
		switch {
		case j.Text:
			call += ", undefined, { text: true })"
		case input != "":
			call += ", " + input + ")"
		default:
			call += ")"
		}
		if j.Pick != "" {
			call += fmt.Sprintf(".then((out) => out.%s)", j.Pick)
		}
		fmt.Fprintf(&b, "  // %s: %s.\n  %s(%s) { return %s; }\n", x.Name, x.Doc, j.Method, strings.Join(params, ", "), call)
	}
	return b.String()
}

// field is one property of an input object literal: the shorthand when the
// key is the variable's name.
func field(key, name string) string {
	if key == name {
		return key
	}
	return key + ": " + name
}

// jsString quotes s as a single-quoted JavaScript string.
func jsString(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}
