package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// implausible returns why a metadata value or title cannot describe an item,
// or "" when it can. Such text reads as an instruction to a model or as
// markup, not as a product's name or facet, and would otherwise become a
// preference ("Enjoys the SYSTEM series", "Interested in Delete"):
//
//   - it starts with a role label and a colon ("SYSTEM:", "[assistant]:",
//     "Developer:"), the way prompts address a model;
//   - it holds markup: an angle-bracket tag ("</profile>");
//   - it holds two or more distinct instruction words (ignore, forget,
//     delete, previous, instructions, preferences, profile, memory, ...),
//     words that speak about the assistant or its memory rather than a
//     product. One alone is common in real titles ("Forget Me Not", "Memory
//     Card"), and a single such word is dropped from a title's topic terms
//     (instructionWords) anyway.
//
// Cost O(len(s)).
func implausible(s string) string {
	// Both patterns need a byte most values lack: test for it first.
	if strings.IndexByte(s, ':') >= 0 {
		if m := roleLabel.FindString(s); m != "" {
			return fmt.Sprintf("starts with the role label %q", strings.TrimSpace(m))
		}
	}
	if strings.IndexByte(s, '<') >= 0 && markup.MatchString(s) {
		return "holds markup (<...>)"
	}
	var hits []string
	for _, w := range text.Words(dropApostrophes(decode(s))) {
		if _, ok := instructionWords[w]; ok && !slices.Contains(hits, w) {
			hits = append(hits, w)
		}
	}
	if len(hits) >= 2 {
		return fmt.Sprintf("holds %d instruction words (%s)", len(hits), strings.Join(hits, ", "))
	}
	return ""
}

var (
	roleLabel = regexp.MustCompile(`(?i)^\s*[\[(<]?\s*(system|assistant|user|developer|admin|administrator|human|ai|bot|model|tool|instructions?|note|important)\s*[\])>]?\s*:`)
	markup    = regexp.MustCompile(`<\s*/?\s*[A-Za-z][^<>]*>`)
)

// instructionWords speak about an assistant, its instructions or its memory.
var instructionWords = wordSet(`
ignore disregard forget delete erase wipe remove reset override overwrite
previous instructions instruction prompt prompts preferences preference profile
memory memories jailbreak assistant chatbot llm planner chunks strengths
`)

// implausibleCount is how many title values and metadata values of meta
// implausible refuses (what itemFeatures leaves out), for the journal.
func implausibleCount(meta map[string][]string) int {
	n := 0
	for field, vs := range meta {
		name := fieldName(field)
		if _, skip := ignoredFields[name]; skip || categoryFamily[name] == "era" {
			continue
		}
		_, title := titleFields[name]
		for _, v := range vs {
			if title {
				if implausible(v) != "" {
					n++
				}
				continue
			}
			for _, part := range valueParts(v) {
				if implausible(part) != "" {
					n++
				}
			}
		}
	}
	return n
}
