package rec

import "math/rand/v2"

// Successors lists, for every item, the items that follow it within window
// steps in some sequence (window 1 = the next item only), one entry per
// occurrence. Training BPR on these lists as if each item were a user gives a
// factorised transition model (the item-item term of FPMC, Rendle et al.
// 2010): score(j | i) = <C_i, W_j> + b_j. O(total length · window).
func Successors(seqs [][]int, n, window int) [][]int {
	out := make([][]int, n)
	for _, s := range seqs {
		for k, i := range s {
			for d := 1; d <= window && k+d < len(s); d++ {
				if j := s[k+d]; j != i {
					out[i] = append(out[i], j)
				}
			}
		}
	}
	return out
}

// SeqConfig sets the factorised transition model. Zero fields mean defaults.
type SeqConfig struct {
	Window int       // successors within this many steps (default 3)
	BPR    BPRConfig // default here: dim 32, 20 epochs (lr 0.2, reg 0.03)
}

// TrainSequential fits the factorised transition model: BPR over the
// Successors lists, with each item as a "user". Rows of items that never
// precede another are zeroed (they were never trained). The chosen defaults
// were compared on the validation split only (DESIGN §6 protocol).
// O(epochs · total length · window · dim).
func TrainSequential(seqs [][]int, n int, cfg SeqConfig, rng *rand.Rand) *BPR {
	if cfg.Window == 0 {
		cfg.Window = 3
	}
	if cfg.BPR.Dim == 0 {
		cfg.BPR.Dim = 32
	}
	if cfg.BPR.Epochs == 0 {
		cfg.BPR.Epochs = 20
	}
	succ := Successors(seqs, n, cfg.Window)
	m := TrainBPR(succ, n, cfg.BPR, rng)
	for i, s := range succ {
		if len(s) == 0 {
			clear(m.UserVec(i))
		}
	}
	return m
}
