package memory

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
