package slatelab

import (
	"slices"
	"sort"

	"github.com/recmem/recmem/pkg/dataset"
)

// LoCoMo's question categories by name (Maharana et al., ACL 2024: category
// 1 is multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial).
// A LongMemEval question keeps its question_type as its category.
var locomoCategories = map[string]string{"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}

// CategoryOrder is the order of LoCoMo's categories in reports.
var CategoryOrder = []string{"single-hop", "multi-hop", "temporal", "open-domain", "adversarial"}

// CategoryName returns a question category's name: LoCoMo's numbers by
// name, anything else as it is.
func CategoryName(c string) string {
	if n, ok := locomoCategories[c]; ok {
		return n
	}
	return c
}

// Adversarial reports whether q is one of LoCoMo's adversarial questions
// (category 5) with evidence: it asks about something the conversation does
// not say (often of the other speaker). It is left out of the headline
// figures (dataset.Question.Eligible) and reported as its own category.
func Adversarial(q dataset.Question) bool { return q.Category == "5" && len(q.Evidence) > 0 }

// Categories are per-category tallies, by category name.
type Categories map[string]*Tally

// Add records an outcome under the question's category.
func (c Categories) Add(category string, o Outcome) {
	name := CategoryName(category)
	t := c[name]
	if t == nil {
		t = &Tally{}
		c[name] = t
	}
	t.Add(o)
}

// Names returns the categories present, LoCoMo's in CategoryOrder, any
// other after them by name.
func (c Categories) Names() []string {
	var out, rest []string
	for _, n := range CategoryOrder {
		if c[n] != nil {
			out = append(out, n)
		}
	}
	for n := range c {
		if !slices.Contains(CategoryOrder, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
