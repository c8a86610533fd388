package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/engine"
)

func init() {
	commands["call"] = command{
		summary: "run one export of the module: recmem call EXPORT [INPUT_JSON | --in FILE]",
		run:     runCall,
	}
}

// openCaller returns a plugin instance (or the native engine with native set)
// and a function that releases it.
func openCaller(ctx context.Context, native bool, wasm string) (engine.Caller, func(), error) {
	return openCallerLLM(ctx, native, wasm, nil)
}

// openCallerLLM is openCaller with an LLM behind llm_complete (nil: none).
func openCallerLLM(ctx context.Context, native bool, wasm string, l *llmSetup) (engine.Caller, func(), error) {
	if l == nil {
		l = &llmSetup{}
	}
	if native {
		e, err := l.nativeEngine()
		if err != nil {
			return nil, nil, err
		}
		return e, func() {}, nil
	}
	rt, err := host.Open(ctx, l.options(wasm))
	if err != nil {
		return nil, nil, err
	}
	in, err := rt.NewInstance(ctx)
	if err != nil {
		rt.Close(ctx)
		return nil, nil, err
	}
	return in, func() { in.Close(ctx); rt.Close(ctx) }, nil
}

func runCall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	inFile := fs.String("in", "", "read the export's input JSON from `FILE` (- for stdin)")
	stateFile := fs.String("state", "", "import the state document in `FILE` before the call")
	saveFile := fs.String("save", "", "write the state document after the call to `FILE` (may equal --state)")
	catFile := fs.String("catalog", "", "load the catalog asset in `FILE` (binary or JSON) before the call, for rank")
	native := fs.Bool("native", false, "run pkg/ natively instead of the .wasm module")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	pretty := fs.Bool("pretty", false, "indent the output")
	lf := addLLMFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: recmem call EXPORT [INPUT_JSON] [flags]")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexports:", engine.Names())
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fs.Usage()
		return 2
	}
	export := args[0]
	// Flags may come before or after the input (flag stops at the first
	// argument that is not a flag, so parse the rest again after it).
	var positional []string
	for rest := args[1:]; ; {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	var input []byte
	switch {
	case len(positional) > 1:
		fmt.Fprintln(stderr, "recmem call: give the input once, as one argument or with --in")
		return 2
	case len(positional) == 1:
		input = []byte(positional[0])
	case *inFile == "-":
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, "recmem call:", err)
			return 1
		}
		input = b
	case *inFile != "":
		b, err := os.ReadFile(*inFile)
		if err != nil {
			fmt.Fprintln(stderr, "recmem call:", err)
			return 1
		}
		input = b
	}
	ctx := context.Background()
	llmSet, err := lf.open()
	if err != nil {
		fmt.Fprintln(stderr, "recmem call:", err)
		return 2
	}
	defer llmSet.close()
	c, done, err := openCallerLLM(ctx, *native, *wasm, llmSet)
	if err != nil {
		fmt.Fprintln(stderr, "recmem call:", err)
		return 1
	}
	defer done()
	if *catFile != "" {
		b, err := os.ReadFile(*catFile)
		if err != nil {
			fmt.Fprintln(stderr, "recmem call:", err)
			return 1
		}
		if _, err := c.Call("load_catalog", b); err != nil {
			fmt.Fprintln(stderr, "recmem call: loading the catalog:", err)
			return 1
		}
	}
	if *stateFile != "" {
		st, err := os.ReadFile(*stateFile)
		if err != nil {
			fmt.Fprintln(stderr, "recmem call:", err)
			return 1
		}
		if _, err := c.Call("import_state", st); err != nil {
			fmt.Fprintln(stderr, "recmem call: importing state:", err)
			return 1
		}
	}
	out, err := c.Call(export, input)
	if err != nil {
		fmt.Fprintln(stderr, "recmem call:", err)
		return 1
	}
	if *pretty {
		var buf bytes.Buffer
		if json.Indent(&buf, out, "", "  ") == nil {
			out = buf.Bytes()
		}
	}
	stdout.Write(out)
	fmt.Fprintln(stdout)
	if *saveFile != "" {
		st, err := c.Call("export_state", nil)
		if err != nil {
			fmt.Fprintln(stderr, "recmem call: exporting state:", err)
			return 1
		}
		if err := writeFileAtomic(*saveFile, st); err != nil {
			fmt.Fprintln(stderr, "recmem call:", err)
			return 1
		}
	}
	return 0
}

// writeFileAtomic writes b to a temporary file beside path and renames it into
// place, so a crash never leaves a half-written state document.
func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
