package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TemplateSynthesizer is the LLM-free Synthesizer. It writes one sentence per
// category, categories ordered by their strongest chunk (then name), chunks
// by strength (then age), each with a qualifier ("strongly" at 0.9 and above,
// "tentatively" below 0.5) and its strength:
//
//	Topic: strongly interested in reformed theology (1.0); interested in
//	immigration (0.7). Author: strongly enjoys work by John Calvin (1.0).
//	Rising: interested in immigration (new). Fading: enjoys work by Lincoln (-0.2).
//
// Rising and fading are the chunks whose strength rose (or that are new) or
// fell since the current profile was built. Cost O(c log c) for c chunks.
type TemplateSynthesizer struct{}

// Synthesize implements Synthesizer.
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
	var b strings.Builder
	var rising, fading []string
	for _, cat := range cats {
		var phrases []string
		for _, c := range chunks {
			if c.Category != cat {
				continue
			}
			phrases = append(phrases, fmt.Sprintf("%s%s (%s)", qualifier(c.Strength), lowerFirst(c.Text), fmtTenth(c.Strength)))
			p.BuiltFrom = append(p.BuiltFrom, ChunkRef{Chunk: c.ID, Strength: c.Strength})
			if c.Epoch != s.Profile.Version {
				continue
			}
			switch {
			case c.LastDelta > 0:
				p.Rising = append(p.Rising, c.ID)
				rising = append(rising, lowerFirst(c.Text)+" ("+trend(c)+")")
			case c.LastDelta < 0:
				p.Fading = append(p.Fading, c.ID)
				fading = append(fading, lowerFirst(c.Text)+" ("+trend(c)+")")
			}
		}
		fmt.Fprintf(&b, "%s: %s. ", upperFirst(strings.ReplaceAll(cat, "_", " ")), strings.Join(phrases, "; "))
	}
	if len(rising) > 0 {
		fmt.Fprintf(&b, "Rising: %s. ", strings.Join(rising, "; "))
	}
	if len(fading) > 0 {
		fmt.Fprintf(&b, "Fading: %s. ", strings.Join(fading, "; "))
	}
	p.Text = strings.TrimSpace(b.String())
	return p, nil
}

func qualifier(x float64) string {
	switch {
	case x >= 0.9:
		return "strongly "
	case x < 0.5:
		return "tentatively "
	}
	return ""
}

// trend describes a chunk's last change: "new" when it was created (its
// last change is its whole strength), else the signed change.
func trend(c Chunk) string {
	if c.LastDelta == c.Strength {
		return "new"
	}
	return fmt.Sprintf("%+g", c.LastDelta)
}

// fmtTenth formats a strength with at least one decimal: 1.0, 0.7, 0.75.
func fmtTenth(x float64) string {
	s := fmtStrength(x)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
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
