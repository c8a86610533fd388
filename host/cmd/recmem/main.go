// Command recmem runs the recmem WebAssembly module from the command line:
// calling exports, walking through a user's memory, evaluating, training,
// serving and benchmarking. Run `recmem help` for the list.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() { os.Exit(doMain(os.Args[1:], os.Stdout, os.Stderr)) }

// command is one subcommand. run returns the process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is filled by init functions, one file per subcommand family.
var commands = map[string]command{}

func doMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	name := args[0]
	// Two-word commands ("eval slate", "train catalog") are registered as such.
	if len(args) > 1 {
		if c, ok := commands[name+" "+args[1]]; ok {
			return c.run(args[2:], stdout, stderr)
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "recmem: unknown command %q\n\n", strings.Join(args[:min(2, len(args))], " "))
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: recmem COMMAND [flags]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun `recmem COMMAND -h` for a command's flags.")
}
