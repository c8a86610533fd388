package intent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// Limits of what one intent reports, so that a 4,000-byte instruction gives
// a readable answer.
const (
	maxClauses = 50
	maxUnknown = 30
)

type scope int

const (
	scopePositive scope = iota
	scopeExclude
	scopeAvoid
	scopeOnly
	scopePrefer
)

// parser is one Parse in progress.
type parser struct {
	l    *Linker
	x    *Extra
	toks []text.Token
	in   Intent
	mode scope
	// cue is the words of the cue that opened the current scope, and
	// cueUsed whether anything followed it.
	cue     string
	cueUsed bool
	// recent indexes the Prefer clauses added since the last boundary: a
	// closing "only" ("Halo only") turns them into Only clauses.
	recent []int
	// plain and prevPlain are the sequence numbers of the plain mentions
	// (Only clauses of the positive scope) of this sentence and of the
	// previous one: a negation with nothing after it applies to them
	// ("Destiny is not for me", "Borderlands? Not interested.").
	plain, prevPlain []int
	seq              int
	// implied are the values suggested by filler words of positive scopes
	// ("PS2 games": kind game), added as preferences when the scan ends.
	implied []Clause
	// typed holds, for a word corrected as a typo, the word as typed.
	typed map[int]string
	// or is set by an "or" join and read by the next entity added.
	or bool
}

// Parse interprets an instruction against the linker's catalog, plus the
// vocabulary x of the request's own candidate metadata (nil for none).
// Deterministic; O(words · longest phrase) map lookups: about 10 µs for a
// sentence (BenchmarkParse).
func (l *Linker) Parse(instruction string, x *Extra) Intent {
	p := &parser{l: l, x: x, toks: text.Analyze(instruction)}
	p.in = Intent{Only: []Clause{}, Exclude: []Clause{}, Prefer: []Clause{}, Avoid: []Clause{},
		Unknown: []string{}, Conflicts: []string{}, Notes: []string{}}
	p.correctTypos()
	p.run()
	p.settle()
	return p.in
}

func (p *parser) isWord(i int) bool { return i < len(p.toks) && p.toks[i].Mark == 0 }

// skippable reports whether word i carries no constraint (a stopword or the
// domain's filler).
func (p *parser) skippable(i int) bool {
	w := p.toks[i].Norm
	return stopwords[w] || p.l.filler[w]
}

func (p *parser) run() {
	n := len(p.toks)
	words := 0
	for _, t := range p.toks {
		if t.Mark == 0 {
			words++
		}
	}
	if words == 0 {
		p.note("no instruction: nothing to act on")
		return
	}
	for i := 0; i < n; {
		t := p.toks[i]
		switch t.Mark {
		case '.':
			p.closeScope()
			if len(p.plain) > 0 {
				p.prevPlain = p.plain
			}
			p.plain = nil
			i++
			continue
		case ',':
			// A list goes on after a comma when an entity follows at once.
			if p.mode != scopePositive && p.listGoesOn(i+1) {
				i++
				continue
			}
			p.closeScope()
			i++
			continue
		}
		// A name of two or more words wins over a cue it starts with
		// ("Just Dance", "No More Heroes").
		if k, ents := p.entity(i, 2); k > 0 {
			p.add(i, k, ents)
			i += k
			continue
		}
		// A number with its comparison wins over the cues it starts with
		// ("less than 90 minutes", "no more than $20").
		if k, m := p.numeric(i); k > 0 {
			p.addNumber(i, k, m)
			i += k
			continue
		}
		// A relative word wins over the cue it starts with ("pas cher":
		// cheap, not a negation).
		if k, r := p.relativeAt(i); k > 0 {
			p.addRelative(i, k, r)
			i += k
			continue
		}
		if k, kind := p.cueAt(i); k > 0 {
			p.onCue(i, k, kind)
			i += k
			continue
		}
		if p.skippable(i) {
			if p.mode != scopePositive && p.mode != scopePrefer && !p.cueUsed {
				if k, title := p.stopTitle(i); k > 0 {
					p.addWith(i, k, []Entity{{Facet: "title", Value: title}}, nil)
					p.markWhole(title)
					i += k
					continue
				}
			}
			p.imply(t)
			i++
			continue
		}
		if k, ents := p.entity(i, 1); k > 0 {
			p.add(i, k, ents)
			i += k
			continue
		}
		switch {
		case isNumber(t.Norm) || strings.Count(t.Norm, ".") == 1 && isNumber(strings.Replace(t.Norm, ".", "", 1)):
			p.cueUsed = true
			p.note(fmt.Sprintf("not sure what %q counts (a year, a price?): not used", t.Orig))
		case !p.vectorSynonym(i):
			p.unknown(t)
		}
		i++
	}
	p.closeScope()
	p.addImplied()
	if p.in.Empty() && len(p.in.Unknown) == 0 && len(p.in.Notes) == 0 {
		p.note("only common words: nothing to act on")
	}
}

func (p *parser) note(s string) {
	for _, n := range p.in.Notes {
		if n == s {
			return
		}
	}
	p.in.Notes = append(p.in.Notes, s)
}

// markWhole makes the title clauses of key met only by the whole title.
func (p *parser) markWhole(key string) {
	for _, cs := range [][]Clause{p.in.Only, p.in.Exclude, p.in.Avoid} {
		for i := range cs {
			if cs[i].Facet == "title" && cs[i].key == key {
				cs[i].whole = true
			}
		}
	}
}

// stopTitle reads at word i a title made only of stop words ("It", "Up"),
// followed by nothing but common words to the end of the clause; the
// callers read one only right after a negation or an "only" with nothing
// yet in its scope ("anything by Stephen King except
// It"). It returns the words read and the title's key, 0 for none.
func (p *parser) stopTitle(i int) (int, string) {
	j := i
	for p.isWord(j) && p.skippable(j) {
		j++
	}
	if j == i || p.isWord(j) || len(p.l.titles().stops) == 0 {
		return 0, ""
	}
	for k := min(j-i, maxTitleGram); k >= 1; k-- { // "no Us please"
		ws := make([]string, k)
		for n := range k {
			ws[n] = p.toks[i+n].Norm
		}
		if key := strings.Join(ws, " "); p.l.titles().stops[key] {
			return k, key
		}
	}
	return 0, ""
}

// stopTitleAt reports whether a title of stop words starts at word i.
func (p *parser) stopTitleAt(i int) bool {
	n, _ := p.stopTitle(i)
	return n > 0
}

// closeScope ends the current scope at a boundary. A negation followed by
// nothing applies to the plain mentions before it, in its sentence or else
// in the one before.
func (p *parser) closeScope() {
	if p.mode != scopePositive && !p.cueUsed && p.cue != "" {
		targets := p.plain
		if len(targets) == 0 {
			targets = p.prevPlain
		}
		if (p.mode == scopeExclude || p.mode == scopeAvoid) && len(targets) > 0 && !needsObject[text.Key(p.cue)] {
			p.negateBefore(targets)
			p.plain, p.prevPlain = nil, nil
		} else {
			p.note(fmt.Sprintf("%q is followed by nothing to act on", p.cue))
		}
	}
	p.mode, p.cue, p.cueUsed, p.recent = scopePositive, "", false, nil
}

// needsObject are the negations that name what they leave out after them
// and never before ("Stephen King except it" leaves nothing out; "Stephen
// King? Not for me." does).
var needsObject = map[string]bool{"except": true, "except for": true, "excepting": true, "excluding": true, "exclude": true,
	"besides": true, "other than": true, "anything but": true, "anything except": true, "everything but": true,
	"everything except": true, "anything other than": true, "rather than": true, "instead of": true, "minus": true,
	"sauf": true, "excepte": true, "hormis": true, "a part": true, "excepto": true, "salvo": true, "menos": true, "ausser": true}

func (p *parser) span(i, k int) string {
	var b strings.Builder
	for j, t := range p.toks[i : i+k] {
		if j > 0 && p.toks[i+j-1].Mark != '$' {
			b.WriteByte(' ')
		}
		b.WriteString(t.Orig)
	}
	return b.String()
}

// cueAt returns the length and kind of the longest cue starting at word i.
func (p *parser) cueAt(i int) (int, cueKind) {
	for k := maxCue; k >= 1; k-- {
		if i+k > len(p.toks) {
			continue
		}
		ok := true
		ws := make([]string, k)
		for j := range k {
			if !p.isWord(i + j) {
				ok = false
				break
			}
			ws[j] = p.toks[i+j].Norm
		}
		if !ok {
			continue
		}
		if kind, found := cues[strings.Join(ws, " ")]; found {
			return k, kind
		}
	}
	return 0, cueNone
}

func (p *parser) onCue(i, k int, kind cueKind) {
	switch kind {
	case cueExclude, cueAvoid:
		mode := scopeExclude
		if kind == cueAvoid {
			mode = scopeAvoid
		}
		if p.mode == mode && !p.cueUsed {
			p.cue += " " + p.span(i, k) // "no quiero nada de": one negation
			return
		}
		p.closeScope()
		p.mode = mode
		p.cue = p.span(i, k)
	case cueOnly:
		j := i + k
		for p.isWord(j) && p.skippable(j) {
			j++
		}
		if !p.isWord(j) && !p.stopTitleAt(i+k) { // "Halo only", "PS4 games only."
			if len(p.recent) > 0 {
				p.promote()
			} else if p.mode == scopePositive && len(p.in.Only) == 0 {
				p.note(fmt.Sprintf("%q is not attached to anything", p.span(i, k)))
			}
			return
		}
		recent := p.recent
		p.closeScope()
		p.recent = recent
		p.mode = scopeOnly
		p.cue = p.span(i, k)
	case cuePrefer:
		if p.mode == scopePositive {
			p.mode = scopePrefer
		}
	case cueReset:
		p.closeScope()
	case cueJoin:
		p.or = orWords[p.toks[i].Norm]
		// A list goes on when an entity follows at once ("no Halo or
		// Gears"); otherwise the scope ends ("no Halo and something
		// for my Wii U").
		if p.mode != scopePositive && !p.listGoesOn(i+k) {
			if _, next := p.cueAt(i + k); next == cueNone {
				p.closeScope()
			}
		}
	}
}

// negateBefore moves the plain mentions numbered seqs from Only to the
// current negative scope.
func (p *parser) negateBefore(seqs []int) {
	keep := p.in.Only[:0:0]
	for _, c := range p.in.Only {
		moved := false
		for _, q := range seqs {
			moved = moved || c.seq == q
		}
		switch {
		case !moved:
			keep = append(keep, c)
		case p.mode == scopeAvoid:
			p.in.Avoid = append(p.in.Avoid, c)
		default:
			p.in.Exclude = append(p.in.Exclude, c)
		}
	}
	p.in.Only = keep
}

// listGoesOn reports whether an entity starts at token i, after an
// article at most ("no Halo or the Sims", "not a PlayStation or a PC").
func (p *parser) listGoesOn(i int) bool {
	if p.entityLen(i) > 0 {
		return true
	}
	if p.isWord(i) && articles[p.toks[i].Norm] {
		return p.entityLen(i+1) > 0
	}
	return false
}

// englishJoins end no title phrase ("ps4 and"); the one-letter joins of
// other languages may ("Wii U", "Pokémon Y").
var englishJoins = map[string]bool{"and": true, "or": true, "nor": true, "plus": true}

var possessives = map[string]bool{"my": true, "our": true, "his": true, "her": true, "their": true, "your": true}

var articles = map[string]bool{"a": true, "an": true, "the": true, "any": true, "my": true}

// promote turns the Prefer clauses of the current clause into Only ones.
func (p *parser) promote() {
	keep := p.in.Prefer[:0:0]
	moved := map[int]bool{}
	for _, r := range p.recent {
		moved[r] = true
	}
	for j, c := range p.in.Prefer {
		if moved[j] {
			p.in.Only = append(p.in.Only, c)
		} else {
			keep = append(keep, c)
		}
	}
	p.in.Prefer = keep
	p.recent = nil
}

// entityLen is the length of the entity that starts at token i, 0 if none.
func (p *parser) entityLen(i int) int {
	k, _ := p.entity(i, 1)
	return k
}

// entity returns the longest grounded name of at least minLen words at word
// i: a facet value or alias, or a title phrase (which needs more words than
// the facet match to win, and, for a multi-word override of a cue, three).
func (p *parser) entity(i, minLen int) (int, []Entity) {
	if !p.isWord(i) {
		return 0, nil
	}
	maxLen := max(p.l.maxPhrase, maxTitleGram)
	if p.x != nil {
		maxLen = max(maxLen, p.x.max)
	}
	ws := make([]string, 0, maxLen)
	for j := i; j < len(p.toks) && len(ws) < maxLen && p.toks[j].Mark == 0; j++ {
		ws = append(ws, p.toks[j].Norm)
	}
	facetLen, titleLen := 0, 0
	var ents []Entity
	for k := len(ws); k >= minLen && facetLen == 0; k-- {
		if es := p.l.lookup(strings.Join(ws[:k], " "), p.x); len(es) > 0 {
			facetLen, ents = k, es
		}
	}
	titleMin := max(minLen, facetLen+1)
	if minLen >= 2 && !foreign[ws[0]] {
		titleMin = max(titleMin, 3)
	}
	for k := min(len(ws), maxTitleGram); k >= titleMin; k-- {
		first, last := ws[0], ws[k-1]
		// A title phrase never ends on a stop word, filler or a join
		// ("ps4 and"), nor starts on a stop word or filler unless it
		// starts like a cue it overrides ("No More Heroes", "Die Hard");
		// a vague word ("fun", "hard") is a name only inside a longer
		// phrase ("Die Hard").
		if stopwords[last] || p.l.filler[last] || (k > 1 && englishJoins[last]) || vague[first] || (k == 1 && (vague[first] || len(first) < 2)) {
			continue
		}
		if (stopwords[first] || p.l.filler[first]) && (minLen < 2 || (cues[first] == cueNone && !foreign[first])) {
			continue
		}
		if k == 1 && isNumber(first) && p.toks[i].Orig == first {
			continue // a bare number is no name; a roman numeral ("not XIII") may be
		}
		if k == 1 && i > 0 && possessives[p.toks[i-1].Norm] && p.l.Common != nil && p.l.Common(first) {
			continue // "for my son": a person, not a title word
		}
		if p.l.inTitles(ws[:k], p.x) {
			titleLen = k
			break
		}
	}
	if titleLen > facetLen && !p.coveredByFacets(ws[:titleLen]) {
		return titleLen, []Entity{{Facet: "title", Value: strings.Join(ws[:titleLen], " ")}}
	}
	if facetLen == 0 {
		return 0, nil
	}
	// A phrase that names values of several facets keeps the first
	// facet's (catalog values come before aliases).
	out := ents[:0:0]
	for _, e := range ents {
		if e.Facet == ents[0].Facet {
			out = append(out, e)
		}
	}
	return facetLen, out
}

// coveredByFacets reports whether ws is a run of facet values and aliases
// ("digital downloads", "PS4 accessories"): then those win over a title
// phrase that happens to hold the same words.
func (p *parser) coveredByFacets(ws []string) bool {
	for i := 0; i < len(ws); {
		k := 0
		for n := len(ws) - i; n >= 1 && k == 0; n-- {
			if len(p.l.lookup(strings.Join(ws[i:i+n], " "), p.x)) > 0 {
				k = n
			}
		}
		if k == 0 {
			return false
		}
		i += k
	}
	return true
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// add records the entities read from words i..i+k-1 in the current scope.
func (p *parser) add(i, k int, ents []Entity) { p.addWith(i, k, ents, nil) }

// addWith is add with a detail of its own for each entity (nil: the
// grounding's usual words).
func (p *parser) addWith(i, k int, ents []Entity, say func(Entity) string) {
	typed := p.span(i, k)
	var fixed []string
	for j := i; j < i+k; j++ {
		if w, ok := p.typed[j]; ok {
			fixed = append(fixed, w+" → "+p.toks[j].Norm)
		}
	}
	for _, e := range ents {
		c := Clause{Facet: e.Facet, Value: e.Value, Text: typed, How: p.l.howOf(e), key: text.Key(e.Value), HintWords: text.AnalyzedWords(typed)}
		c.Detail = detail(typed, e, c.How == HowInferred)
		if e.Facet == "title" {
			c.key = e.Value
			c.Value = typed
		}
		if say != nil {
			c.Detail = say(e)
		}
		if len(fixed) > 0 {
			c.How = HowTypo
			c.Detail = strings.Join(fixed, ", ") + " (a typo: read as the catalog's word)"
			if c.Facet == "title" {
				c.Value = e.Value
			}
		}
		if distinctValues(ents) > 1 {
			c.Group = typed
		}
		c.alt = p.or || (len(ents) > 1 && c.Value != ents[0].Value)
		p.place(c)
	}
	p.or = false
}

// orWords are the joins that offer alternatives.
var orWords = map[string]bool{"or": true, "nor": true, "ou": true, "o": true, "oder": true, "either": true, "whichever": true}

// place puts a clause in the current scope.
func (p *parser) place(c Clause) {
	p.cueUsed = true
	switch p.mode {
	case scopePositive:
		// A plain request naming something the catalog has ("Zelda
		// games", "something for my Wii U") is a filter.
		p.seq++
		c.seq = p.seq
		p.plain = append(p.plain, p.seq)
		p.in.Only = append(p.in.Only, c)
	case scopePrefer:
		p.recent = append(p.recent, len(p.in.Prefer))
		p.in.Prefer = append(p.in.Prefer, c)
	case scopeExclude:
		p.in.Exclude = append(p.in.Exclude, c)
	case scopeAvoid:
		p.in.Avoid = append(p.in.Avoid, c)
	case scopeOnly:
		p.in.Only = append(p.in.Only, c)
	}
}

// addNumber grounds a number mention (number.go) and places it, or notes
// why it is not used; its words are never title words either way.
func (p *parser) addNumber(i, k int, m *mention) {
	p.cueUsed = true
	if m.unit == "" && i > 0 {
		for j := max(0, i-3); j < i; j++ { // "kids under 10": an age
			if p.isWord(j) && childWords[p.toks[j].Norm] {
				m.unit = UnitAge
			}
		}
	}
	if m.unit == "" {
		if col, ok := p.l.onlyNumberColumn(m); ok {
			m.unit = col.Unit
		} else {
			p.note(fmt.Sprintf("not sure what %q counts (a year, a price?): not used", m.words))
			return
		}
	}
	if m.unit == UnitAge {
		p.groundAge(m)
		return
	}
	if unitNoun[m.unit] == "" && m.min != nil && m.max != nil && *m.min == *m.max {
		// "a 300 pages book": a count said exactly is rarely meant
		// exactly; a comparison or a range says what to keep.
		p.note(fmt.Sprintf("%q is one number, not a range (say under, over or between): not used", m.words))
		return
	}
	c, ok := p.groundNumber(m)
	if !ok {
		return
	}
	p.place(c)
}

// childWords say that a bare number next to them is a child's age.
var childWords = map[string]bool{"kid": true, "child": true, "children": true, "son": true, "daughter": true, "boy": true, "brother": true, "sister": true, "grandchild": true,
	"fils": true, "soeur": true, "frere": true, "hermano": true, "hermana": true, "bruder": true, "schwester": true, "enkel": true,
	"girl": true, "toddler": true, "nephew": true, "niece": true, "grandson": true, "granddaughter": true, "age": true,
	"enfant": true, "nino": true, "nina": true, "kinder": true, "sohn": true, "tochter": true, "fille": true, "hijo": true, "hija": true}

// unknown records a word that could not be grounded. It is never a
// positive match: it is reported, and kept only as a soft word-vector
// signal of its scope.
func (p *parser) unknown(t text.Token) {
	p.cueUsed = true
	if len(p.in.Unknown) < maxUnknown {
		seen := false
		for _, u := range p.in.Unknown {
			seen = seen || u == t.Orig
		}
		if !seen {
			p.in.Unknown = append(p.in.Unknown, t.Orig)
			p.in.unknownAt = append(p.in.unknownAt, unknownWord{scope: scopeName(p.mode), norm: t.Norm})
		}
	} else {
		p.note(fmt.Sprintf("more than %d words not understood: the rest are not listed", maxUnknown))
	}
	switch p.mode {
	case scopeExclude, scopeAvoid:
		p.in.Negative = append(p.in.Negative, t.Norm)
		if !slices.Contains(p.in.NegatedUnknown, t.Orig) {
			p.in.NegatedUnknown = append(p.in.NegatedUnknown, t.Orig)
		}
	case scopeOnly:
		p.note(fmt.Sprintf("%q after %q matches nothing in the catalog: used as a soft preference, not as a constraint", t.Orig, p.cue))
		p.in.Positive = append(p.in.Positive, t.Norm)
	default:
		p.in.Positive = append(p.in.Positive, t.Norm)
	}
}

// settle removes duplicates, settles contradictions (an exclusion wins over
// an "only" or a preference of the same thing; an "only" over an avoidance)
// and bounds the lists.
func (p *parser) settle() {
	in := &p.in
	p.dropRelative()
	same := func(a, b Clause) bool { return a.key == b.key }
	dedupe := func(cs []Clause) []Clause {
		out := cs[:0:0]
		for _, c := range cs {
			dup := false
			for _, o := range out {
				dup = dup || (o.Facet == c.Facet && o.key == c.key)
			}
			if !dup {
				out = append(out, c)
			}
		}
		return out
	}
	in.Only, in.Exclude, in.Prefer, in.Avoid = dedupe(in.Only), dedupe(in.Exclude), dedupe(in.Prefer), dedupe(in.Avoid)
	drop := func(cs []Clause, against []Clause, say func(c, o Clause) string) []Clause {
		out := cs[:0:0]
		for _, c := range cs {
			hit := -1
			for j, o := range against {
				if same(c, o) {
					hit = j
					break
				}
			}
			if hit < 0 {
				out = append(out, c)
				continue
			}
			if say != nil {
				in.Conflicts = append(in.Conflicts, say(c, against[hit]))
			}
		}
		return out
	}
	in.Only = drop(in.Only, in.Exclude, func(c, o Clause) string {
		return fmt.Sprintf("conflict: %q and %q contradict each other; the exclusion is kept, so no %s item is shown", "only "+c.Label(), "not "+o.Label(), o.Label())
	})
	in.Prefer = drop(in.Prefer, in.Exclude, func(c, o Clause) string {
		return fmt.Sprintf("conflict: %q is both asked for and excluded; the exclusion is kept", c.Text)
	})
	in.Prefer = drop(in.Prefer, in.Only, nil)
	in.Avoid = drop(in.Avoid, in.Exclude, nil)
	in.Avoid = drop(in.Avoid, in.Only, func(c, o Clause) string {
		return fmt.Sprintf("conflict: %q is both required and to be avoided; the requirement is kept", c.Text)
	})
	in.Prefer = drop(in.Prefer, in.Avoid, func(c, o Clause) string {
		return fmt.Sprintf("conflict: %q is both asked for and to be avoided; the avoidance is kept", c.Text)
	})
	for _, cs := range []*[]Clause{&in.Only, &in.Exclude, &in.Prefer, &in.Avoid} {
		if len(*cs) > maxClauses {
			*cs = (*cs)[:maxClauses]
			p.note(fmt.Sprintf("more than %d constraints of one kind: the first %d are kept", maxClauses, maxClauses))
		}
	}
}

// imply notes the value a filler word suggests (Table.Implies) when it
// stands outside a negation: "PS2 games" suggests games, "no Halo games"
// nothing.
func (p *parser) imply(t text.Token) {
	e, ok := p.l.implies[t.Norm]
	if !ok || p.mode == scopeExclude || p.mode == scopeAvoid {
		return
	}
	for _, c := range p.implied {
		if c.Facet == e.Facet && c.key == text.Key(e.Value) {
			return
		}
	}
	p.implied = append(p.implied, Clause{Facet: e.Facet, Value: e.Value, Text: t.Orig, How: HowImplied, key: text.Key(e.Value),
		Detail: fmt.Sprintf("%q implies %s %s first", t.Orig, e.Facet, e.Value)})
}

// addImplied turns the implied values into preferences, unless the
// instruction names that facet itself ("PS4 games and controllers" keeps
// its own "only") or excludes or avoids the value. A preference only
// orders: it never removes an item.
func (p *parser) addImplied() {
	if len(p.implied) == 0 {
		// A title word or phrase the table says implies a value
		// ("headset", "memory card": accessories) replaces the default.
		for _, c := range append(append([]Clause(nil), p.in.Only...), p.in.Prefer...) {
			if c.Facet != "title" {
				continue
			}
			for _, t := range p.l.titleImplies {
				if len(p.implied) == 0 && strings.Contains(" "+c.key+" ", " "+t.key+" ") {
					p.implied = append(p.implied, Clause{Facet: t.Facet, Value: t.Value, Text: c.Text, How: HowImplied, key: text.Key(t.Value),
						Detail: fmt.Sprintf("%q implies %s %s first", c.Text, t.Facet, t.Value)})
				}
			}
		}
	}
	if e := p.l.byDefault; e != nil && len(p.implied) == 0 && len(p.in.Only)+len(p.in.Prefer) > 0 {
		p.implied = append(p.implied, Clause{Facet: e.Facet, Value: e.Value, How: HowImplied, key: text.Key(e.Value),
			Detail: fmt.Sprintf("no %s named: %s first", e.Facet, e.Value)})
	}
	for _, c := range p.implied {
		named := false
		for _, o := range p.in.Only {
			named = named || o.Facet == c.Facet
		}
		for _, o := range append(append([]Clause(nil), p.in.Exclude...), p.in.Avoid...) {
			named = named || (o.Facet == c.Facet && o.key == c.key)
		}
		if !named {
			p.in.Prefer = append(p.in.Prefer, c)
		}
	}
}

// distinctValues counts the entities' distinct values ("Call of Duty" and
// "Call Of Duty" are one).
func distinctValues(es []Entity) int {
	var seen []string
	for _, e := range es {
		if k := text.Key(e.Value); !slices.Contains(seen, k) {
			seen = append(seen, k)
		}
	}
	return len(seen)
}
