package main

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/llm"
)

// stepOutcomes counts what became of one LLM step's answers over a run: how
// many were accepted (parsed and passing validation) and why the others fell
// back, by reason with ids and numbers masked ("unknown chunk "…"").
type stepOutcomes struct {
	Asked    int            `json:"asked"`
	Accepted int            `json:"accepted"`
	Valid    float64        `json:"valid_share"`
	Fallback map[string]int `json:"fallback_reasons,omitempty"`
}

// outcomeTally accumulates the "llm" outcomes of a run's export outputs.
type outcomeTally map[string]*stepOutcomes

var (
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	numberRE = regexp.MustCompile(`\d+(\.\d+)?`)
)

// reasonClass masks what varies between answers in a fallback reason, so that
// equal causes count together.
func reasonClass(r string) string {
	r = quotedRE.ReplaceAllString(r, `"…"`)
	r = numberRE.ReplaceAllString(r, "N")
	if len(r) > 160 {
		r = r[:160] + "…"
	}
	return r
}

func (t outcomeTally) add(os []llm.Outcome) {
	for _, o := range os {
		s := t[o.Purpose]
		if s == nil {
			s = &stepOutcomes{Fallback: map[string]int{}}
			t[o.Purpose] = s
		}
		s.Asked++
		if o.Status == "accepted" {
			s.Accepted++
		} else {
			s.Fallback[reasonClass(o.Reason)]++
		}
	}
}

func (t outcomeTally) merge(o outcomeTally) {
	for step, x := range o {
		s := t[step]
		if s == nil {
			s = &stepOutcomes{Fallback: map[string]int{}}
			t[step] = s
		}
		s.Asked += x.Asked
		s.Accepted += x.Accepted
		for r, n := range x.Fallback {
			s.Fallback[r] += n
		}
	}
}

// report returns the tally with the valid share of each step.
func (t outcomeTally) report() map[string]stepOutcomes {
	out := make(map[string]stepOutcomes, len(t))
	for step, s := range t {
		x := *s
		x.Valid = float64(x.Accepted) / float64(max(1, x.Asked))
		out[step] = x
	}
	return out
}

// printOutcomes writes the valid share per step and the fallback reasons,
// most frequent first.
func printOutcomes(w io.Writer, r map[string]stepOutcomes) {
	if len(r) == 0 {
		return
	}
	fmt.Fprintln(w, "LLM answers used (parsed and valid) per step:")
	for _, step := range slices.Sorted(maps.Keys(r)) {
		x := r[step]
		fmt.Fprintf(w, "  %-10s %d of %d (%.1f%%)\n", step, x.Accepted, x.Asked, 100*x.Valid)
		reasons := slices.Collect(maps.Keys(x.Fallback))
		sort.Slice(reasons, func(i, j int) bool {
			a, b := x.Fallback[reasons[i]], x.Fallback[reasons[j]]
			return a > b || a == b && reasons[i] < reasons[j]
		})
		for _, why := range reasons {
			fmt.Fprintf(w, "    %5d fallback: %s\n", x.Fallback[why], strings.ReplaceAll(why, "\n", " "))
		}
	}
}
