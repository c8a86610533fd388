package intentlab

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestRatio(t *testing.T) {
	for _, tt := range []struct {
		sum  float64
		n    int
		want float64
	}{
		{2, 3, 0.6667},   // 0.666666… rounds up
		{1, 3, 0.3333},   // 0.333333… rounds down
		{1, 8, 0.125},    // exact
		{7, 7, 1},        //
		{0, 0, 0},        // nothing counted
		{3, 0, 3},        // n 0 reads as 1, never a division by zero
		{2.8, 3, 0.9333}, // 0.933333…
	} {
		if got := Ratio(tt.sum, tt.n); got != tt.want {
			t.Errorf("Ratio(%v, %d) = %v, want %v", tt.sum, tt.n, got, tt.want)
		}
	}
}

func TestShare(t *testing.T) {
	items := map[string]map[string]string{
		"1": {"title": "Halo 3 - Xbox 360", "platform": "Xbox 360"},
		"2": {"title": "Gears of War", "platform": "Xbox 360"},
		"3": {"title": "Halo: Reach", "platform": "Xbox 360"},
		"4": {"title": "Super Mario Galaxy", "platform": "Nintendo Wii"},
	}
	var noHalo Gold
	if err := json.Unmarshal([]byte(`{"not": {"title": "halo"}}`), &noHalo); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ids   []string
		share float64
		bad   []string
	}{
		{[]string{"2", "4"}, 1, nil},
		{[]string{"1", "2", "3", "4"}, 0.5, []string{"Halo 3 - Xbox 360", "Halo: Reach"}},
		{[]string{"3", "2", "4"}, 2.0 / 3, []string{"Halo: Reach"}},
		{[]string{"1"}, 0, []string{"Halo 3 - Xbox 360"}},
		{nil, 0, nil}, // an empty list meets nothing
	} {
		share, bad := Share(tt.ids, items, &noHalo)
		if share != tt.share || !slices.Equal(bad, tt.bad) {
			t.Errorf("Share(%v) = %v, %q; want %v, %q", tt.ids, share, bad, tt.share, tt.bad)
		}
	}
}

func TestTally(t *testing.T) {
	var a Tally
	if got := a.Scores(); got != (Scores{}) {
		t.Errorf("empty tally: %+v", got)
	}
	// Two lists of case a (a new user, and one relaxed), one of case b
	// (short: 1 of 1 listed, 2 candidates met it).
	a.Add(List{Case: "a", Share: 1, Strict: 1, Baseline: 0.5})
	a.Add(List{Case: "a", Share: 0.8, Strict: 0.8, Baseline: 1, Relaxed: true})
	a.Add(List{Case: "b", Share: 1, Strict: 0.5, Baseline: 1, Relaxed: true, Short: true})
	want := Scores{
		Cases: 2, Lists: 3,
		P10:         0.9333, // (1 + 0.8 + 1) / 3
		P10Strict:   0.7667, // (1 + 0.8 + 0.5) / 3
		Perfect:     0.6667, // 2 of 3 lists meet it throughout
		BaselineP10: 0.8333, // (0.5 + 1 + 1) / 3
		BaselinePer: 0.6667, // 2 of 3
		Relaxed:     2,
		Short:       1,
	}
	if got := a.Scores(); got != want {
		t.Errorf("Scores() = %+v, want %+v", got, want)
	}
	if a.Lists() != 3 {
		t.Errorf("Lists() = %d", a.Lists())
	}
}
