package text

import (
	"strings"
	"unicode"
)

// keywordStops are the stop words of Keywords: common English words and the
// words every catalog title repeats ("edition", "game", "version").
var keywordStops = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for from has have in is it its
		of on or that the this to was were will with edition game games version vol new
		i me my we you your he she they them our not no yes`) {
		keywordStops[w] = true
	}
}

// Keywords are the words of a catalog text (a title and its metadata) that
// the recommendation ranker matches: s lowercased and folded as the
// analyzer folds it ("Pokémon" is "pokemon"), split on anything but letters
// and digits, without stop words and one-character tokens, and not stemmed
// (titles are names: "halo" must not match "hal"). O(len(s)).
func Keywords(s string) []string {
	f := strings.FieldsFunc(FoldString(strings.ToLower(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	out := f[:0]
	for _, t := range f {
		if len(t) > 1 && !keywordStops[t] {
			out = append(out, t)
		}
	}
	return out
}
