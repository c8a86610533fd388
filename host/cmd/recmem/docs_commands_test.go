package main

// The shell, HTTP and Node blocks of the docs (TestDocs, docs_test.go): the
// commands they name exist and the cheap ones run; requests and programs
// answer what the docs say.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recmem/recmem/host"
)

// assignments reads a line of shell variable assignments ("A=x; B=y"),
// recording them in vars; false when the line is anything else.
func assignments(line string, vars map[string]string) bool {
	var got [][2]string
	for _, st := range strings.Split(line, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(st), "=")
		if !ok || name == "" || strings.ContainsAny(name, " $") || strings.ContainsAny(value, " ") {
			return false
		}
		got = append(got, [2]string{name, value})
	}
	for _, kv := range got {
		vars[kv[0]] = kv[1]
	}
	return true
}

// commands checks each command line of a shell block (a line ending in a
// backslash goes on on the next): the recmem command and its flags exist
// (recmem COMMAND -h lists them), build.sh knows the mode, and the scripts
// it names exist. Cheap, self-contained commands run.
func (e *docEnv) commands(t *testing.T, b docBlock) {
	build, err := os.ReadFile(filepath.Join(repo, "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{} // shell variables the block sets
	// A line ending in a backslash goes on on the next one.
	text := strings.ReplaceAll(b.text, "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if assignments(line, vars) {
			continue
		}
		words := strings.Fields(strings.TrimPrefix(line, "nice "))
		for i, w := range words {
			if v, ok := vars[strings.TrimPrefix(w, "$")]; ok && strings.HasPrefix(w, "$") {
				words[i] = v
			}
		}
		switch {
		case strings.HasSuffix(words[0], "/python") && len(words) > 1:
			// A lab script (Python lives in scripts/ only): it must exist.
			if !strings.HasPrefix(words[1], "scripts/") {
				t.Errorf("%q runs Python outside scripts/", line)
			}
			mustExist(t, words[1])
		case strings.HasPrefix(words[0], "scripts/"):
			// A lab script run as it is (scripts/llm/run.sh): it must exist.
			mustExist(t, words[0])
		case words[0] == "bin/recmem":
			e.recmemCommand(t, words[1:])
		case words[0] == "./build.sh":
			mode := "build"
			if len(words) > 1 {
				mode = words[1]
			}
			if !strings.Contains(string(build), "\n  "+mode+")") {
				t.Errorf("./build.sh has no mode %q", mode)
			}
		case words[0] == "cd" && len(words) > 1:
			for _, w := range words {
				if strings.HasSuffix(w, ".js") || strings.HasSuffix(w, ".capnp") {
					mustExist(t, filepath.Join(words[1], w))
				}
			}
			mustExist(t, words[1])
		case words[0] == "node" && len(words) > 1 && strings.HasPrefix(words[1], "examples/"):
			// Run from web/ (web/test/examples.test.mjs and worker.test.mjs run them).
			mustExist(t, filepath.Join("web", words[1]))
		case words[0] == "deno" && len(words) > 1 && words[1] == "run":
			e.denoCommand(t, words[2:])
		case words[0] == "go" && len(words) > 2 && words[1] == "run":
			mustExist(t, words[2])
		default:
			t.Errorf("no rule for the command %q", line)
		}
	}
}

func mustExist(t *testing.T, rel string) {
	if _, err := os.Stat(filepath.Join(repo, rel)); err != nil {
		t.Errorf("the docs name %s, which does not exist", rel)
	}
}

// recmemCommand checks a recmem command line: its flags, and for `call
// exports` and `help`, its run.
func (e *docEnv) recmemCommand(t *testing.T, args []string) {
	if len(args) == 0 {
		t.Error("bin/recmem without a command")
		return
	}
	name := args[0]
	rest := args[1:]
	if len(args) > 1 {
		if _, ok := commands[args[0]+" "+args[1]]; ok {
			name, rest = args[0]+" "+args[1], args[2:]
		}
	}
	if name == "help" {
		var out bytes.Buffer
		if doMain([]string{"help"}, &out, io.Discard) != 0 || !strings.Contains(out.String(), "usage: recmem") {
			t.Error("recmem help failed")
		}
		return
	}
	if _, ok := commands[name]; !ok {
		t.Errorf("recmem has no command %q", name)
		return
	}
	var usage bytes.Buffer
	doMain(append(strings.Fields(name), "-h"), io.Discard, &usage)
	for _, a := range rest {
		a = strings.Trim(a, "[]")
		if !strings.HasPrefix(a, "-") || a == "-" || a == "..." {
			continue
		}
		flag, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(flag) + `\b`).MatchString(usage.String()) {
			t.Errorf("recmem %s has no flag -%s (its flags:\n%s)", name, flag, usage.String())
		}
	}
	if name == "call" && len(rest) == 1 && rest[0] == "exports" {
		var out bytes.Buffer
		if code := doMain([]string{"call", "exports", "--wasm", e.wasm}, &out, io.Discard); code != 0 || !strings.Contains(out.String(), `"record"`) {
			t.Errorf("recmem call exports: exit %d, %s", code, out.String())
		}
	}
}

// httpRequest sends the block's request to the stateless API and expects
// 200.
func (e *docEnv) httpRequest(t *testing.T, b docBlock) {
	head, body, ok := strings.Cut(b.text, "\n\n")
	if !ok {
		t.Fatal("no blank line between the request's headers and body")
	}
	first := strings.Fields(strings.SplitN(head, "\n", 2)[0])
	if len(first) < 2 || first[0] != "POST" || !strings.HasPrefix(first[1], "/v1/") {
		t.Fatalf("not a POST /v1/ request: %q", head)
	}
	code, out := e.send(t, strings.TrimPrefix(first[1], "/v1/"), body)
	if code != 200 {
		t.Fatalf("%d %s", code, out)
	}
}

func (e *docEnv) send(t *testing.T, export, body string) (int, []byte) {
	resp, err := http.Post(e.edge.URL+"/v1/"+export, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// nodeOutput runs web/examples/node.mjs and compares its output with the
// block.
func (e *docEnv) nodeOutput(t *testing.T, b docBlock) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	cmd := exec.Command(node, "--no-warnings", "examples/node.mjs", e.wasm)
	cmd.Dir = filepath.Join(repo, "web")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node examples/node.mjs: %v", err)
	}
	if string(out) != b.text {
		t.Fatalf("examples/node.mjs prints\n%s\nthe doc says\n%s", out, b.text)
	}
}

// denoCommand checks a `deno run` line of docs/js.md, run from web/: the
// files it names exist, and, when deno is on the PATH, it runs as written
// and prints what the Node example prints (the browser build's "wasi: 0 0"
// lines aside). Deno is not installed by ./build.sh.
func (e *docEnv) denoCommand(t *testing.T, args []string) {
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok {
			a = v // --import-map=FILE
		}
		if strings.HasSuffix(a, ".mjs") || strings.HasSuffix(a, ".json") {
			mustExist(t, filepath.Join("web", a))
		}
	}
	deno, err := exec.LookPath("deno")
	if err != nil {
		t.Log("deno is not on the PATH: its command is not run")
		return
	}
	cmd := exec.Command(deno, append([]string{"run"}, args...)...)
	cmd.Dir = filepath.Join(repo, "web")
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("deno run %s: %v", strings.Join(args, " "), err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(out), "\n") {
		if line != "wasi: 0 0\n" {
			kept = append(kept, line)
		}
	}
	if want := "maintenance: maintain\nc1 0.9 Prefers Xbox One\nrestored: true\n"; strings.Join(kept, "") != want {
		t.Fatalf("deno run prints\n%s\nnot what Node prints\n%s", out, want)
	}
}

// deltaRequest sends the request of docs/http.md's binary example: it
// starts a memory in binary form, puts that state and its tag in place of
// the example's elided ones, and returns the answer.
func (e *docEnv) deltaRequest(t *testing.T, example string) []byte {
	t.Helper()
	var req host.EdgeRequest
	if err := strictJSON(example, &req); err != nil {
		t.Fatalf("the example request is not a request: %v", err)
	}
	var units []string
	for i := range 40 {
		units = append(units, fmt.Sprintf(`{"id":"D%d:%d","session":"S%d","speaker":"Ann","text":"Turn %d: the pottery class, the kiln and the glaze."}`, i/20+1, i%20+1, i/20+1, i))
	}
	code, body := e.send(t, "add_units", `{"format":"binary","input":{"units":[`+strings.Join(units, ",")+`]}}`)
	var first host.EdgeResponse
	if err := json.Unmarshal(body, &first); err != nil || code != 200 || first.State == "" {
		t.Fatalf("a binary state to start from: %d %s", code, body)
	}
	req.State, req.Tag = first.State, first.Tag
	b, _ := json.Marshal(req)
	code, body = e.send(t, "add_units", string(b))
	if code != 200 {
		t.Fatalf("the example request: %d %s", code, body)
	}
	return body
}

// baseTagRequest sends the request of docs/http.md's base_tag example with
// the tag of a binary state the server just answered with in place of the
// elided one: it must be served by tag, its answer carrying no state.
func (e *docEnv) baseTagRequest(t *testing.T, example string) {
	t.Helper()
	var req host.EdgeRequest
	if err := strictJSON(example, &req); err != nil {
		t.Fatalf("the example request is not a request: %v", err)
	}
	code, body := e.send(t, "add_units", `{"format":"binary","input":{"units":[{"id":"D1:1","session":"S1","speaker":"Ann","text":"The pottery class is on Tuesday."}]}}`)
	var first host.EdgeResponse
	if err := json.Unmarshal(body, &first); err != nil || code != 200 || first.State == "" {
		t.Fatalf("a binary state to start from: %d %s", code, body)
	}
	req.BaseTag = first.Tag
	b, _ := json.Marshal(req)
	code, body = e.send(t, "select_slate", string(b))
	var r host.EdgeResponse
	if err := json.Unmarshal(body, &r); err != nil || code != 200 || r.State != "" || r.Tag != first.Tag {
		t.Fatalf("the example request: %d %s", code, body)
	}
}
