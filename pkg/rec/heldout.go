package rec

import "hash/fnv"

// HeldOut reports whether a user (or an instruction case) belongs to the
// held-out fifth: the ids whose FNV-1a 32 hash is 0 modulo 5. Every choice
// made while building recmem was made on the validation split and on the
// other four fifths; the held-out fifth's figures are reported beside them,
// never used to choose. O(len(id)).
func HeldOut(id string) bool {
	h := fnv.New32a()
	h.Write([]byte(id))
	return h.Sum32()%5 == 0
}

// Split holds metrics over the four fifths used while building ("dev") and
// over the held-out fifth.
type Split struct {
	DevUsers     int    `json:"dev_users"`
	HeldOutUsers int    `json:"heldout_users"`
	Dev          Scores `json:"dev"`
	HeldOut      Scores `json:"heldout"`
}

// SplitOf computes a Split from the target ranks of cases (in case order).
func SplitOf(cases []Case, ranks []int) Split {
	var dev, ho Accumulator
	for i, c := range cases {
		if HeldOut(c.User) {
			ho.Add(ranks[i])
		} else {
			dev.Add(ranks[i])
		}
	}
	return Split{DevUsers: dev.N(), HeldOutUsers: ho.N(), Dev: dev.Scores(), HeldOut: ho.Scores()}
}

// Ranks returns the target's rank of every case under s.
func Ranks(cases []Case, s Scorer) []int {
	out := make([]int, len(cases))
	for i, c := range cases {
		out[i] = TargetRank(s(c), 0)
	}
	return out
}
