package rank

import (
	"math"
	"testing"

	"github.com/recmem/recmem/pkg/memory"
)

func TestProfileClauses(t *testing.T) {
	for _, tc := range []struct {
		comment, text string
		want          []profileClause
	}{
		{"the template: sections, decimals, a negation, fading and rising",
			"Genre: strongly enjoys Drama (0.9); avoids Horror (0.7). Rising: enjoys Drama (+0.1). Fading: enjoys Comedy (-0.2).",
			[]profileClause{{"strongly enjoys Drama (0.9)", 1}, {"avoids Horror (0.7)", -1}, {"enjoys Drama (+0.1)", 0.5}, {"enjoys Comedy (-0.2)", -0.5}}},
		{"the template's sentences: a list, a degree, what changed lately",
			"Strongly enjoys Drama and Comedy; avoids Horror. Lately more into Drama; less into the Halo series; more open to Horror.",
			[]profileClause{{"Strongly enjoys Drama and Comedy", 1}, {"avoids Horror", -1}, {"Lately more into Drama", 0.5},
				{"less into the Halo series", -0.5}, {"more open to Horror", 0.5}}},
		{"prose without sections", "Loves noir films. Does not like musicals",
			[]profileClause{{"Loves noir films", 1}, {"Does not like musicals", -1}}},
		{"a long head before a colon is no section", "The user who watched many films likes this: westerns",
			[]profileClause{{"The user who watched many films likes this: westerns", 1}}},
		{"empty", "", nil},
	} {
		got := profileClauses(tc.text)
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %+v", tc.comment, got)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: clause %d: got %+v, want %+v", tc.comment, i, got[i], tc.want[i])
			}
		}
	}
}

func TestPreferenceMatch(t *testing.T) {
	p := newPreferences([]Chunk{
		{Category: "genre", Strength: 0.9, Keys: []string{"drama"}},
		{Category: "genre", Strength: -0.7, Keys: []string{"horror", "slasher"}},
		{Category: "era", Strength: 0.8, Keys: []string{"1990s"}},
	})
	keys := memory.ItemKeys(map[string][]string{"genre": {"Drama|Horror"}, "year": {"1995"}, "title": {"Scream"}}, nil)
	// drama 0.9 - horror 0.7 + 1990s 0.8 = 1.0; the title's guessed topic
	// "Scream" matches nothing.
	if got := p.match(keys); math.Abs(got-1.0) > 1e-12 {
		t.Errorf("match = %v, want 1.0 (keys %+v)", got, keys)
	}
	if got := p.match(memory.ItemKeys(map[string][]string{"genre": {"Slasher"}}, nil)); got != -0.7 {
		t.Errorf("alias match = %v, want -0.7", got)
	}
}

func TestMaskAndScoreWith(t *testing.T) {
	v := make([]float64, len(Features))
	for i := range v {
		v[i] = 1
	}
	Mask(v, map[string]bool{TierEvent: true})
	for f, name := range Features {
		tier := FeatureTier[name]
		if want := tier == "" || tier == TierEvent; (v[f] == 1) != want {
			t.Errorf("%s (tier %q) = %v after keeping events only", name, tier, v[f])
		}
	}
	// Only learned or default weights count: popularity 2 × scale 0.5 on
	// 1, plus the instruction defaults (1 each) on 1.
	got := ScoreWith(map[string]float64{"popularity": 2}, map[string]float64{"popularity": 0.5}, v)
	if want := 1.0 + DefaultWeights["instruction"] + DefaultWeights["instruction_dense"]; got != want {
		t.Errorf("ScoreWith = %v, want %v", got, want)
	}
}
