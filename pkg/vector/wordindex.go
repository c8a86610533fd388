package vector

// wordIndex maps a table's words to their frequency ranks: an open-addressing
// hash table of ranks over the one string that lists every word. It holds no
// pointer per word, so building it (a start of the module) and the garbage
// collector's scans cost little inside WebAssembly, where a map of 30,000
// strings took about 10 ms to build. Lookups hash the word (FNV-1a) and
// compare it with the listed word in its slot.
type wordIndex struct {
	blob     string  // the words, separated by '\n'
	start    []int32 // word r is blob[start[r] : start[r+1]-1]
	slots    []int32 // 1 + the rank of the word hashed to the slot, 0 if empty
	distinct int
}

// newWordIndex indexes the '\n'-separated words of list. A word listed twice
// maps to its last rank, as assigning into a map would. Cost O(len(list)).
func newWordIndex(list string) *wordIndex {
	x := &wordIndex{blob: list, start: []int32{0}}
	for i := 0; i < len(list); i++ {
		if list[i] == '\n' {
			x.start = append(x.start, int32(i+1))
		}
	}
	x.start = append(x.start, int32(len(list)+1))
	n := len(x.start) - 1
	size := 1
	for size < 2*n {
		size <<= 1
	}
	x.slots = make([]int32, size)
	mask := uint32(size - 1)
	for r := range n {
		w := x.word(int32(r))
		for h := fnv32(w) & mask; ; h = (h + 1) & mask {
			s := x.slots[h]
			if s == 0 {
				x.slots[h] = int32(r + 1)
				x.distinct++
				break
			}
			if x.word(s-1) == w {
				x.slots[h] = int32(r + 1) // a repeated word: the later rank
				break
			}
		}
	}
	return x
}

// len is the number of listed words (repeats included).
func (x *wordIndex) len() int { return len(x.start) - 1 }

// word is the word of rank r.
func (x *wordIndex) word(r int32) string { return x.blob[x.start[r] : x.start[r+1]-1] }

// lookup returns the rank of w. O(len(w)) expected.
func (x *wordIndex) lookup(w string) (int32, bool) {
	mask := uint32(len(x.slots) - 1)
	for h := fnv32(w) & mask; ; h = (h + 1) & mask {
		s := x.slots[h]
		if s == 0 {
			return 0, false
		}
		if x.word(s-1) == w {
			return s - 1, true
		}
	}
}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
