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
	// Chunks of one degree and template are named together; no figure is
	// written; a first profile says nothing of what changed lately.
	want := "Enjoys the Mario and Super Mario series. Enjoys RPG; tentatively avoids horror."
	if p.Text != want {
		t.Errorf("text\n got %s\nwant %s", p.Text, want)
	}
	// Against a profile before, it does; a weaker avoidance is being more
	// open to it.
	later := s.Clone()
	later.Profile.Version = 1
	for i := range later.Chunks {
		later.Chunks[i].Epoch = 1
	}
	lp, _ := TemplateSynthesizer{}.Synthesize(later)
	if want += " Lately more into the Mario series and RPG; less into the Super Mario series; more open to horror."; lp.Text != want {
		t.Errorf("text after a profile\n got %s\nwant %s", lp.Text, want)
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

func TestProfileSentences(t *testing.T) {
	ch := func(id, cat, key, pol, text string, st float64) Chunk {
		return Chunk{ID: id, Category: cat, Key: key, Polarity: pol, Text: text, Strength: st, Evidence: 1, Events: []string{}, Epoch: -1}
	}
	cases := []struct {
		name   string
		chunks []Chunk
		want   string
	}{
		{"strong likes named together, an article kept once", []Chunk{
			ch("c1", "series", "mario", "likes", "Enjoys the Mario series", 0.9),
			ch("c2", "series", "the legend of zelda", "likes", "Enjoys The Legend of Zelda series", 1)},
			"Strongly enjoys The Legend of Zelda and Mario series."},
		{"three in a list, then a weaker one", []Chunk{
			ch("c1", "genre", "drama", "likes", "Enjoys Drama", 0.8),
			ch("c2", "genre", "comedy", "likes", "Enjoys Comedy", 0.8),
			ch("c3", "genre", "war", "likes", "Enjoys War", 0.7),
			ch("c4", "genre", "horror", "likes", "Enjoys Horror", 0.4)},
			"Enjoys Drama, Comedy and War; tentatively enjoys Horror."},
		{"a text the user wrote keeps its words", []Chunk{
			ch("c1", "platform", "nintendo wii u", "likes", "Prefers Nintendo Wii U", 0.7),
			ch("c2", "topic", "racing", "likes", "Loves racing games with friends", 0.7),
			ch("c3", "platform", "xbox 360", "avoids", "Avoids Xbox 360", 1)},
			"Strongly avoids Xbox 360; prefers Nintendo Wii U. Loves racing games with friends."},
	}
	for _, c := range cases {
		s := New(Config{})
		s.Chunks = c.chunks
		p, err := TemplateSynthesizer{}.Synthesize(s)
		if err != nil {
			t.Fatal(err)
		}
		if p.Text != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, p.Text, c.want)
		}
	}
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"Enjoys RPG": "enjoys RPG", "I love RPGs": "I love RPGs", "RPG fan": "RPG fan", "": ""} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
