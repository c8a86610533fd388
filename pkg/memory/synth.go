package memory

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TemplateSynthesizer is the LLM-free Synthesizer. It writes the profile as
// a person would describe someone's taste: one sentence per category,
// categories ordered by their strongest chunk (then name), the chunks of a
// category by strength (then age), chunks of one polarity and degree named
// together ("Strongly enjoys the Mario and Zelda series"), degrees by a word
// ("strongly" at 0.9 and above, "tentatively" below 0.5) and never by a
// figure, and a last sentence on what changed since the profile before:
//
//	Strongly enjoys Drama and Comedy; tentatively enjoys Horror. Prefers
//	Nintendo Wii U; avoids Xbox 360. Lately more into Drama; less into Horror.
//
// A chunk whose text the user wrote (not the extractor's template) keeps its
// words. Rising and fading are the chunks whose strength rose (or that are
// new) or fell since the current profile was built. Cost O(c log c) for c
// chunks.
type TemplateSynthesizer struct{}

// Synthesize implements Synthesizer.
//
// The last sentence says what changed since the profile before (none for a
// first profile, where all is new): "more into" what is liked more (or
// new), "less into" what is liked less or avoided more, "more open to"
// what is avoided less.
func (TemplateSynthesizer) Synthesize(s *State) (Profile, error) {
	p := Profile{BuiltFrom: []ChunkRef{}, Rising: []string{}, Fading: []string{}}
	if len(s.Chunks) == 0 {
		p.Text = "No preferences recorded yet."
		return p, nil
	}
	chunks := slices.Clone(s.Chunks)
	slices.SortStableFunc(chunks, func(a, b Chunk) int {
		if c := cmp.Compare(b.Strength, a.Strength); c != 0 {
			return c
		}
		return idNumber(a.ID, 'c') - idNumber(b.ID, 'c')
	})
	var cats []string // ordered by strongest chunk, since chunks are sorted
	for _, c := range chunks {
		if !slices.Contains(cats, c.Category) {
			cats = append(cats, c.Category)
		}
	}
	var sentences, moreInto, lessInto, moreOpen []string
	for _, cat := range cats {
		var groups []phraseGroup
		for _, c := range chunks {
			if c.Category != cat {
				continue
			}
			p.BuiltFrom = append(p.BuiltFrom, ChunkRef{Chunk: c.ID, Strength: c.Strength})
			groups = addPhrase(groups, c)
			if c.Epoch != s.Profile.Version {
				continue
			}
			avoids := c.Polarity == "avoids"
			switch {
			case c.LastDelta > 0:
				p.Rising = append(p.Rising, c.ID)
				if avoids {
					lessInto = append(lessInto, object(c))
				} else {
					moreInto = append(moreInto, object(c))
				}
			case c.LastDelta < 0:
				p.Fading = append(p.Fading, c.ID)
				if avoids {
					moreOpen = append(moreOpen, object(c))
				} else {
					lessInto = append(lessInto, object(c))
				}
			}
		}
		var clauses []string
		for i, g := range groups {
			c := g.String()
			if i > 0 {
				c = lowerFirst(c)
			}
			clauses = append(clauses, c)
		}
		sentences = append(sentences, upperFirst(strings.Join(clauses, "; "))+".")
	}
	var lately []string
	for _, l := range []struct {
		words string
		what  []string
	}{{"more into", moreInto}, {"less into", lessInto}, {"more open to", moreOpen}} {
		if len(l.what) > 0 {
			lately = append(lately, l.words+" "+joinAnd(l.what))
		}
	}
	if len(lately) > 0 && s.Profile.Version > 0 {
		sentences = append(sentences, "Lately "+strings.Join(lately, "; ")+".")
	}
	p.Text = strings.Join(sentences, " ")
	return p, nil
}

// phraseGroup is chunks of one category, polarity and degree said in one
// clause: the labels of the ones written from the template, in order, or
// one chunk's own text.
type phraseGroup struct {
	degree   string
	template string   // the template the labels fill; "" for a text of its own
	labels   []string // the template's labels
	text     string
}

// addPhrase adds c to the group of its polarity and degree when its text is
// the template's, else as a clause of its own.
func addPhrase(gs []phraseGroup, c Chunk) []phraseGroup {
	deg := degree(c)
	tpl := chunkTemplate(c.Category, c.Polarity)
	label, ok := templateLabel(tpl, c.Text)
	if !ok {
		return append(gs, phraseGroup{degree: deg, text: c.Text})
	}
	for i := range gs {
		if gs[i].template == tpl && gs[i].degree == deg {
			gs[i].labels = append(gs[i].labels, label)
			return gs
		}
	}
	return append(gs, phraseGroup{degree: deg, template: tpl, labels: []string{label}})
}

// String is the group's clause: "strongly enjoys the Mario and Zelda
// series", the degree first, lowercased after it.
func (g phraseGroup) String() string {
	t := g.text
	if g.template != "" {
		t = fillTemplate(g.template, joinAnd(g.labels))
	}
	if g.degree == "" {
		return t
	}
	return g.degree + " " + lowerFirst(t)
}

// degree is the word that says how strong a chunk is.
func degree(c Chunk) string {
	switch {
	case c.Strength >= 0.9:
		return "strongly"
	case c.Strength < 0.5:
		return "tentatively"
	}
	return ""
}

// templateLabel returns what text says its template is about, when text is
// the template filled in (with or without the template's article before an
// article of the label): "Mario" from "Enjoys the Mario series".
func templateLabel(tpl, text string) (string, bool) {
	for _, t := range []string{tpl, strings.Replace(tpl, "the %s", "%s", 1)} {
		pre, post, _ := strings.Cut(t, "%s")
		if l, ok := strings.CutPrefix(text, pre); ok {
			if l, ok = strings.CutSuffix(l, post); ok && l != "" && (t == tpl) != hasArticle(l) {
				return l, true
			}
		}
	}
	return "", false
}

// fillTemplate writes tpl about label, dropping the template's article
// before a label that has its own.
func fillTemplate(tpl, label string) string {
	if hasArticle(label) {
		tpl = strings.Replace(tpl, "the %s", "%s", 1)
	}
	return strings.Replace(tpl, "%s", label, 1)
}

// object is what a chunk is about as the object of "more into": the
// template without its verb ("the Mario series", "titles from the 1990s"),
// or the chunk's own text lowercased.
func object(c Chunk) string {
	obj := c.Text
	if label, ok := templateLabel(chunkTemplate(c.Category, c.Polarity), c.Text); ok {
		obj = fillTemplate(chunkTemplate(c.Category, c.Polarity), label)
	}
	for _, verb := range []string{"Not interested in ", "Interested in ", "Enjoys ", "Prefers ", "Likes ", "Loves ", "Avoids ", "Dislikes ", "Hates "} {
		if rest, ok := strings.CutPrefix(obj, verb); ok {
			return rest
		}
	}
	return lowerFirst(obj)
}

// joinAnd joins phrases as a person lists them: "A", "A and B", "A, B and C".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// lowerFirst lowercases the first letter of a sentence, unless the first word
// is a single letter ("I") or an acronym ("RPG fan").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[n:])
	if !unicode.IsUpper(r) || !unicode.IsLower(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
