package lexical

import "fmt"

// Build returns the index of n documents, keys 0 to n-1, whose terms are
// given as ids into terms: doc(k, emit) calls emit with the term ids of
// document k, in one or more runs (a session's units, one after another).
// The index is the one Add would build from the same documents in key order,
// bit for bit, without hashing a term per occurrence: it counts in arrays
// indexed by term id, lays every posting list out in one block, and touches
// the map once per distinct term. Cost O(occurrences + terms); the block,
// the lengths and the map are its only allocations.
//
// It returns an error for a term id outside terms, naming it.
func Build(cfg Config, terms []string, n int, doc func(k int, emit func(ids []int32))) (*Index, error) {
	ix := &Index{cfg: cfg, lengths: make([]int32, n)}
	// Pass 1: postings per term (distinct documents), lengths.
	count := make([]int32, len(terms))
	last := make([]int32, len(terms)) // 1 + the last document counted, per term
	var bad error
	k := 0 // the document being read: the closures below are made once
	countRun := func(ids []int32) {
		for _, t := range ids {
			if t < 0 || int(t) >= len(terms) {
				if bad == nil {
					bad = fmt.Errorf("lexical: term id %d out of range (%d terms)", t, len(terms))
				}
				continue
			}
			if last[t] != int32(k+1) {
				last[t] = int32(k + 1)
				count[t]++
			}
		}
		ix.lengths[k] += int32(len(ids))
	}
	for k = range n {
		doc(k, countRun)
	}
	if bad != nil {
		return nil, bad
	}
	start := make([]int32, len(terms)+1)
	distinct := 0
	for t, c := range count {
		start[t+1] = start[t] + c
		if c > 0 {
			distinct++
		}
	}
	block := make([]posting, start[len(terms)])
	// Pass 2: fill each term's postings in document order; next[t] is where
	// the term's next posting goes.
	next := count // reused: count[t] is no longer needed once start is set
	copy(next, start[:len(terms)])
	clear(last)
	fillRun := func(ids []int32) {
		for _, t := range ids {
			if last[t] != int32(k+1) {
				last[t] = int32(k + 1)
				block[next[t]] = posting{int32(k), 1}
				next[t]++
				continue
			}
			block[next[t]-1].tf++
		}
	}
	for k = range n {
		doc(k, fillRun)
	}
	ix.finish(terms, start, block, distinct)
	return ix, nil
}

// BuildFlat is Build over documents laid out flat: document k's term ids
// are ids[end[k-1]:end[k]] (end[-1] being 0). Plain loops over arrays, for
// the callers that have them (a state read from its binary form): inside
// WebAssembly they cost a fraction of the callbacks'. Cost O(len(ids) +
// terms).
func BuildFlat(cfg Config, terms []string, ids []int32, end []int32) (*Index, error) {
	n := len(end)
	ix := &Index{cfg: cfg, lengths: make([]int32, n)}
	count := make([]int32, len(terms))
	last := make([]int32, len(terms))
	nt := int32(len(terms))
	start := int32(0)
	for k, e := range end {
		if e < start || int(e) > len(ids) {
			return nil, fmt.Errorf("lexical: document %d ends at %d, out of order", k, e)
		}
		doc := ids[start:e]
		mark := int32(k + 1)
		for _, t := range doc {
			if t < 0 || t >= nt {
				return nil, fmt.Errorf("lexical: term id %d out of range (%d terms)", t, len(terms))
			}
			if last[t] != mark {
				last[t] = mark
				count[t]++
			}
		}
		ix.lengths[k] = e - start
		start = e
	}
	first := make([]int32, len(terms)+1)
	distinct := 0
	for t, c := range count {
		first[t+1] = first[t] + c
		if c > 0 {
			distinct++
		}
	}
	block := make([]posting, first[len(terms)])
	next := count
	copy(next, first[:len(terms)])
	clear(last)
	start = 0
	for k, e := range end {
		mark := int32(k + 1)
		for _, t := range ids[start:e] {
			if last[t] != mark {
				last[t] = mark
				block[next[t]] = posting{int32(k), 1}
				next[t]++
				continue
			}
			block[next[t]-1].tf++
		}
		start = e
	}
	ix.finish(terms, first, block, distinct)
	return ix, nil
}

// finish hands each term its postings, block[first[t]:first[t+1]] (capped:
// a later Add that grows a list copies it out of the block), and counts the
// documents and their total length.
func (ix *Index) finish(terms []string, first []int32, block []posting, distinct int) {
	ix.postings = make(map[string][]posting, distinct)
	for t, s := range first[:len(terms)] {
		if e := first[t+1]; e > s {
			ix.postings[terms[t]] = block[s:e:e]
		}
	}
	for _, l := range ix.lengths {
		if l > 0 {
			ix.docs++
			ix.total += int(l)
		}
	}
}
