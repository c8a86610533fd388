package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Precomputed neighbour lists. Scanning the whole table for a word's nearest
// neighbours costs O(table size · dim), about 10^6 multiplications for the
// embedded table, which is most of a selection's time in WebAssembly. The
// lists below are computed once, by scripts/embeddings/neighbours.go, and
// embedded next to the table they were computed from: for each word, its K
// nearest table words of cosine at least MinCos, exactly as Neighbours' scan
// orders them. A request for k ≤ K neighbours at a cosine floor ≥ MinCos is the
// prefix of that list that clears the floor, so Neighbours answers it in
// O(K · dim) from the list; any other request, and any table without lists,
// scans.
//
// Format: "RMNB" | u8 version 1 | u8 K | u32 n (the table's words) |
// u64 FNV-1a of the table file | f64 MinCos (little endian) | n bytes of list
// lengths | the ranks of all listed words as u16, low bytes then high bytes
// (the two planes compress better apart).

// neighbourLists are a table's precomputed nearest words.
type neighbourLists struct {
	k      int
	minCos float64
	start  []int32  // word rank -> first index in ranks (n+1 entries)
	ranks  []uint16 // the listed words' ranks, best first
}

// NeighbourLists computes, for every word of t, its k nearest table words of
// cosine at least minCos (the order of Neighbours) and encodes them in the
// format above, bound to the table file whose bytes hash to tableHash
// (TableHash). It uses every CPU. Cost O(n² · dim) for n words.
func (t *Table) NeighbourLists(k int, minCos float64, tableHash uint64) ([]byte, error) {
	n := t.ix.len()
	if n > 1<<16 || k <= 0 || k > 255 {
		return nil, fmt.Errorf("vector: cannot list %d neighbours of %d words", k, n)
	}
	lists := make([][]int32, n)
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				lists[i] = t.scanNeighbours(int32(i), nil, k, minCos)
			}
		}(w)
	}
	wg.Wait()
	b := []byte("RMNB\x01")
	b = append(b, byte(k))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint64(b, tableHash)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(minCos))
	var all []int32
	for _, l := range lists {
		b = append(b, byte(len(l)))
		all = append(all, l...)
	}
	for _, r := range all {
		b = append(b, byte(r))
	}
	for _, r := range all {
		b = append(b, byte(r>>8))
	}
	return b, nil
}

// TableHash is the 64-bit FNV-1a hash of a table file, which binds neighbour
// lists to the table they were computed from. Cost O(len(b)).
func TableHash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// parseNeighbourLists decodes lists for a table of n words whose file hashes
// to tableHash. Cost O(len(b)).
func parseNeighbourLists(b []byte, n int, tableHash uint64) (*neighbourLists, error) {
	const head = 4 + 1 + 1 + 4 + 8 + 8
	if len(b) < head || string(b[:4]) != "RMNB" || b[4] != 1 {
		return nil, errors.New("vector: not a version 1 RMNB file")
	}
	k := int(b[5])
	if int(binary.LittleEndian.Uint32(b[6:])) != n || binary.LittleEndian.Uint64(b[10:]) != tableHash {
		return nil, errors.New("vector: neighbour lists of another table")
	}
	nl := &neighbourLists{k: k, minCos: math.Float64frombits(binary.LittleEndian.Uint64(b[18:]))}
	if len(b) < head+n {
		return nil, errors.New("vector: neighbour lists truncated")
	}
	lens := b[head : head+n]
	nl.start = make([]int32, n+1)
	for i, l := range lens {
		if int(l) > k {
			return nil, fmt.Errorf("vector: word %d lists %d neighbours, more than %d", i, l, k)
		}
		nl.start[i+1] = nl.start[i] + int32(l)
	}
	m := int(nl.start[n])
	lo := b[head+n:]
	if len(lo) != 2*m {
		return nil, fmt.Errorf("vector: neighbour lists hold %d bytes of ranks, want %d", len(lo), 2*m)
	}
	nl.ranks = make([]uint16, m)
	for i := range nl.ranks {
		r := uint16(lo[i]) | uint16(lo[m+i])<<8
		if int(r) >= n {
			return nil, fmt.Errorf("vector: neighbour rank %d out of range", r)
		}
		nl.ranks[i] = r
	}
	return nl, nil
}

// embeddedTableHash is the table hash a neighbour-lists file records (0 if
// it is too short to hold one).
func embeddedTableHash(b []byte) uint64 {
	if len(b) < 18 {
		return 0
	}
	return binary.LittleEndian.Uint64(b[10:])
}
