// Package intent is recmem's LLM-free instruction interpreter: it turns what
// a user types to steer recommendations ("no Halo", "I only play on
// PlayStation 2", "Mario, but not Mario Kart") into a structured Intent that
// the ranker keeps and the user can read back.
//
// An Intent has hard parts (Only: keep only items that meet them; Exclude:
// never show items that meet them), soft parts (Prefer: put items that meet
// them first; Avoid: put them last) and the words it could not ground
// (Unknown), which are never turned into a positive match.
//
// Parsing is a left-to-right scan over the instruction's words with a scope
// (positive, exclude, avoid, only) set by cues (grammar.go): negations and
// exclusivity open a scope, "but" and hard punctuation close it, and a list
// ("no Halo, Gears or Destiny") keeps it open while entities follow. Words are
// grounded by the Linker in the catalog's own facet values, the domain
// table's aliases, and, when no facet matches, in title phrases. The same
// input and catalog give the same Intent on every host: no maps are iterated
// in output order, no floating point is used.
package intent

import "strings"

// Clause is one grounded part of an intent: an entity (or a range of a
// number facet) and the words it was read from, with how they were grounded.
type Clause struct {
	Facet string `json:"facet"`
	// Value is the facet's value; for a number clause, the range in words
	// ("1970 to 1979", "at most 30").
	Value string `json:"value"`
	// Text is the words as typed.
	Text string `json:"text"`
	// How is how the words were grounded: exact, alias, synonym, typo,
	// inferred, number, implied, partial (the last word of a value's
	// name: "Tolkien"), or llm when the host's language model read
	// words the interpreter left unknown (the How* constants).
	How string `json:"how"`
	// Detail says it in words when the grounding is not the words
	// themselves: "spooky → Horror (everyday word)", "metriod → Metroid
	// (typo: one letter)", "Racing is inferred from titles and what
	// people took together".
	Detail string `json:"detail,omitempty"`
	// Min and Max bound a number clause (either may be open); Unit is
	// what the number counts (year, price, age, rating, minutes).
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Unit string   `json:"unit,omitempty"`
	// MinOpen and MaxOpen make a bound strict ("under $30": below 30).
	MinOpen bool `json:"min_open,omitempty"`
	MaxOpen bool `json:"max_open,omitempty"`
	// Group names the phrase that named several values at once
	// ("Nintendo": eleven platforms), so that they are shown as one.
	Group string `json:"group,omitempty"`
	// HintWords are the words a ranker may use as a hint for the clause
	// when its facet is inferred (the words typed, or, for an age, the
	// value): never output.
	HintWords []string `json:"-"`
	key       string   // the value's normalized phrase
	seq       int      // the parser's number of a plain mention
	whole     bool     // a title clause met only by the whole title ("It")
	relative  bool     // a half of a number facet from a relative word ("cheap")
	// alt marks an alternative to the clause before it ("Comedy or
	// Drama", or another value one phrase named): a list facet's values
	// are otherwise all asked for.
	alt bool
}

// Label is how a clause is shown: the value, or for a title phrase the
// words as typed.
func (c Clause) Label() string {
	if c.Facet == "title" {
		if c.How == HowTypo {
			return c.Value
		}
		return c.Text
	}
	if c.Numeric() {
		return c.Facet + " " + c.Value
	}
	return c.Value
}

// Intent is an instruction as understood.
type Intent struct {
	Only    []Clause `json:"only"`
	Exclude []Clause `json:"exclude"`
	Prefer  []Clause `json:"prefer"`
	Avoid   []Clause `json:"avoid"`
	// Unknown lists the words (as typed) that could not be grounded in the
	// catalog, in order, each once.
	Unknown []string `json:"unknown"`
	// Conflicts explains each contradiction and how it was settled.
	Conflicts []string `json:"conflicts"`
	// Notes say what else the reader should know (an empty instruction, a
	// negation with nothing after it, an "only" that could not be grounded).
	Notes []string `json:"notes"`
	// Positive and Negative are the ungrounded words of the positive and
	// the negated scopes: the ranker uses them as soft word-vector signals
	// (a negated word never adds score).
	Positive []string `json:"-"`
	Negative []string `json:"-"`
	// Hints are the words, as typed, that the ranker used only as hints
	// (word similarity), never as a match: the negated words not
	// understood and those grounded only in an inferred facet. Set by the
	// ranker (pkg/rank), which decides whether hints are used.
	Hints []string `json:"hints,omitempty"`
	// NegatedUnknown are the words of Unknown read in a negated scope.
	NegatedUnknown []string `json:"-"`
	// unknownAt says, for each word of Unknown, how it was read
	// (UnknownScope).
	unknownAt []unknownWord
}

// Empty reports whether the intent asks nothing of the ranker.
func (in *Intent) Empty() bool {
	return len(in.Only)+len(in.Exclude)+len(in.Prefer)+len(in.Avoid)+len(in.Positive)+len(in.Negative) == 0
}

// Hard reports whether the intent has hard constraints.
func (in *Intent) Hard() bool { return len(in.Only)+len(in.Exclude) > 0 }

// Summary is the intent in one line, as the chips show it: "only: PlayStation
// 4 · not: Halo · prefer: Zelda · avoid: Mario · not understood: shooters".
func (in *Intent) Summary() string {
	var parts []string
	add := func(name string, cs []Clause) {
		for _, c := range cs {
			parts = append(parts, name+": "+c.Label())
		}
	}
	add("only", in.Only)
	add("not", in.Exclude)
	add("prefer", in.Prefer)
	add("avoid", in.Avoid)
	if len(in.Unknown) > 0 {
		parts = append(parts, "not understood: "+strings.Join(in.Unknown, ", "))
	}
	return strings.Join(parts, " · ")
}
