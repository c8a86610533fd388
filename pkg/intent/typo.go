package intent

import (
	"slices"
	"strings"
	"sync"
)

// Typo tolerance, in the manner of Typesense and Meilisearch: a word that
// names nothing is corrected into the catalog's vocabulary (the words of its
// facet values, aliases, everyday words and titles) when it is one edit away
// and has at least MinTypoLen letters, or two edits away and has at least
// MinTwoTypoLen letters (an edit: a letter inserted, deleted, replaced, or
// two neighbours swapped). Never on short words, stop words, cues, numbers,
// or words the embedded word-vector table knows (a real word is not a typo).
// On a tie the word found in more items wins, then the smaller in byte order.
//
// A word longer than MaxTypoLen bytes is never corrected nor indexed: the
// deletes of a word of n letters number about n²/2 at two edits, so a
// 3,900-letter word (an instruction may hold 4,000 bytes) would take
// minutes and gigabytes; no real word is that long.
const (
	MinTypoLen    = 5
	MinTwoTypoLen = 9
	MaxTypoLen    = 40
)

// typoIndex is a symmetric-delete index (SymSpell, Wolf Garbe 2012): every
// vocabulary word is stored under itself and the strings it gives with one
// (or, for long words, two) letters deleted; a query's own deletes meet them,
// and each candidate is then checked by its edit distance. Built once per
// linker, at the first word that is not in the catalog's vocabulary
// (Linker.knowsWord) and may be a typo: O(catalog text + vocabulary ·
// deletes) time and about 16 bytes an entry; a lookup is O(deletes of the
// query · log entries). An instruction whose words the catalog knows never
// builds it.
type typoIndex struct {
	words []string
	freq  []int32
	keys  []typoKey // sorted by hash
}

type typoKey struct {
	h  uint64
	id int32
}

// lazy holds what a linker builds on first need, under once.
type lazy struct {
	once  sync.Once
	typos *typoIndex // over vocabulary()
	vonce sync.Once
	vals  []valueVec // facet values with their embedding (vectors.go)
	// facets is Facets, built on the first call (facets.go).
	facets facetCache
}

// typos returns the linker's typo index, building it at the first call.
func (l *Linker) typos() *typoIndex {
	l.lazy.once.Do(func() { l.lazy.typos = newTypoIndex(l.vocabulary()) })
	return l.lazy.typos
}

// vocabulary returns the catalog's normalized words with the number of
// phrases and items that hold each. O(catalog text).
func (l *Linker) vocabulary() map[string]int32 {
	v := map[string]int32{}
	for k := range l.phrases {
		for _, w := range strings.Fields(k) {
			v[w]++
		}
	}
	var seen []string // a title's distinct words
	for _, title := range l.titles().keys {
		seen = seen[:0]
		for _, w := range strings.Fields(title) {
			if !slices.Contains(seen, w) {
				seen = append(seen, w)
				v[w]++
			}
		}
	}
	return v
}

// hashString is the FNV-1a 64 hash of s.
func hashString(s string) uint64 { return fnvAdd(fnvOffset, s) }

// deletes calls f with every string w gives with up to n letters deleted
// (bytes: the analyzer folds the common accents to ASCII).
func deletes(w string, n int, f func(string)) {
	if n == 0 || len(w) <= 1 {
		return
	}
	for i := range len(w) {
		d := w[:i] + w[i+1:]
		f(d)
		deletes(d, n-1, f)
	}
}

func newTypoIndex(vocab map[string]int32) *typoIndex {
	ix := &typoIndex{}
	words := make([]string, 0, len(vocab))
	for w := range vocab {
		if len(w) >= MinTypoLen-1 && len(w) <= MaxTypoLen && !isDigits(w) {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	for id, w := range words {
		ix.words = append(ix.words, w)
		ix.freq = append(ix.freq, vocab[w])
		n := 1
		if len(w) >= MinTwoTypoLen-1 {
			n = 2
		}
		ix.keys = append(ix.keys, typoKey{hashString(w), int32(id)})
		deletes(w, n, func(d string) { ix.keys = append(ix.keys, typoKey{hashString(d), int32(id)}) })
	}
	slices.SortFunc(ix.keys, func(a, b typoKey) int {
		switch {
		case a.h < b.h:
			return -1
		case a.h > b.h:
			return 1
		}
		return int(a.id - b.id)
	})
	ix.keys = slices.Compact(ix.keys)
	return ix
}

// correct returns the vocabulary word w is a typo of, and the edits.
func (ix *typoIndex) correct(w string) (string, int, bool) {
	allowed := 0
	switch {
	case len(w) >= MinTwoTypoLen:
		allowed = 2
	case len(w) >= MinTypoLen:
		allowed = 1
	default:
		return "", 0, false
	}
	return ix.nearest(w, allowed, nil)
}

// nearest returns the vocabulary word nearest to w within allowed edits
// that ok accepts (nil: any), and its distance.
func (ix *typoIndex) nearest(w string, allowed int, ok func(string) bool) (string, int, bool) {
	if len(w) > MaxTypoLen {
		return "", 0, false
	}
	best, bestD := int32(-1), allowed+1
	try := func(q string) {
		h := hashString(q)
		k, _ := slices.BinarySearchFunc(ix.keys, h, func(e typoKey, h uint64) int {
			switch {
			case e.h < h:
				return -1
			case e.h > h:
				return 1
			}
			return 0
		})
		for ; k < len(ix.keys) && ix.keys[k].h == h; k++ {
			id := ix.keys[k].id
			c := ix.words[id]
			if c == w {
				continue
			}
			d := editDistance(w, c, allowed)
			if d > allowed || (ok != nil && !ok(c)) {
				continue
			}
			if d < bestD || (d == bestD && (ix.freq[id] > ix.freq[best] || (ix.freq[id] == ix.freq[best] && c < ix.words[best]))) {
				best, bestD = id, d
			}
		}
	}
	try(w)
	deletes(w, allowed, try)
	if best < 0 {
		return "", 0, false
	}
	return ix.words[best], bestD, true
}

// editDistance is the optimal-string-alignment distance of a and b (inserts,
// deletes, replacements and swaps of neighbours), or max+1 when it exceeds
// max. O(len(a) · len(b)).
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// correctTypos rewrites, before the scan, every word of the instruction
// that names nothing and is a typo of a catalog word, and remembers what was
// typed (p.typed) so that the clause says "metriod → metroid".
func (p *parser) correctTypos() {
	for i, t := range p.toks {
		w := t.Norm
		if t.Mark != 0 || len(w) < MinTypoLen-1 || isDigits(w) || stopwords[w] || p.l.filler[w] || vague[w] || cueWords[w] {
			continue
		}
		if p.l.knowsWord(w) {
			continue
		}
		if p.x != nil && p.x.knows(w) {
			continue
		}
		var c string
		var ok bool
		if p.l.Known == nil || !p.l.Known(w) {
			c, _, ok = p.l.typos().correct(w)
		}
		if !ok {
			// A real word, or one under five letters, is read as a typo
			// only where the corrected word makes a title phrase with its
			// neighbour ("Kingdom Harts", "Mario Krat").
			c, _, ok = p.l.typos().nearest(w, 1, func(c string) bool { return p.titleNeighbour(i, c) })
		}
		if !ok {
			continue
		}
		if p.typed == nil {
			p.typed = map[int]string{}
		}
		p.typed[i] = t.Orig
		p.toks[i].Norm = c
	}
}

// knows reports whether a request's own metadata holds the word.
func (x *Extra) knows(w string) bool {
	if _, ok := x.grams[gramHash([]string{w})]; ok {
		return true
	}
	for k := range x.phrases {
		for _, f := range strings.Fields(k) {
			if f == w {
				return true
			}
		}
	}
	return false
}

// titleNeighbour reports whether c, put for word i, makes a title phrase of
// two words with the word before or after it.
func (p *parser) titleNeighbour(i int, c string) bool {
	if i > 0 && p.isWord(i-1) && p.l.inTitles([]string{p.toks[i-1].Norm, c}, p.x) {
		return true
	}
	return p.isWord(i+1) && p.l.inTitles([]string{c, p.toks[i+1].Norm}, p.x)
}
