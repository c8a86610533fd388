package memory

import (
	"reflect"
	"testing"
)

func TestTemplateSynthesizer(t *testing.T) {
	s := fixture(t)
	p, err := TemplateSynthesizer{}.Synthesize(s)
	if err != nil {
		t.Fatal(err)
	}
	// Categories by their strongest chunk: series (0.8) before genre (0.7).
	// All chunks changed at epoch 0, the current profile version: c1 and c3
	// are new (last_delta equals strength), c2 and c4 fell by 0.2.
	want := "Series: enjoys the Mario series (0.8); enjoys the Super Mario series (0.6). " +
		"Genre: enjoys RPG (0.7); tentatively avoids horror (0.3). " +
		"Rising: enjoys the Mario series (new); enjoys RPG (new). " +
		"Fading: enjoys the Super Mario series (-0.2); avoids horror (-0.2)."
	if p.Text != want {
		t.Errorf("text\n got %s\nwant %s", p.Text, want)
	}
	refs := []ChunkRef{{"c3", 0.8}, {"c4", 0.6}, {"c1", 0.7}, {"c2", 0.3}}
	if !reflect.DeepEqual(p.BuiltFrom, refs) || !reflect.DeepEqual(p.Rising, []string{"c3", "c1"}) || !reflect.DeepEqual(p.Fading, []string{"c4", "c2"}) {
		t.Errorf("profile %+v", p)
	}
	// After a synthesis, only later changes are rising or fading.
	if _, err := s.Apply(1000, "user", []Op{{Op: "synthesize"}, {Op: "boost", Chunk: "c1"}}, Policy{}); err != nil {
		t.Fatal(err)
	}
	p, _ = TemplateSynthesizer{}.Synthesize(s)
	if !reflect.DeepEqual(p.Rising, []string{"c1"}) || len(p.Fading) != 0 {
		t.Errorf("rising %v fading %v", p.Rising, p.Fading)
	}
	if p, _ := (TemplateSynthesizer{}).Synthesize(New(Config{})); p.Text != "No preferences recorded yet." {
		t.Errorf("empty: %q", p.Text)
	}
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"Enjoys RPG": "enjoys RPG", "I love RPGs": "I love RPGs", "RPG fan": "RPG fan", "": ""} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
