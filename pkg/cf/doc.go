// Package cf holds the collaborative-filtering models recmem learns from
// interaction logs: item popularity, item-item co-occurrence (item-kNN),
// last-item transitions, and BPR matrix factorisation with its user fold-in.
//
// Training data is always a set of item sequences (oldest first), one per user,
// with items as dense indices in [0, n). Everything is deterministic: the only
// randomness is a *rand.Rand the caller seeds.
package cf
