package intent

import (
	"fmt"
	"slices"
	"strings"
)

// Relaxed names a hard constraint that was dropped because no candidate met
// every constraint, and why.
type Relaxed struct {
	Constraint string `json:"constraint"` // "only" or "exclude"
	Facet      string `json:"facet"`
	Value      string `json:"value"`
	Reason     string `json:"reason"`
	// labels are the labels of the dropped clauses, as Value joins them
	// with " or " (a label may hold " or " itself: "suitable from age 2 or
	// younger").
	labels []string
}

// group is one hard constraint: the Only clauses of one facet (met when any
// is: "only PS4 or Xbox One"), or one exclusion.
type group struct {
	only    bool
	facet   string
	clauses []Clause
	meets   []bool // per item: meets one of the clauses
	active  bool
}

func (g *group) passes(i int) bool { return g.meets[i] == g.only }

// byModel reports whether every clause of g was read by a language model.
func (g *group) byModel() bool {
	for _, c := range g.clauses {
		if c.How != HowLLM {
			return false
		}
	}
	return true
}

func (g *group) label() string { return strings.Join(g.labels(), " or ") }

// labels are the group's distinct clause labels (a phrase's group once).
func (g *group) labels() []string {
	var ls []string
	for _, c := range g.clauses {
		l := c.Label()
		if c.Group != "" {
			l = c.Group
		}
		if !slices.Contains(ls, l) {
			ls = append(ls, l)
		}
	}
	return ls
}

// GroupOf is the group of a facet for "only" constraints: the title and
// the table's title facets are one group ("Zelda or Mario" keeps either,
// though one is a series and the other a title phrase); any other facet is
// its own.
func (l *Linker) GroupOf(facet string) string {
	if facet == "title" || l.titleFace[facet] {
		return "title"
	}
	return facet
}

// onlyGroups splits the Only clauses into the groups that must each be
// met: the clauses of one facet are alternatives ("PS4 or Xbox One": an item
// has one platform), the title and title facets one group; but the values
// of a list facet are all asked for ("romantic comedies": Romance and
// Comedy), unless the words joined them with "or" or one phrase named them
// together. O(clauses).
func (l *Linker) onlyGroups(in *Intent) [][]Clause {
	var out [][]Clause
	at := map[string]int{} // group key → index in out of its last group
	for _, c := range in.Only {
		key := l.GroupOf(c.Facet)
		k, seen := at[key]
		switch {
		case seen && (!l.isList(c.Facet) || c.alt):
			out[k] = append(out[k], c)
		default:
			at[key] = len(out)
			out = append(out, []Clause{c})
		}
	}
	return out
}

// isList reports whether facet f is a list column.
func (l *Linker) isList(f string) bool {
	k, ok := l.colOf[f]
	return ok && l.cols[k].Type == ColList
}

// MeetsHard reports whether an item meets the intent's hard constraints
// (the rule of Filter, without relaxation). O(clauses · title length).
func (l *Linker) MeetsHard(in *Intent, it *Item) bool {
	for _, g := range l.onlyGroups(in) {
		ok := false
		for _, c := range g {
			ok = ok || l.Meets(c, it)
		}
		if !ok {
			return false
		}
	}
	for _, c := range in.Exclude {
		if l.Meets(c, it) {
			return false
		}
	}
	return true
}

// Filter applies the hard constraints to items: an item is kept when, for
// every facet of the Only clauses, it meets one of them, and it meets no
// Exclude clause. When no item is left, the weakest constraint is dropped
// and reported, and so on until some item is kept: one a language model read
// (HowLLM) before any other, an "only" before an exclusion (an exclusion is
// a promise never to show something), and among them the one whose removal
// keeps the most items (the last mentioned on a tie). keep is nil when the
// intent has no hard constraint. O(items · clauses · title length).
func (l *Linker) Filter(in *Intent, items []*Item) (keep []bool, relaxed []Relaxed) {
	if !in.Hard() || len(items) == 0 {
		return nil, nil
	}
	var gs []*group
	for _, cs := range l.onlyGroups(in) {
		gs = append(gs, &group{only: true, facet: cs[0].Facet, clauses: cs, active: true})
	}
	// An exclusion is its own group, but the values one phrase named
	// ("not Nintendo": eleven platforms) are one.
	byPhrase := map[string]*group{}
	for _, c := range in.Exclude {
		if c.Group != "" {
			if g := byPhrase[c.Facet+"\x00"+c.Group]; g != nil {
				g.clauses = append(g.clauses, c)
				continue
			}
		}
		g := &group{facet: c.Facet, clauses: []Clause{c}, active: true}
		gs = append(gs, g)
		if c.Group != "" {
			byPhrase[c.Facet+"\x00"+c.Group] = g
		}
	}
	for _, g := range gs {
		g.meets = make([]bool, len(items))
		for i, it := range items {
			for _, c := range g.clauses {
				if l.Meets(c, it) {
					g.meets[i] = true
					break
				}
			}
		}
	}
	count := func(skip *group) int {
		n := 0
		for i := range items {
			ok := true
			for _, g := range gs {
				if g.active && g != skip && !g.passes(i) {
					ok = false
					break
				}
			}
			if ok {
				n++
			}
		}
		return n
	}
	// The order of relaxation: what a language model read (HowLLM) before
	// anything the interpreter grounded, so that a model's clause never
	// costs one of the user's own; then "only" before exclusions.
	order := []struct{ llm, only bool }{{true, true}, {true, false}, {false, true}, {false, false}}
	for count(nil) == 0 {
		var best *group
		bestN := -1
		for _, o := range order {
			for _, g := range gs {
				if !g.active || g.only != o.only || g.byModel() != o.llm {
					continue
				}
				if n := count(g); n >= bestN {
					best, bestN = g, n
				}
			}
			if best != nil {
				break
			}
		}
		best.active = false
		kind, what := "exclude", "not "+best.label()
		if best.only {
			kind, what = "only", "only "+best.label()
		}
		reason := fmt.Sprintf("no candidate met every constraint: %q was dropped", what)
		if bestN > 0 {
			reason += fmt.Sprintf(", which leaves %d", bestN)
		}
		relaxed = append(relaxed, Relaxed{Constraint: kind, Facet: best.facet, Value: best.label(), Reason: reason, labels: best.labels()})
	}
	keep = make([]bool, len(items))
	for i := range items {
		keep[i] = true
		for _, g := range gs {
			if g.active && !g.passes(i) {
				keep[i] = false
				break
			}
		}
	}
	return keep, relaxed
}

// Without returns the intent less the relaxed constraints, so that what an
// item is said to meet is what was enforced.
func (in Intent) Without(relaxed []Relaxed) Intent {
	if len(relaxed) == 0 {
		return in
	}
	dropped := func(kind string, c Clause) bool {
		for _, r := range relaxed {
			// An "only" group may mix the title and title facets.
			if r.Constraint == kind && (r.Facet == c.Facet || kind == "only") {
				ls := r.labels
				if ls == nil { // read back from JSON
					ls = append(strings.Split(r.Value, " or "), r.Value)
				}
				for _, v := range ls {
					if v == c.Label() || (c.Group != "" && v == c.Group) {
						return true
					}
				}
			}
		}
		return false
	}
	out := in
	out.Only, out.Exclude = nil, nil
	for _, c := range in.Only {
		if !dropped("only", c) {
			out.Only = append(out.Only, c)
		}
	}
	for _, c := range in.Exclude {
		if !dropped("exclude", c) {
			out.Exclude = append(out.Exclude, c)
		}
	}
	return out
}

// Meeting describes what item it meets of the intent, as the explanation and
// the page show it: the Only values it has, "not X" for each exclusion
// enforced, the preferences it meets, and "avoid: X" for each avoidance it
// falls under. prefer and avoid count the soft clauses met.
func (l *Linker) Meeting(in *Intent, it *Item) (parts []string, prefer, avoid int) {
	for _, c := range in.Only {
		if l.Meets(c, it) {
			parts = append(parts, c.Label())
		}
	}
	// The values one phrase named are said once ("not Nintendo").
	said := map[string]bool{}
	for _, c := range in.Exclude {
		if c.Group != "" {
			if said[c.Group] {
				continue
			}
			met := false
			for _, o := range in.Exclude {
				met = met || (o.Group == c.Group && l.Meets(o, it))
			}
			said[c.Group] = true
			if !met {
				parts = append(parts, "not "+c.Group)
			}
			continue
		}
		if !l.Meets(c, it) {
			parts = append(parts, "not "+c.Label())
		}
	}
	for _, c := range in.Prefer {
		if l.Meets(c, it) {
			parts = append(parts, c.Label())
			prefer++
		}
	}
	for _, c := range in.Avoid {
		if l.Meets(c, it) {
			parts = append(parts, "avoid: "+c.Label())
			avoid++
		}
	}
	return parts, prefer, avoid
}
