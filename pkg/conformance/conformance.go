// Package conformance loads recmem's conformance cases and runs them against any
// host: natively on pkg/engine, through the Go host on the .wasm, or (with the
// same files) through Node. Every host must produce byte-identical outputs.
//
// A case file in testdata/conformance holds one case or an array of cases:
//
//	{"name": "...", "export": "record",
//	 "state": null | state document,      // imported before anything else
//	 "setup": [{"export": "...", "input": ...}],  // calls that must succeed
//	 "input": any JSON,                  // input of the call under test
//	 "input_b64": "...",                 // or: raw input bytes, base64 (invalid UTF-8, broken JSON)
//	 "llm": {"steps": [...], "answers": {"extract": "...", ...}},  // optional scripted LLM
//	 "want": JSON output | {"error": "exact message"},
//	 "want_state": optional state document after the call}
//
// A case with "llm" runs with those steps asking a scripted model that
// answers each purpose with the given text (and any other purpose with an
// error, so that step falls back to its LLM-free policy).
//
// The expected output is compared byte for byte with the export's output after
// whitespace is removed from "want" (key order matters).
package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
)

// Step is one export call with its JSON input.
type Step struct {
	Export string          `json:"export"`
	Input  json.RawMessage `json:"input"`
}

// Case is one conformance case.
type Case struct {
	File     string          `json:"-"`
	Name     string          `json:"name"`
	Comment  string          `json:"comment,omitempty"`
	Export   string          `json:"export"`
	State    json.RawMessage `json:"state,omitempty"`
	Setup    []Step          `json:"setup,omitempty"`
	Input    json.RawMessage `json:"input,omitempty"`
	InputB64 string          `json:"input_b64,omitempty"`
	LLM      *LLMScript      `json:"llm,omitempty"`
	// Expect states the outcome in words a reviewer checks first: "error"
	// (refused, state unchanged), "ok" (accepted as data), "fallback" (an
	// LLM answer rejected and the LLM-free policy used) or "accepted" (an
	// LLM answer used). Check holds the result to it, whatever "want" says.
	Expect    string          `json:"expect,omitempty"`
	Want      json.RawMessage `json:"want"`
	WantState json.RawMessage `json:"want_state,omitempty"`
}

// LLMScript is a scripted model for a case: the steps that ask it and its
// answer text per purpose.
type LLMScript struct {
	Steps   []string          `json:"steps"`
	Answers map[string]string `json:"answers"`
}

// Answer returns the scripted text for a purpose, or an error message when
// there is none (the step then falls back).
func (s *LLMScript) Answer(purpose string) (text, errMsg string) {
	if a, ok := s.Answers[purpose]; ok {
		return a, ""
	}
	return "", "no scripted answer for " + purpose
}

// Complete implements llm.Completer with the scripted answers; the token
// counts are those of a tokenizer-free estimate (4 characters a token).
func (s *LLMScript) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	text, errMsg := s.Answer(r.Purpose)
	if errMsg != "" {
		return llm.Response{Error: errMsg}, nil
	}
	in := 0
	for _, m := range r.Messages {
		in += (len(m.Content) + 3) / 4
	}
	return llm.Response{Text: text, InputTokens: in, OutputTokens: (len(text) + 3) / 4}, nil
}

// ID names the case as "file/name" for subtests and reports.
func (c Case) ID() string { return strings.TrimSuffix(c.File, ".json") + "/" + c.Name }

// WantError returns the expected error message, if the case expects one.
func (c Case) WantError() (string, bool) {
	var w struct {
		Error *string `json:"error"`
	}
	if json.Unmarshal(c.Want, &w) != nil || w.Error == nil {
		return "", false
	}
	// An object with only "error" is an expected error.
	var m map[string]json.RawMessage
	if json.Unmarshal(c.Want, &m) == nil && len(m) == 1 {
		return *w.Error, true
	}
	return "", false
}

// LoadAll loads the cases of several directories (conformance and hostile
// cases share the format), failing if any directory has none.
func LoadAll(dirs ...string) ([]Case, error) {
	var all []Case
	for _, d := range dirs {
		cs, err := Load(d)
		if err != nil {
			return nil, err
		}
		for i := range cs {
			cs[i].File = filepath.Base(d) + "/" + cs[i].File
		}
		all = append(all, cs...)
	}
	return all, nil
}

// Load reads every *.json file in dir, in name order. It fails if no case is
// found, so a runner can never pass vacuously.
func Load(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Case
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cs []Case
		if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
			err = json.Unmarshal(b, &cs)
		} else {
			var c Case
			err = json.Unmarshal(b, &c)
			cs = []Case{c}
		}
		if err != nil {
			return nil, fmt.Errorf("conformance: %s: %w", f, err)
		}
		for i := range cs {
			cs[i].File = filepath.Base(f)
			if cs[i].Name == "" || cs[i].Export == "" || len(cs[i].Want) == 0 {
				return nil, fmt.Errorf("conformance: %s case %d: name, export and want are required", f, i)
			}
			if seen[cs[i].ID()] {
				return nil, fmt.Errorf("conformance: duplicate case %s", cs[i].ID())
			}
			seen[cs[i].ID()] = true
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("conformance: no cases found in %s", dir)
	}
	return all, nil
}

// Result is what one case produced on one host.
type Result struct {
	Output []byte // the export's output, or nil on error
	Err    string // the error message, or ""
	State  []byte // export_state after the call, when the case asks for it
}

// Run executes c on a fresh caller: imports the state, runs the setup steps and
// the call under test. Errors in state import or setup are returned as err.
func Run(c Case, call engine.Caller) (Result, error) {
	if len(c.State) > 0 && string(c.State) != "null" {
		if _, err := call.Call("import_state", c.State); err != nil {
			return Result{}, fmt.Errorf("import state: %w", err)
		}
	}
	for i, s := range c.Setup {
		if _, err := call.Call(s.Export, inputBytes(s.Input)); err != nil {
			return Result{}, fmt.Errorf("setup[%d] %s: %w", i, s.Export, err)
		}
	}
	var r Result
	in := inputBytes(c.Input)
	if c.InputB64 != "" {
		b, err := base64.StdEncoding.DecodeString(c.InputB64)
		if err != nil {
			return Result{}, fmt.Errorf("input_b64: %w", err)
		}
		in = b
	}
	out, err := call.Call(c.Export, in)
	if err != nil {
		r.Err = err.Error()
	} else {
		r.Output = out
	}
	if len(c.WantState) > 0 {
		st, err := call.Call("export_state", nil)
		if err != nil {
			return r, fmt.Errorf("export_state after call: %w", err)
		}
		r.State = st
	}
	return r, nil
}

func inputBytes(raw json.RawMessage) []byte {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return Compact(raw)
}

// Check compares a result with the case's expectations and explains the first
// difference.
func Check(c Case, r Result) error {
	if err := checkExpect(c, r); err != nil {
		return err
	}
	if msg, ok := c.WantError(); ok {
		if r.Err == "" {
			return fmt.Errorf("want error %q, got output %s", msg, r.Output)
		}
		if r.Err != msg {
			return fmt.Errorf("error mismatch\n got: %s\nwant: %s", r.Err, msg)
		}
	} else {
		if r.Err != "" {
			return fmt.Errorf("unexpected error: %s", r.Err)
		}
		if want := Compact(c.Want); !bytes.Equal(r.Output, want) {
			return fmt.Errorf("output mismatch\n got: %s\nwant: %s", r.Output, want)
		}
	}
	if len(c.WantState) > 0 {
		if want := Compact(c.WantState); !bytes.Equal(r.State, want) {
			return fmt.Errorf("state mismatch\n got: %s\nwant: %s", r.State, want)
		}
	}
	return nil
}

// checkExpect holds a result to the case's stated outcome.
func checkExpect(c Case, r Result) error {
	switch c.Expect {
	case "":
		return nil
	case "error":
		if r.Err == "" {
			return fmt.Errorf("expected an error, got output %s", r.Output)
		}
	case "ok":
		if r.Err != "" {
			return fmt.Errorf("expected success, got error %s", r.Err)
		}
	case "fallback", "accepted":
		if r.Err != "" {
			return fmt.Errorf("expected an LLM %s, got error %s", c.Expect, r.Err)
		}
		if !bytes.Contains(r.Output, []byte(`"status":"`+c.Expect+`"`)) {
			return fmt.Errorf("expected an LLM outcome %q in %s", c.Expect, r.Output)
		}
	default:
		return fmt.Errorf("unknown expect %q", c.Expect)
	}
	return nil
}

// Compact removes insignificant whitespace from JSON without reordering keys or
// reformatting numbers.
func Compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// ErrNoCases is returned when a runner was handed nothing to run.
var ErrNoCases = errors.New("conformance: zero cases")
