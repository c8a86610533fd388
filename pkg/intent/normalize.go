package intent

import (
	"strings"
	"unicode"
)

// Normalization makes the user's words and the catalog's values comparable:
// lower case, accents folded (é → e), punctuation dropped, possessives
// dropped ("Assassin's" → "assassin"), plurals reduced ("games" → "game",
// "series" → "sery": the same rule on both sides, so only consistency
// matters), and roman numerals written as digits ("Final Fantasy X" →
// "final fantasy 10"; "i" is left alone: it is the pronoun).

var roman = map[string]string{"ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7", "viii": "8",
	"ix": "9", "x": "10", "xi": "11", "xii": "12", "xiii": "13", "xiv": "14", "xv": "15"}

// foldRune lower-cases r and folds the common Latin accents.
func foldRune(r rune) rune {
	r = unicode.ToLower(r)
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å':
		return 'a'
	case 'è', 'é', 'ê', 'ë':
		return 'e'
	case 'ì', 'í', 'î', 'ï':
		return 'i'
	case 'ò', 'ó', 'ô', 'õ', 'ö':
		return 'o'
	case 'ù', 'ú', 'û', 'ü':
		return 'u'
	case 'ñ':
		return 'n'
	case 'ç':
		return 'c'
	}
	return r
}

// normWord normalizes one lower-case word of letters and digits.
func normWord(w string) string {
	if r, ok := roman[w]; ok {
		return r
	}
	n := len(w)
	if n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		if n > 4 && strings.HasSuffix(w, "ies") {
			return w[:n-3] + "y"
		}
		return w[:n-1]
	}
	return w
}

// token is one unit of an instruction: a word (its normalized form and the
// words as typed) or a punctuation mark that bounds a scope.
type token struct {
	norm string
	orig string
	// mark is 0 for a word; ',' for a soft boundary (a comma, a slash, an
	// ampersand: a list may go on after it); '.' for a hard one (. ; ! ? ( )).
	mark byte
}

// contractions are expanded before splitting, so that "isn't" is "is not".
var contractions = strings.NewReplacer(
	"can't", "can not", "won't", "will not", "n't", " not", "'s", "", "'re", " are", "'m", " am",
	"'ve", " have", "'d", " would", "'ll", " will", "\u2019", "'")

// tokenize splits s into words and boundary marks. O(len(s)).
func tokenize(s string) []token {
	s = contractions.Replace(strings.ReplaceAll(strings.ToLower(s), "\u2019", "'"))
	var out []token
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			w := b.String()
			out = append(out, token{norm: normWord(w), orig: w})
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(foldRune(r))
		case r == '\'':
			// inside a word ("rock'n'roll"): dropped
		case r == ',' || r == '/' || r == '&' || r == '+':
			flush()
			out = append(out, token{mark: ','})
		case r == '.' || r == ';' || r == '!' || r == '?' || r == '(' || r == ')' || r == '\n':
			flush()
			out = append(out, token{mark: '.'})
		default:
			flush()
		}
	}
	flush()
	return out
}

// words returns the normalized words of s (no marks): the form facet values,
// titles and aliases are compared in.
func words(s string) []string {
	var out []string
	for _, t := range tokenize(s) {
		if t.mark == 0 {
			out = append(out, t.norm)
		}
	}
	return out
}

// phraseKey is the normalized words of s joined by single spaces.
func phraseKey(s string) string { return strings.Join(words(s), " ") }
