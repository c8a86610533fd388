package memory

import (
	"reflect"
	"testing"
)

func TestDefaults(t *testing.T) {
	d := Defaults()
	want := Config{
		EventCap: 15, KCat: 4, DeltaPlus: 0.1, DeltaMinus: 0.2, ForgetThreshold: 0.3,
		ForgetMinEvidence: 2, Gamma: 5, Batch: 5, InitialStrength: 0.7, SupportStep: 0.1,
		MaxInitialStrength: 0.9, MinSupport: 1, MinTitleSupport: 2, MinAvoidSupport: 2,
		ChunkEvents: 8, JournalCap: 200, MergeJaccard: 0.6, StrongStrength: 0.7,
		StalePending: 604800, StaleChunk: 7776000, ProfileMaxAge: 86400, Categories: []string{},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Defaults() = %+v\nwant %+v", d, want)
	}
	if err := d.check(); err != nil {
		t.Errorf("defaults do not check: %v", err)
	}
	got := Config{KCat: 8, Categories: []string{"Release Year", "genre"}}.Resolved()
	if got.KCat != 8 || got.EventCap != 15 || !reflect.DeepEqual(got.Categories, []string{"release_year", "genre"}) {
		t.Errorf("Resolved kept %d, %d, %q", got.KCat, got.EventCap, got.Categories)
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{}, ""},
		{Config{EventCap: -1}, "event_cap: must be between 1 and 1000, got -1"},
		{Config{KCat: 65}, "k_cat: must be between 1 and 64, got 65"},
		{Config{Batch: 16}, "batch: must be between 1 and 15, got 16"},
		{Config{EventCap: 3}, "batch: must be between 1 and 3, got 5"},
		{Config{DeltaMinus: 1.5}, "delta_minus: must be in (0,1], got 1.5"},
		{Config{ForgetThreshold: -0.1}, "forget_threshold: must be in (0,1], got -0.1"},
		{Config{MaxInitialStrength: 0.5}, "max_initial_strength: 0.5 is below initial_strength 0.7"},
		{Config{StalePending: -5}, "stale_pending: must be a positive number of seconds up to 4102444799, got -5"},
		{Config{StaleChunk: 4102444800}, "stale_chunk: must be a positive number of seconds up to 4102444799, got 4102444800"},
		{Config{Categories: []string{"genre", "Genre"}}, `categories[1]: duplicate category "genre"`},
		{Config{Categories: []string{"!!"}}, "categories[0]: empty category name"},
	}
	for _, c := range cases {
		err := c.cfg.Validate()
		if got := errString(err); got != c.want {
			t.Errorf("Validate(%+v) = %q, want %q", c.cfg, got, c.want)
		}
	}
	// A stored config must be resolved: zero is refused there.
	if err := (Config{}).check(); errString(err) != "event_cap: must be between 1 and 1000, got 0" {
		t.Errorf("check of zero config = %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
