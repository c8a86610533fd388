package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/llm"
)

const repo = "../../.."

// docBlock is one fenced code block of a document.
type docBlock struct {
	file    string // relative to the repository
	n       int    // 1-based position among the file's blocks
	lang    string
	text    string
	heading string // the nearest heading above it
	after   string // the prose between it and the next block
}

func (b docBlock) String() string { return fmt.Sprintf("%s#%d", b.file, b.n) }

// readBlocks returns the fenced blocks of a Markdown file.
func readBlocks(t *testing.T, file string) []docBlock {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repo, file))
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	var cur *docBlock
	heading := ""
	var prose strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			if len(out) > 0 {
				out[len(out)-1].after = prose.String()
			}
			prose.Reset()
			cur = &docBlock{file: file, n: len(out) + 1, lang: strings.TrimPrefix(line, "```"), heading: heading}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		default:
			if strings.HasPrefix(line, "#") {
				heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			}
			prose.WriteString(line + "\n")
		}
	}
	if cur != nil {
		t.Fatalf("%s: a code block is never closed", file)
	}
	if len(out) > 0 {
		out[len(out)-1].after = prose.String()
	}
	return out
}

// TestDocs runs or checks every code example of docs/*.md and README.md
// (issue 17: the HTTP example decoded nothing, and nothing noticed). Each
// block is covered by a rule below; a block no rule covers fails the test,
// so a new example needs one. Go and JavaScript examples must be verbatim
// parts of files that other tests run (named in the rules); JSON inputs run
// through the exports; JSON outputs are compared, key by key, with the real
// output; commands are checked against the command's flags.
func TestDocs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	var all []docBlock
	for _, f := range append(files, filepath.Join(repo, "README.md")) {
		rel, _ := filepath.Rel(repo, f)
		all = append(all, readBlocks(t, rel)...)
	}
	if len(all) < 30 {
		t.Fatalf("only %d code blocks found", len(all))
	}
	env := newDocEnv(t)
	for _, b := range all {
		t.Run(b.String(), func(t *testing.T) { env.check(t, b) })
	}
}

// docEnv is what the checks run against: a native engine preparer, the Go
// host's stateless API, and the module.
type docEnv struct {
	wasm    string
	catalog []byte
	edge    *httptest.Server
	// lastAnswer is the answer to the last request block that needs its
	// answer checked by the next block.
	lastAnswer []byte
}

func newDocEnv(t *testing.T) *docEnv {
	ctx := context.Background()
	e := &docEnv{wasm: testModule(t)}
	cat, err := os.ReadFile(filepath.Join(repo, "testdata/catalog/tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	e.catalog = cat
	c, err := host.NewClient(ctx, host.ClientOptions{Options: host.Options{WasmPath: e.wasm}, Instances: 1, Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	e.edge = httptest.NewServer(host.NewEdgeHandler(c, host.EdgeOptions{BaseTag: true}))
	t.Cleanup(func() { e.edge.Close(); c.Close(ctx) })
	return e
}

// engineWithMemory is a native engine holding a few events, chunks and
// units, with the tiny catalog, as the examples of docs/exports.md expect.
func (e *docEnv) engineWithMemory(t *testing.T) *engine.Engine {
	t.Helper()
	eng := engine.New()
	for _, s := range []struct{ export, input string }{
		{"load_catalog", string(e.catalog)},
		{"record", `{"signals":[{"user":"u1","item":"a","action":"purchase","meta":{"title":"Space Shooter Deluxe"},"time":1699990000},{"user":"u1","item":"b","action":"like","time":1699990060}],"maintain":"none"}`},
		{"apply_ops", `{"ops":[{"op":"extract","category":"series","text":"Enjoys the Halo series","strength":0.7}]}`},
		{"add_units", `{"units":[{"id":"D1:1","session":"S1","date":"8 May 2023","time":"2023-05-08","speaker":"Caroline","text":"I signed up for a pottery class.","user":"u1"},{"id":"D1:2","session":"S1","speaker":"Mel","text":"When does it start?","user":"u1"}]}`},
	} {
		if _, err := eng.Call(s.export, []byte(s.input)); err != nil {
			t.Fatalf("setup %s: %v", s.export, err)
		}
	}
	return eng
}

// exportHeading names the export of a docs/exports.md section ("`record`",
// "`maintain` and `plan`": the first).
var exportHeading = regexp.MustCompile("^`([a-z_]+)`")

func (e *docEnv) check(t *testing.T, b docBlock) {
	switch {
	case b.lang == "go":
		e.verbatim(t, b, "host/example_test.go", "host/example_http_test.go")
	case b.lang == "js":
		e.verbatim(t, b, "web/examples/node.mjs", "web/examples/browser.mjs")
	case b.lang == "html":
		e.verbatim(t, b, "web/index.html")
	case b.lang == "ts":
		// The shapes generated from the export declarations (exportgen
		// checks they are fresh) are the declarations of recmem.d.ts.
		e.verbatim(t, b, "web/recmem.d.ts")
	case b.lang == "sh":
		e.commands(t, b)
	case b.lang == "http":
		e.httpRequest(t, b)
	case b.lang == "mermaid":
		e.diagram(t, b)
	case b.file == "docs/js.md" && b.lang == "":
		e.nodeOutput(t, b)
	case b.file == "docs/js.md" && b.lang == "json":
		e.verbatim(t, b, "web/examples/deno-imports.json")
	case b.file == "docs/exports.md" && b.lang == "":
		e.errorMessages(t, b)
	case b.file == "docs/exports.md" && b.lang == "json":
		m := exportHeading.FindStringSubmatch(b.heading)
		if m == nil {
			t.Fatalf("no export heading above the block (%q)", b.heading)
		}
		eng := e.engineWithMemory(t)
		if _, err := eng.Call(m[1], []byte(b.text)); err != nil {
			t.Fatalf("the example input of %s fails: %v", m[1], err)
		}
	case b.file == "docs/llm.md" && b.lang == "json":
		var req llm.Request
		var resp llm.Response
		if err := strictJSON(b.text, &req); err != nil {
			if err2 := strictJSON(b.text, &resp); err2 != nil {
				t.Fatalf("neither an llm.Request (%v) nor an llm.Response (%v)", err, err2)
			}
		}
	case b.file == "docs/instructions.md" && b.lang == "json":
		// An understood intent (rank's "understood") or a domain's table.
		var in intent.Intent
		var tb intent.Table
		if err := strictJSON(b.text, &in); err != nil {
			if err2 := strictJSON(b.text, &tb); err2 != nil {
				t.Fatalf("neither an intent.Intent (%v) nor an intent.Table (%v)", err, err2)
			}
		}
	case b.file == "docs/state-format.md" && b.lang == "json" && strings.Contains(b.text, `"version": 4`):
		eng := e.engineWithMemory(t)
		real, _ := eng.Call("export_state", nil)
		shapeMatches(t, b.text, real)
	case b.file == "docs/state-format.md" && b.lang == "json":
		if _, err := engine.New().Call("import_state", []byte(b.text)); err != nil {
			t.Fatalf("the example document does not import: %v", err)
		}
	case b.file == "docs/rec.md" && b.lang == "json" && strings.Contains(b.text, `"candidates"`):
		if _, err := e.engineWithMemory(t).Call("rank", []byte(b.text)); err != nil {
			t.Fatalf("the example rank input fails: %v", err)
		}
	case b.file == "docs/rec.md" && b.lang == "json":
		eng := e.engineWithMemory(t)
		real, err := eng.Call("rank", []byte(`{"candidates":["a","b","c"]}`))
		if err != nil {
			t.Fatal(err)
		}
		shapeMatches(t, b.text, real)
	case b.file == "docs/slate.md" && b.lang == "json":
		eng := e.engineWithMemory(t)
		real, err := eng.Call("select_slate", []byte(`{"query":"when does the pottery class start","budget":100,"with_pool":true}`))
		if err != nil {
			t.Fatal(err)
		}
		shapeMatches(t, b.text, real)
	case b.file == "docs/http.md" && b.lang == "json" && strings.Contains(b.text, `"delta": true`):
		// A request carrying a binary state: sent as written, with a real
		// state in place of the elided one.
		e.lastAnswer = e.deltaRequest(t, b.text)
	case b.file == "docs/http.md" && b.lang == "json" && strings.Contains(b.text, `{"base_tag": "sha256:…"`):
		// A request naming its state by tag: sent as written, with the tag
		// of a state the server just answered with.
		e.baseTagRequest(t, b.text)
	case b.file == "docs/http.md" && b.lang == "json" && strings.Contains(b.text, `"status": 409`):
		// The answer to a tag the server does not hold.
		code, body := e.send(t, "select_slate", `{"base_tag":"sha256:`+strings.Repeat("0", 64)+`","input":{"query":"When?","budget":100}}`)
		if code != http.StatusConflict {
			t.Fatalf("an unknown base_tag: %d %s", code, body)
		}
		shapeMatches(t, b.text, body)
	case b.file == "docs/http.md" && b.lang == "json" && strings.Contains(b.text, `"delta": "`):
		// The answer to that request.
		shapeMatches(t, b.text, e.lastAnswer)
	case b.file == "docs/http.md" && b.lang == "json":
		// The answer to the request block just before it.
		_, body := e.send(t, "record", `{"input":{"signals":[{"user":"u1","item":"a","action":"like","time":1700000000}]}}`)
		shapeMatches(t, b.text, body)
	default:
		t.Fatalf("no rule covers this %q block: add one to TestDocs", b.lang)
	}
}

// verbatim checks that the block is a part of one of the files (whose own
// tests run it), with any common indentation.
func (e *docEnv) verbatim(t *testing.T, b docBlock, files ...string) {
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, indent := range []string{"", "\t", "  "} {
			var want strings.Builder
			for _, l := range strings.SplitAfter(b.text, "\n") {
				if strings.TrimSpace(l) != "" {
					want.WriteString(indent)
				}
				want.WriteString(l)
			}
			if strings.Contains(string(src), want.String()) {
				return
			}
		}
	}
	t.Fatalf("the example is not, verbatim, part of %s (which its tests run):\n%s", strings.Join(files, " or "), b.text)
}

// errorMessages runs, for each message of the block, the call that gives
// it, and compares.
func (e *docEnv) errorMessages(t *testing.T, b docBlock) {
	calls := []struct{ export, input string }{
		{"record", `{"signals":[{"user":"u","item":"a","action":"like","time":1700000000000}]}`},
		{"apply_ops", `{"ops":[{"op":"synthesize"},{"op":"boost","chunk":"c1"},{"op":"boost","chunk":"c99"}]}`},
		{"import_state", ""}, // a document with a chunk of strength 1.4, below
		{"apply_ops", ""},    // a memory whose next_seq is 2^53, below
	}
	lines := strings.Split(strings.TrimSpace(b.text), "\n")
	if len(lines) != len(calls) {
		t.Fatalf("%d messages, %d calls to give them", len(lines), len(calls))
	}
	for i, c := range calls {
		eng := e.engineWithMemory(t)
		input := c.input
		switch i {
		case 2:
			doc, _ := eng.Call("export_state", nil)
			var d map[string]any
			json.Unmarshal(doc, &d)
			delete(d, "checksum")
			d["version"] = 1
			d["memory"].(map[string]any)["chunks"].([]any)[0].(map[string]any)["strength"] = 1.4
			b, _ := json.Marshal(d)
			eng = engine.New()
			input = string(b)
		case 3:
			doc, _ := eng.Call("export_state", nil)
			var d map[string]any
			json.Unmarshal(doc, &d)
			delete(d, "checksum")
			d["version"] = 1
			d["memory"].(map[string]any)["counters"].(map[string]any)["next_seq"] = 1 << 53
			b, _ := json.Marshal(d)
			if _, err := eng.Call("import_state", b); err != nil {
				t.Fatal(err)
			}
			input = `{"ops":[{"op":"boost","chunk":"c1"}]}`
		}
		_, err := eng.Call(c.export, []byte(input))
		if err == nil || err.Error() != lines[i] {
			t.Errorf("message %d: the call gives\n%v\nthe doc says\n%s", i+1, err, lines[i])
		}
	}
}

func strictJSON(text string, v any) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// placeholders are the elisions of an example output ("{"bm25":0.81,...}",
// "{ ... }").
var placeholders = regexp.MustCompile(`,\s*\.\.\.|\.\.\.`)

// shapeMatches checks an example output against a real one: every key the
// example shows exists at the same place in the real output, and every key
// of the real output's top level is shown.
func shapeMatches(t *testing.T, example string, real []byte) {
	t.Helper()
	var doc, got any
	if err := json.Unmarshal([]byte(placeholders.ReplaceAllString(example, "")), &doc); err != nil {
		t.Fatalf("the example output is not JSON once its elisions are removed: %v", err)
	}
	if err := json.Unmarshal(real, &got); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, d, g any)
	walk = func(path string, d, g any) {
		switch dv := d.(type) {
		case map[string]any:
			gv, ok := g.(map[string]any)
			if !ok {
				t.Errorf("%s: the example shows an object, the output has %T", path, g)
				return
			}
			for k, v := range dv {
				if _, ok := gv[k]; !ok {
					t.Errorf("%s.%s: in the example, not in the output", path, k)
					continue
				}
				walk(path+"."+k, v, gv[k])
			}
		case []any:
			gv, ok := g.([]any)
			if !ok {
				t.Errorf("%s: the example shows an array, the output has %T", path, g)
				return
			}
			if len(dv) > 0 && len(gv) > 0 {
				walk(path+"[0]", dv[0], gv[0])
			}
		}
	}
	walk("output", doc, got)
	if dm, ok := doc.(map[string]any); ok {
		gm, _ := got.(map[string]any)
		var missing []string
		for k := range gm {
			if _, ok := dm[k]; !ok {
				missing = append(missing, k)
			}
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("the example leaves out the output's %s", strings.Join(missing, ", "))
		}
	}
}
