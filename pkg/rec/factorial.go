package rec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/rank"
)

// Tiers is one combination of the memory tiers the ranker may read.
type Tiers struct {
	Event      bool `json:"event"`
	Preference bool `json:"preference"`
	Profile    bool `json:"profile"`
}

func (t Tiers) keep() map[string]bool {
	return map[string]bool{rank.TierEvent: t.Event, rank.TierPreference: t.Preference, rank.TierProfile: t.Profile}
}

// AllTiers are the 2^3 combinations of ±event, ±preference, ±profile memory
// (the MARS tier study, seeds/000 §4.4), from none to all.
func AllTiers() []Tiers {
	out := make([]Tiers, 0, 8)
	for m := range 8 {
		out = append(out, Tiers{Event: m&4 != 0, Preference: m&2 != 0, Profile: m&1 != 0})
	}
	return out
}

// TierResult is the ranker restricted to one tier combination: weights
// learned afresh on the validation cases with the other tiers' features
// zeroed, then scored on the test cases.
type TierResult struct {
	Tiers
	Valid   Scores             `json:"valid"`
	Test    Scores             `json:"test"`
	Split   Split              `json:"split"`
	Weights map[string]float64 `json:"weights"`
	// ByHistoryLength is Test split by the users' history length against
	// the event list's capacity (ByHistoryLength).
	ByHistoryLength []LengthScores `json:"by_history_length"`
}

// Factorial runs the tier study: for each combination, mask the validation
// and test feature vectors (rank.Mask), learn weights on the validation ones
// (LearnWeights), and score both. valid and test are lists of cases' feature
// vectors, target first; cases gives the test users for the held-out split
// and, with eventCap (the event list's capacity the memories were built
// with), the history-length groups. O(8 × Learn).
func Factorial(valid, test [][][]float64, cases []Case, eventCap int, cfg LearnConfig) []TierResult {
	var out []TierResult
	for _, t := range AllTiers() {
		keep := t.keep()
		mask := func(groups [][][]float64) [][][]float64 {
			m := make([][][]float64, len(groups))
			for i, g := range groups {
				m[i] = make([][]float64, len(g))
				for k, v := range g {
					m[i][k] = slices.Clone(v)
					rank.Mask(m[i][k], keep)
				}
			}
			return m
		}
		vm, tm := mask(valid), mask(test)
		w, s := LearnWeights(vm, cfg)
		score := func(groups [][][]float64) []int {
			ranks := make([]int, len(groups))
			for i, g := range groups {
				sc := make([]float64, len(g))
				for k, v := range g {
					sc[k] = rank.ScoreWith(w, s, v)
				}
				ranks[i] = TargetRank(sc, 0)
			}
			return ranks
		}
		vr, tr := score(vm), score(tm)
		var va, ta Accumulator
		for _, r := range vr {
			va.Add(r)
		}
		for _, r := range tr {
			ta.Add(r)
		}
		out = append(out, TierResult{Tiers: t, Valid: va.Scores(), Test: ta.Scores(), Split: SplitOf(cases, tr), Weights: w,
			ByHistoryLength: ByHistoryLength(cases, tr, eventCap)})
	}
	return out
}

// Vectors builds each case's memory retrospectively (natively, as the .wasm
// does it: the exports run the same code) and returns the ranker's feature
// vectors of its candidates under the catalog cat. O(cases × memory
// lifecycle).
func Vectors(d *dataset.RecBole, cat *catalog.Catalog, cases []Case, eventCap int) ([][][]float64, error) {
	r := rank.New(cat)
	out := make([][][]float64, 0, len(cases))
	for _, c := range cases {
		m, err := Retrospective(d, c, eventCap)
		if err != nil {
			return nil, fmt.Errorf("rec: user %s: %w", c.User, err)
		}
		v, err := r.Vectors(rank.FromMemory(m), RequestOf(cat, c.Candidates))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Name is "event+preference+profile", or "none".
func (t Tiers) Name() string {
	var parts []string
	for _, p := range []struct {
		on   bool
		name string
	}{{t.Event, "event"}, {t.Preference, "preference"}, {t.Profile, "profile"}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
