package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/text"
)

// entities decodes the HTML entities common in product metadata
// ("Assassin&rsquo;s Creed") and drops trademark signs.
var entities = strings.NewReplacer(
	"&amp;", "&", "&quot;", `"`, "&nbsp;", " ",
	"&rsquo;", "'", "&lsquo;", "'", "&#39;", "'", "&apos;", "'",
	"&reg;", "", "&trade;", "", "&copy;", "", "\u00ae", "", "\u2122", "",
)

// apostrophes are dropped from keys so that "Assassin's" is one word.
var apostrophes = strings.NewReplacer("'", "", "\u2019", "")

// decode is entities.Replace, skipped when s holds nothing it replaces (the
// common case: a replacer with multi-byte patterns costs a pass and an
// allocation even then).
func decode(s string) string {
	if !mayHold(s, '&') {
		return s
	}
	return entities.Replace(s)
}

// dropApostrophes is apostrophes.Replace, skipped when s has none.
func dropApostrophes(s string) string {
	if !mayHold(s, '\'') {
		return s
	}
	return apostrophes.Replace(s)
}

// mayHold reports whether s holds the ASCII byte c or any non-ASCII byte
// (where ®, ™ and ’ would be): one pass over its bytes.
func mayHold(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// cleanLabel returns s as a person would read it: entities decoded, runs of
// white space collapsed. Cost O(len(s)).
func cleanLabel(s string) string {
	return strings.Join(strings.Fields(decode(s)), " ")
}

// normalizeKey is the canonical form of a value a chunk is about: lowercased
// words of letters and digits joined by single spaces ("Super Mario 64" gives
// "super mario 64", "Assassin's Creed" gives "assassins creed"). Cost O(len(s)).
func normalizeKey(s string) string {
	return strings.Join(text.Words(dropApostrophes(decode(s))), " ")
}

// normalizeCategory is the canonical form of a category or metadata field
// name: lowercased words joined by underscores ("Release Year" gives
// "release_year").
func normalizeCategory(s string) string {
	return strings.Join(text.Words(dropApostrophes(decode(s))), "_")
}

// salient reports whether the lowercased word w carries meaning in a title:
// not a stop word, not product noise, not a number, a roman numeral or a
// platform name, and at least three letters long.
func salient(w string) bool {
	if utf8.RuneCountInString(w) < 3 || text.IsStopword(w) || isNumeral(w) {
		return false
	}
	if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return false
	}
	_, noise := titleNoise[w]
	_, platform := platformWords[w]
	return !noise && !platform
}

// isNumeral reports whether w is a number or a small roman numeral (a sequel
// marker such as "2" or "xiv").
func isNumeral(w string) bool {
	if w == "" {
		return false
	}
	if strings.Trim(w, "0123456789") == "" {
		return true
	}
	return len(w) <= 4 && strings.Trim(w, "ivx") == ""
}

// termSet returns the salient-or-not terms of s (stop words removed) as a set,
// for overlap measures.
func termSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range text.Words(s) {
		if !text.IsStopword(w) {
			out[w] = true
		}
	}
	return out
}

// titleNoise holds words that say something about a product listing rather
// than about what the user likes.
var titleNoise = wordSet(`
edition editions pack bundle version deluxe standard premium gold limited special
complete collection ultimate remastered remaster game games video download digital
code card online goty bonus exclusive official set box boxed vol volume part
chapter season episode book novel series new super plus day time year
`)

// platformWords mark a title segment as a platform or format ("Nintendo DS",
// "Xbox 360", "PC").
var platformWords = wordSet(`
nintendo xbox playstation ps1 ps2 ps3 ps4 ps5 psp vita wii gamecube ds 3ds 2ds
gameboy gba n64 sega genesis dreamcast saturn pc mac windows linux kindle
paperback hardcover audiobook dvd bluray blu vhs
`)

// platformTail holds words that complete a platform name right after a
// platform word ("Xbox One", "Nintendo Switch", "PlayStation Vita"); there
// they are not title terms.
var platformTail = wordSet(`
one switch vita advance color portable boy gear live u 360
`)

func wordSet(s string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(s) {
		m[w] = struct{}{}
	}
	return m
}
