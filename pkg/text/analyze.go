package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The analyzer is the one way recmem reads the words of what people type and
// of what a catalog holds, in the manner of Lucene's Analyzer: instructions,
// facet values, titles, aliases and the page's catalog search all go through
// the same chain, so that a word typed is compared with a word stored in the
// same form:
//
//  1. contractions are expanded ("isn't" → "is not", "don't" → "do not"),
//     English possessives dropped ("Assassin's" → "assassin"), and French
//     and Italian elisions split ("d'horreur" → "d horreur");
//  2. the text is split into words (runs of letters and digits) and marks
//     (',' for a soft boundary: a comma, slash, ampersand or plus; '.' for a
//     hard one: . ; ! ? ( ) and a new line; '$' for a currency sign);
//  3. each word is folded (lower case, Latin accents and ligatures: "Pokémon"
//     → "pokemon", "Straße" → "strasse") and normalized (Norm: plurals
//     reduced, roman numerals as digits).
//
// Cost O(len(s)). Deterministic, never panics: invalid UTF-8 separates words.

// Token is one unit of analyzed text: a word (Norm, its normalized form, and
// Orig, the folded word as typed) or a boundary mark.
type Token struct {
	Norm string
	Orig string
	// Mark is 0 for a word; ',' for a soft boundary, '.' for a hard one,
	// '$' for a currency sign (Orig then holds the sign: "$", "€", "£").
	Mark byte
}

// Word reports whether t is a word (not a mark).
func (t Token) Word() bool { return t.Mark == 0 }

var roman = map[string]string{"ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6", "vii": "7", "viii": "8",
	"ix": "9", "x": "10", "xi": "11", "xii": "12", "xiii": "13", "xiv": "14", "xv": "15"}

// Fold lower-cases r and folds the Latin accents to their base letter
// ("é" → "e"); ligatures and "ß" fold to two letters (FoldString).
func Fold(r rune) rune {
	r = unicode.ToLower(r)
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą':
		return 'a'
	case 'è', 'é', 'ê', 'ë', 'ē', 'ė', 'ę', 'ě':
		return 'e'
	case 'ì', 'í', 'î', 'ï', 'ī', 'į', 'ı':
		return 'i'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ő':
		return 'o'
	case 'ù', 'ú', 'û', 'ü', 'ū', 'ů', 'ű', 'ų':
		return 'u'
	case 'ñ', 'ń', 'ň':
		return 'n'
	case 'ç', 'ć', 'č':
		return 'c'
	case 'ý', 'ÿ':
		return 'y'
	case 'ś', 'š', 'ş':
		return 's'
	case 'ź', 'ż', 'ž':
		return 'z'
	case 'ł':
		return 'l'
	case 'ř':
		return 'r'
	case 'ď':
		return 'd'
	case 'ť':
		return 't'
	case 'ğ':
		return 'g'
	}
	return r
}

// wide are the letters that fold to two.
var wide = map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'Æ': "ae", 'Œ': "oe"}

// FoldString folds every rune of s (Fold, and "ß" → "ss", "æ" → "ae", "œ" →
// "oe"). O(len(s)).
func FoldString(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if w, ok := wide[r]; ok {
			b.WriteString(w)
			continue
		}
		b.WriteRune(Fold(r))
	}
	return b.String()
}

// Norm normalizes one folded word: a roman numeral up to xv becomes digits
// ("x" → "10"; "i" is left alone: it is the pronoun), and a plural is reduced
// ("games" → "game", "stories" → "story"; words in -ss, -us and -is and words
// of three letters or fewer are kept, as are numbers with an s: "1970s").
// Only consistency matters: the same rule runs on both sides. O(len(w)).
func Norm(w string) string {
	if r, ok := roman[w]; ok {
		return r
	}
	n := len(w)
	if n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		if w[n-2] >= '0' && w[n-2] <= '9' {
			return w // "1970s", "80s": a decade, not a plural
		}
		if n > 4 && strings.HasSuffix(w, "ies") {
			return w[:n-3] + "y"
		}
		return w[:n-1]
	}
	return w
}

// contractions are expanded before splitting, so that "isn't" is "is not".
var contractions = strings.NewReplacer(
	"can't", "can not", "won't", "will not", "n't", " not", "'s", "", "'re", " are", "'m", " am",
	"'ve", " have", "'d", " would", "'ll", " will")

// elided reports whether the letters before an apostrophe are a French or
// Italian elided article or pronoun ("l'", "d'", "qu'", "j'"…), which is then
// a word of its own.
func elided(w string) bool {
	switch w {
	case "l", "d", "j", "n", "s", "c", "m", "t", "qu", "dell", "nell", "all", "dall", "sull", "un":
		return true
	}
	return false
}

// Analyze splits s into words and marks, folded and normalized. O(len(s)):
// an ASCII word already in lower case is a slice of s, not a copy.
func Analyze(s string) []Token {
	if strings.IndexByte(s, '\'') >= 0 || strings.Contains(s, "\u2019") {
		s = contractions.Replace(strings.ToLower(strings.ReplaceAll(s, "\u2019", "'")))
	}
	out := make([]Token, 0, len(s)/5+1)
	var b []byte // the word being built, once it differs from s's bytes
	ws, plain := -1, false
	word := func(end int) string {
		if plain {
			return s[ws:end]
		}
		return string(b)
	}
	flush := func(end int) {
		if ws >= 0 {
			w := word(end)
			out = append(out, Token{Norm: Norm(w), Orig: w})
		}
		ws, plain, b = -1, false, b[:0]
	}
	// grow adds the folded rune r to the word that starts at or continues to i.
	grow := func(i int, r rune, size int) {
		if ws < 0 {
			ws, plain = i, true
		}
		if plain && size == 1 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return
		}
		if plain {
			b = append(b[:0], s[ws:i]...)
			plain = false
		}
		if w, ok := wide[r]; ok {
			b = append(b, w...)
		} else {
			b = utf8.AppendRune(b, Fold(r))
		}
	}
	digit := func(k int) bool { return k >= 0 && k < len(s) && s[k] >= '0' && s[k] <= '9' }
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			grow(i, r, size)
		case r >= 'A' && r <= 'Z':
			grow(i, r+'a'-'A', 2) // not the byte of s: copy
		case r >= utf8.RuneSelf && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			grow(i, r, size)
		case r >= utf8.RuneSelf && unicode.Is(unicode.Mn, r):
			// a combining accent: dropped, as the folded letters drop theirs
			if ws >= 0 && plain {
				b = append(b[:0], s[ws:i]...)
				plain = false
			}
		case r == '\'':
			// An elision ("d'horreur") ends a word; inside any other word
			// ("rock'n'roll") the apostrophe is dropped.
			if ws >= 0 && elided(word(i)) {
				flush(i)
			} else if ws >= 0 && plain {
				b = append(b[:0], s[ws:i]...)
				plain = false
			}
		case r == '.' && digit(i-1) && digit(i+1) && ws >= 0:
			if plain {
				b = append(b[:0], s[ws:i]...)
				plain = false
			}
			b = append(b, '.') // a decimal point: "4.99" is one number
		case r == ',' && digit(i-1) && digit(i+1) && digit(i+3) && !digit(i+4) && ws >= 0:
			// a thousands separator ("1,000"): dropped
			if plain {
				b = append(b[:0], s[ws:i]...)
				plain = false
			}
		case r == ',' || r == '/' || r == '&' || r == '+':
			flush(i)
			out = append(out, Token{Mark: ',', Orig: string(r)})
		case r == '.' || r == ';' || r == '!' || r == '?' || r == '(' || r == ')' || r == '\n' || r == '¿' || r == '¡':
			flush(i)
			out = append(out, Token{Mark: '.'})
		case r == '$' || r == '€' || r == '£' || r == '¥':
			flush(i)
			out = append(out, Token{Mark: '$', Orig: string(r)})
		default:
			flush(i)
		}
		i += size
	}
	flush(len(s))
	return out
}

// AnalyzedWords returns the normalized words of s (no marks): the form in
// which facet values, titles and aliases are compared. O(len(s)).
func AnalyzedWords(s string) []string {
	var out []string
	for _, t := range Analyze(s) {
		if t.Mark == 0 {
			out = append(out, t.Norm)
		}
	}
	return out
}

// Key is the normalized words of s joined by single spaces: two phrases
// name the same thing when their keys are equal. O(len(s)).
func Key(s string) string { return strings.Join(AnalyzedWords(s), " ") }
