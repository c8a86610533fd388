package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// typeScript collects the TypeScript declarations of the exports' input and
// output types, from their Go types as encoding/json sees them: a named
// struct becomes an interface of the same name, its fields named by their
// json tags (embedded structs flattened), optional when omitempty or a
// pointer; slices become arrays, maps Records. Types that encode themselves
// are written from overrides, and fields holding one of a fixed set of
// strings from enums. Doc comments come from the Go source (comments).
type typeScript struct {
	docs  *comments
	names map[reflect.Type]string // named struct → its interface's name
	taken map[string]reflect.Type
	decls map[string]string // interface name → declaration
}

// overrides are the types whose JSON form is not their Go shape.
var overrides = map[reflect.Type]string{
	reflect.TypeFor[slate.Values]():         "Record<string, number>",
	reflect.TypeFor[slate.Store]():          "Unit[]",
	reflect.TypeFor[engine.RankCandidate](): "string | { id: string; meta?: Record<string, string | string[]> }",
	reflect.TypeFor[memory.ClientID]():      "string | { id: string; signal: string }",
	reflect.TypeFor[engine.Raw]():           "string | Uint8Array | object",
	reflect.TypeFor[json.RawMessage]():      "unknown",
}

// fieldOverrides are fields whose JSON form differs from their Go type's
// (inputs that accept more than outputs give).
var fieldOverrides = map[string]string{
	"memory.Signal.Meta": "Record<string, string | string[]>",
}

// enums are fields that hold one of a fixed set of strings.
var enums = map[string][]string{
	"memory.Signal.Action":           memory.Actions,
	"memory.Entry.Trigger":           memory.Triggers,
	"memory.Entry.Op":                memory.JournalOps,
	"memory.Chunk.Polarity":          {"likes", "avoids"},
	"memory.Op.Polarity":             {"likes", "avoids"},
	"memory.Op.Op":                   memory.OpNames,
	"memory.Decision.Decision":       {"maintain", "wait"},
	"slate.Request.Ranker":           slate.Rankers,
	"slate.Unit.Kind":                {"", "turn", "record"},
	"llm.Outcome.Purpose":            engine.LLMSteps,
	"llm.Outcome.Status":             {"accepted", "fallback"},
	"engine.RecordInput.Maintain":    {"none", "fixed", "planner"},
	"engine.MaintainInput.Scheduler": {"fixed", "planner"},
	"engine.ApplyOpsInput.Trigger":   {"user", "planner", "llm"},
}

func newTypeScript() *typeScript {
	return &typeScript{docs: readComments(), names: map[reflect.Type]string{}, taken: map[string]reflect.Type{}, decls: map[string]string{}}
}

// add declares x's input and output types.
func (t *typeScript) add(x *engine.Export) {
	t.ref(x.In)
	t.ref(x.Out)
}

// qualified is "pkg.Name" of a named type.
func qualified(rt reflect.Type) string {
	p := rt.PkgPath()
	return p[strings.LastIndex(p, "/")+1:] + "." + rt.Name()
}

// ref returns the TypeScript type of rt, declaring the interfaces it needs.
func (t *typeScript) ref(rt reflect.Type) string {
	if o, ok := overrides[rt]; ok {
		return o
	}
	switch rt.Kind() {
	case reflect.Pointer:
		return t.ref(rt.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		e := t.ref(rt.Elem())
		if strings.ContainsAny(e, " |") {
			e = "(" + e + ")"
		}
		return e + "[]"
	case reflect.Map:
		return "Record<string, " + t.ref(rt.Elem()) + ">"
	case reflect.Interface:
		return "unknown"
	case reflect.Struct:
		if rt.Name() == "" {
			return "{ " + strings.Join(t.fields(rt, true), "; ") + " }"
		}
		if rt.NumField() == 0 {
			return "Record<string, never>"
		}
		return t.named(rt)
	}
	panic(fmt.Sprintf("exportgen: no TypeScript form for %s", rt))
}

// named declares the interface of a named struct and returns its name.
func (t *typeScript) named(rt reflect.Type) string {
	if n, ok := t.names[rt]; ok {
		return n
	}
	name := rt.Name()
	if other, ok := t.taken[name]; ok && other != rt {
		p := rt.PkgPath()
		p = p[strings.LastIndex(p, "/")+1:]
		name = strings.ToUpper(p[:1]) + p[1:] + name
	}
	t.names[rt], t.taken[name] = name, rt
	var b strings.Builder
	writeDoc(&b, "", t.docs.of(qualified(rt)))
	fmt.Fprintf(&b, "export interface %s {\n", name)
	for _, f := range t.fields(rt, false) {
		b.WriteString(f)
	}
	b.WriteString("}\n")
	t.decls[name] = b.String()
	return name
}

// fields lists the members of struct rt as encoding/json encodes them: bare
// "key: type" strings, or declaration lines with their doc comments.
func (t *typeScript) fields(rt reflect.Type, bare bool) []string {
	path := ""
	if rt.Name() != "" {
		path = qualified(rt)
	}
	var out []string
	for i := range rt.NumField() {
		f := rt.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		key, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && key == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, t.fields(et, bare)...)
				continue
			}
		}
		if key == "" {
			key = f.Name
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") || ft.Kind() == reflect.Pointer
		var ts string
		switch {
		case fieldOverrides[path+"."+f.Name] != "":
			ts = fieldOverrides[path+"."+f.Name]
		case enums[path+"."+f.Name] != nil:
			var lits []string
			for _, v := range enums[path+"."+f.Name] {
				lits = append(lits, jsString(v))
			}
			ts = strings.Join(lits, " | ")
		default:
			ts = t.ref(ft)
		}
		q := ""
		if optional {
			q = "?"
		}
		if bare {
			out = append(out, fmt.Sprintf("%s%s: %s", key, q, ts))
			continue
		}
		var b strings.Builder
		writeDoc(&b, "  ", t.docs.of(path+"."+f.Name))
		fmt.Fprintf(&b, "  %s%s: %s;\n", key, q, ts)
		out = append(out, b.String())
	}
	return out
}

// writeDoc writes doc as a JSDoc comment at the given indentation.
func writeDoc(b *strings.Builder, indent, doc string) {
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return
	}
	lines := strings.Split(doc, "\n")
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, lines[0])
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		fmt.Fprintf(b, "%s * %s\n", indent, strings.TrimRight(l, " "))
	}
	fmt.Fprintf(b, "%s */\n", indent)
}

// declarations returns every interface, sorted by name.
func (t *typeScript) declarations() string {
	names := make([]string, 0, len(t.decls))
	for n := range t.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.decls[n])
	}
	return b.String()
}

// methods returns the declarations of the Recmem methods.
func (t *typeScript) methods(exports []*engine.Export) string {
	var b strings.Builder
	for _, x := range exports {
		j := x.JS
		var params []string
		for _, a := range j.Args {
			switch {
			case j.Raw:
				params = append(params, a+": "+t.ref(x.In))
			case j.Whole:
				params = append(params, a+": "+t.ref(x.In))
			default:
				params = append(params, a+t.member(x.In, a))
			}
		}
		if len(j.Options) > 0 {
			var opts []string
			for _, o := range j.Options {
				opts = append(opts, o.Name+"?"+strings.TrimPrefix(t.member(x.In, o.Key), "?"))
			}
			params = append(params, "opts?: { "+strings.Join(opts, "; ")+" }")
		}
		out := t.ref(x.Out)
		switch {
		case j.Text:
			out = "string"
		case j.Pick != "":
			out = t.member(x.Out, j.Pick)
			out = strings.TrimPrefix(strings.TrimPrefix(out, "?"), ": ")
		}
		writeDoc(&b, "  ", x.Doc+" (export "+x.Name+")")
		fmt.Fprintf(&b, "  %s(%s): Promise<%s>;\n", j.Method, strings.Join(params, ", "), out)
	}
	return b.String()
}

// member returns ": type" (or "?: type" when optional) of the JSON member
// key of struct rt.
func (t *typeScript) member(rt reflect.Type, key string) string {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	for _, f := range t.fields(rt, true) {
		k, ty, _ := strings.Cut(f, ": ")
		if strings.TrimSuffix(k, "?") == key {
			if strings.HasSuffix(k, "?") {
				return "?: " + ty
			}
			return ": " + ty
		}
	}
	panic(fmt.Sprintf("exportgen: %s has no member %q", rt, key))
}
