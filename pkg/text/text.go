// Package text turns free text into the terms that recmem's retrieval indexes:
// lowercased words, stop words removed, light suffix stemming.
//
// Everything here is deterministic and never panics, whatever the input: bytes
// that are not valid UTF-8 act as separators. Cost is linear in the input.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words splits s into lowercased words: maximal runs of letters and digits.
// Apostrophes split words ("Caroline's" gives "caroline", "s"). Invalid UTF-8
// bytes separate words. Cost O(len(s)).
func Words(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && !asciiWord(c) {
			i++ // an ASCII separator
			continue
		}
		// A word starts here (or an invalid byte, which the scan skips).
		start := i
		end, lower := wordEnd(s, i)
		i = end
		if i == start { // an invalid byte or a non-ASCII separator
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		if lower {
			out = append(out, s[start:i]) // already lowercase ASCII: no copy
			continue
		}
		out = append(out, lowerWord(s[start:i]))
	}
	return out
}

// wordEnd returns the end of the word that starts at s[i] (i itself when
// s[i] is an invalid byte or a non-ASCII separator) and whether the word is
// lowercase ASCII already (non-ASCII letters take the general path).
func wordEnd(s string, i int) (int, bool) {
	lower := true
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !asciiWord(c) {
				break
			}
			lower = lower && (c < 'A' || c > 'Z')
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || !wordRune(r) {
			break
		}
		lower = false
		i += size
	}
	return i, lower
}

// asciiWord reports whether an ASCII byte belongs to a word.
func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// wordRune reports whether r belongs to a word: a letter, a digit or a
// non-spacing mark.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// lowerWord lowercases a word rune by rune (every rune of w is a word rune).
func lowerWord(w string) string {
	var b strings.Builder
	b.Grow(len(w))
	for _, r := range w {
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Terms returns the index terms of s: its Words without stop words, each
// stemmed by Stem. Cost O(len(s)).
func Terms(s string) []string {
	ws := Words(s)
	out := ws[:0]
	for _, w := range ws {
		if IsStopword(w) {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

// Stem removes common English inflectional suffixes (plural -s/-es/-ies,
// -ing, -ed, -ly) and a final silent e, so that "paint", "paints", "painted"
// and "painting" share one term, as do "bake", "baked", "baking". It is a light
// stemmer: it never shortens a word below three letters and leaves words with
// digits alone. Cost O(len(w)).
func Stem(w string) string {
	if len(w) <= 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4 && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		w = w[:len(w)-2]
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops one letter of a final doubled consonant ("runn" to "run"),
// except for l, s and z, which English keeps doubled ("fall", "pass").
func undouble(w string) string {
	n := len(w)
	if n < 3 || w[n-1] != w[n-2] {
		return w
	}
	switch w[n-1] {
	case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
		return w
	}
	return w[:n-1]
}

// IsStopword reports whether the lowercased word w is an English stop word
// (function words, pronouns, auxiliaries, and single letters).
func IsStopword(w string) bool {
	if utf8.RuneCountInString(w) == 1 {
		return true
	}
	_, ok := stopwords[w]
	return ok
}

var stopwords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(stopwordList) {
		m[w] = struct{}{}
	}
	return m
}()

// stopwordList is the classic English list used by Lucene and NLTK, plus the
// pieces left by splitting contractions at apostrophes.
const stopwordList = `
a about above after again against all am an and any are aren as at be because been
before being below between both but by can cannot could couldn did didn do does doesn
doing don down during each few for from further had hadn has hasn have haven having he
her here hers herself him himself his how i if in into is isn it its itself just let ll
me more most mustn my myself no nor not of off on once only or other ought our ours
ourselves out over own re same shan she should shouldn so some such than that the their
theirs them themselves then there these they this those through to too under until up
ve very was wasn we were weren what when where which while who whom why will with won
would wouldn you your yours yourself yourselves also yeah oh hey hi got get gonna
really s t d m o y ain
`

// Pieces calls f for every piece of s, in order: a word, as Words reads it
// (piece as written, word lowercased), or a separator (one ASCII byte that is
// not a letter or digit, one rune that is not a word rune, or one invalid
// byte; word is then ""). The pieces concatenated are s, and the words of the
// word pieces are Words(s): a text stored as its pieces is stored analysed
// and whole. Cost O(len(s)).
func Pieces(s string, f func(piece, word string)) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && !asciiWord(c) {
			f(s[i:i+1], "")
			i++
			continue
		}
		start := i
		end, lower := wordEnd(s, i)
		i = end
		if i == start {
			_, size := utf8.DecodeRuneInString(s[i:])
			f(s[i:i+size], "")
			i += size
			continue
		}
		if lower {
			f(s[start:i], s[start:i])
			continue
		}
		f(s[start:i], lowerWord(s[start:i]))
	}
}
