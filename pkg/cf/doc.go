// Package cf is the collaborative-filtering scoring the ranker runs at
// request time: the user's factor folded in from their history against the
// catalog's item factors (FoldIn), factor dot products (Dot), and
// recency-weighted item-item scores over the history (RecencyScore).
//
// The models themselves (BPR, the factorised transitions, co-occurrence and
// transition counts, popularity) are learned offline by package rec and
// shipped in the catalog. Everything is deterministic: the only randomness
// is a seed the caller gives.
package cf
