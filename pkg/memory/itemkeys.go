package memory

import (
	"strings"

	"github.com/recmem/recmem/pkg/text"
)

// ItemKey is one (category, key) an item's metadata gives: what a chunk
// about that item's genre, series, era... would be keyed by.
type ItemKey struct {
	Category string
	Key      string
}

// ItemKeys returns the features an item's metadata gives, mapped to the
// configured categories when cats is not empty, exactly as extraction reads
// them (see MetadataExtractor), so that a ranker can tell which chunks speak
// about an item. Cost O(size of meta).
func ItemKeys(meta map[string][]string, cats []string) []ItemKey {
	fs := itemFeatures(meta, cats)
	out := make([]ItemKey, len(fs))
	for i, f := range fs {
		out[i] = ItemKey{f.Category, f.Key}
	}
	return out
}

// SeriesKey returns the key of the series an item's metadata gives (its
// series field, else the series its title suggests), "" when none. Cost
// O(size of meta).
func SeriesKey(meta map[string][]string) string {
	return SeriesOf(ItemKeys(meta, nil))
}

// SeriesOf is SeriesKey on the keys ItemKeys gave. O(len(keys)).
func SeriesOf(keys []ItemKey) string {
	for _, k := range keys {
		if categoryFamily[k.Category] == "series" {
			return k.Key
		}
	}
	return ""
}

// TitleCore returns the key of a title without what varies between
// editions of one product: bracketed notes, the platform segment, and
// listing words ("Halo 4 - Xbox 360" and "Halo 4: Limited Edition [Xbox
// 360]" give "halo 4"), so that two editions share it. Cost O(len(title)).
func TitleCore(title string) string {
	s := dropBracketed(cleanLabel(title))
	segs := strings.Split(s, " - ")
	if n := len(segs); n > 1 && isPlatform(segs[n-1]) {
		segs = segs[:n-1]
	}
	var ws []string
	for _, w := range text.Words(normalizeKey(strings.Join(segs, " "))) {
		if _, noise := titleNoise[w]; !noise {
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, " ")
}

// EventNumber returns n of an event id "e<n>", 0 for any other string.
func EventNumber(id string) int { return idNumber(id, 'e') }

// CategoryOf returns the category a metadata field's values go to, as
// extraction files them (the field singularized, mapped to the configured
// categories when cats is not empty), "" when none takes them.
func CategoryOf(field string, cats []string) string {
	return mapCategory(fieldName(field), cats)
}
