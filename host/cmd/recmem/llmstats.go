package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"

	hostllm "github.com/recmem/recmem/host/llm"
)

func init() {
	commands["llm stats"] = command{
		summary: "summarize LLM recordings: calls, tokens and latency per step: recmem llm stats FILE...",
		run:     runLLMStats,
	}
}

// stepStats is one step's share of a recording.
type stepStats struct {
	Calls        int     `json:"calls"`
	Errors       int     `json:"errors"`
	Users        int     `json:"users"`
	InputTokens  float64 `json:"input_tokens_per_call"`
	OutputTokens float64 `json:"output_tokens_per_call"`
	P50MS        int64   `json:"p50_ms"`
	P90MS        int64   `json:"p90_ms"`
	MaxMS        int64   `json:"max_ms"`
}

// statsReport is the JSON output of llm stats.
type statsReport struct {
	Files     []string             `json:"files"`
	Sources   []string             `json:"sources"`
	Exchanges int                  `json:"exchanges"`
	Users     int                  `json:"users"`
	Steps     map[string]stepStats `json:"steps"`
}

// percentile is the nearest-rank p-th percentile of sorted xs (0 if empty).
func percentile(xs []int64, p float64) int64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(p*float64(len(xs))+0.999999) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

func runLLMStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("llm stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: recmem llm stats [--json] FILE...")
		return 2
	}
	rep := statsReport{Files: fs.Args(), Steps: map[string]stepStats{}}
	sources := map[string]bool{}
	users := map[string]bool{}
	stepUsers := map[string]map[string]bool{}
	lat := map[string][]int64{}
	in, out := map[string]int{}, map[string]int{}
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(stderr, "recmem llm stats:", err)
			return 1
		}
		dec := json.NewDecoder(f)
		for n := 1; dec.More(); n++ {
			var ex hostllm.Exchange
			if err := dec.Decode(&ex); err != nil {
				f.Close()
				fmt.Fprintf(stderr, "recmem llm stats: %s: exchange %d: %v\n", path, n, err)
				return 1
			}
			p := ex.Request.Purpose
			st := rep.Steps[p]
			st.Calls++
			if ex.Response.Error != "" {
				st.Errors++
			}
			rep.Steps[p] = st
			in[p] += ex.Response.InputTokens
			out[p] += ex.Response.OutputTokens
			lat[p] = append(lat[p], ex.LatencyMS)
			sources[ex.Source] = true
			users[ex.Request.User] = true
			if stepUsers[p] == nil {
				stepUsers[p] = map[string]bool{}
			}
			stepUsers[p][ex.Request.User] = true
			rep.Exchanges++
		}
		f.Close()
	}
	for p, st := range rep.Steps {
		xs := lat[p]
		slices.Sort(xs)
		st.Users = len(stepUsers[p])
		st.InputTokens = float64(in[p]) / float64(st.Calls)
		st.OutputTokens = float64(out[p]) / float64(st.Calls)
		st.P50MS, st.P90MS, st.MaxMS = percentile(xs, 0.5), percentile(xs, 0.9), xs[len(xs)-1]
		rep.Steps[p] = st
	}
	rep.Users = len(users)
	rep.Sources = slices.Sorted(maps.Keys(sources))
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "%d exchanges, %d users, from %d file(s)\n", rep.Exchanges, rep.Users, len(rep.Files))
	for _, s := range rep.Sources {
		fmt.Fprintf(stdout, "source: %s\n", s)
	}
	fmt.Fprintf(stdout, "%-10s %6s %6s %6s %9s %9s %8s %8s %8s\n", "step", "calls", "errors", "users", "in/call", "out/call", "p50 ms", "p90 ms", "max ms")
	steps := slices.Collect(maps.Keys(rep.Steps))
	sort.Strings(steps)
	for _, p := range steps {
		st := rep.Steps[p]
		fmt.Fprintf(stdout, "%-10s %6d %6d %6d %9.0f %9.0f %8d %8d %8d\n", p, st.Calls, st.Errors, st.Users, st.InputTokens, st.OutputTokens, st.P50MS, st.P90MS, st.MaxMS)
	}
	return 0
}
