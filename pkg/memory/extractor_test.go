package memory

import (
	"strings"
	"testing"
)

func sig(item, action string, rating int, tm int64, kv ...string) Signal {
	meta := map[string][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		meta[kv[i]] = append(meta[kv[i]], kv[i+1])
	}
	return Signal{User: "u", Item: item, Action: action, Rating: rating, Meta: meta, Time: tm}
}

// extractAll records signals without maintenance, then extracts them, and
// returns the journal entries of the extraction as "op chunk after" lines.
func extractAll(t *testing.T, s *State, sigs ...Signal) string {
	t.Helper()
	if _, err := s.Record(sigs, nil, Policy{}); err != nil {
		t.Fatal(err)
	}
	out, err := s.Apply(s.Clock, "user", []Op{{Op: "extract"}}, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range out {
		l := e.Op
		if len(e.Chunks) > 0 {
			l += " " + strings.Join(e.Chunks, ",")
		}
		if e.After != nil {
			l += " " + fmtStrength(*e.After)
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "; ")
}

func TestMetadataExtractor(t *testing.T) {
	t.Run("support sets the initial strength, capped", func(t *testing.T) {
		s := New(Config{})
		got := extractAll(t, s,
			sig("a", "purchase", 0, 1, "genre", "RPG"), sig("b", "like", 0, 2, "genre", "RPG"),
			sig("c", "rate", 5, 3, "genre", "RPG"), sig("d", "purchase", 0, 4, "genre", "RPG"),
			sig("e", "purchase", 0, 5, "genre", "Puzzle"))
		if got != "extract c1 0.9; extract c2 0.7; extract" {
			t.Errorf("got %s", got)
		}
		if c := s.Chunks[0]; c.Evidence != 4 || c.Text != "Enjoys RPG" || c.FirstSeen != 1 || c.LastSeen != 4 {
			t.Errorf("chunk %+v", c)
		}
	})
	t.Run("one boost per batch however many supports", func(t *testing.T) {
		s := New(Config{})
		extractAll(t, s, sig("a", "purchase", 0, 1, "genre", "RPG"))
		got := extractAll(t, s, sig("b", "like", 0, 2, "genre", "RPG"), sig("c", "purchase", 0, 3, "genre", "RPG"))
		if got != "boost c1 0.8; extract" {
			t.Errorf("got %s", got)
		}
		if c := s.Chunks[0]; c.Evidence != 2 || len(c.Events) != 3 {
			t.Errorf("chunk %+v", c)
		}
	})
	t.Run("contradiction demotes, a tie leaves it", func(t *testing.T) {
		s := New(Config{})
		extractAll(t, s, sig("a", "purchase", 0, 1, "genre", "RPG"))
		if got := extractAll(t, s, sig("b", "skip", 0, 2, "genre", "RPG"), sig("c", "rate", 2, 3, "genre", "RPG")); got != "demote c1 0.5; extract" {
			t.Errorf("demote: %s", got)
		}
		if got := extractAll(t, s, sig("d", "dislike", 0, 4, "genre", "RPG"), sig("e", "like", 0, 5, "genre", "RPG")); got != "extract" {
			t.Errorf("tie: %s", got)
		}
	})
	t.Run("avoids needs two net negatives; negatives then support it", func(t *testing.T) {
		s := New(Config{})
		if got := extractAll(t, s, sig("a", "dislike", 0, 1, "genre", "Horror")); got != "extract" {
			t.Errorf("one dislike: %s", got)
		}
		if got := extractAll(t, s, sig("b", "skip", 0, 2, "genre", "Horror")); got != "extract c1 0.8; extract" {
			t.Errorf("two: %s", got)
		}
		if c := s.Chunks[0]; c.Polarity != "avoids" || c.Text != "Avoids Horror" {
			t.Errorf("chunk %+v", c)
		}
		if got := extractAll(t, s, sig("c", "dislike", 0, 3, "genre", "Horror")); got != "boost c1 0.9; extract" {
			t.Errorf("third: %s", got)
		}
		if got := extractAll(t, s, sig("d", "purchase", 0, 4, "genre", "Horror")); got != "demote c1 0.7; extract" {
			t.Errorf("a purchase: %s", got)
		}
	})
	t.Run("title features need two supports across the event memory", func(t *testing.T) {
		s := New(Config{})
		if got := extractAll(t, s, sig("a", "purchase", 0, 1, "title", "Super Mario Odyssey - Nintendo Switch")); got != "extract" {
			t.Errorf("first title: %s", got)
		}
		got := extractAll(t, s, sig("b", "purchase", 0, 2, "title", "Super Mario Galaxy - Nintendo Wii"), view("x", 3))
		if got != "extract c1 0.8; extract" {
			t.Errorf("second title: %s", got)
		}
		if c := s.Chunks[0]; c.Category != "topic" || c.Key != "mario" || c.Text != "Interested in Mario" || c.Events[0] != "e1" {
			t.Errorf("chunk %+v", c)
		}
	})
	t.Run("neutral signals count for nothing", func(t *testing.T) {
		s := New(Config{})
		if got := extractAll(t, s, sig("a", "view", 0, 1, "genre", "RPG"), sig("b", "rate", 3, 2, "genre", "RPG"), sig("c", "click", 0, 3, "genre", "RPG")); got != "extract" {
			t.Errorf("got %s", got)
		}
		if len(s.pending()) != 0 {
			t.Error("neutral events stay pending")
		}
	})
}

// chunkTexts lists the texts of s's chunks in order.
func chunkTexts(s *State) []string {
	var out []string
	for _, c := range s.Chunks {
		out = append(out, c.Text)
	}
	return out
}

func TestOneChunkPerName(t *testing.T) {
	blackFlag := "Assassin&rsquo;s Creed IV Black Flag - PlayStation 4"
	unity := "Assassin's Creed Unity - Xbox One"
	cases := []struct {
		name string
		sigs []Signal
		want []string
	}{
		{"titles alone: the longest run the two titles share", []Signal{
			sig("1", "purchase", 0, 1, "title", blackFlag), sig("2", "purchase", 0, 2, "title", unity)},
			[]string{"Interested in Assassin's Creed"}},
		{"a series in the metadata: its words are no topic", []Signal{
			sig("1", "purchase", 0, 1, "title", blackFlag, "series", "Assassin's Creed"),
			sig("2", "purchase", 0, 2, "title", unity, "series", "Assassin's Creed")},
			[]string{"Enjoys the Assassin's Creed series"}},
		{"a series name with an article", []Signal{
			sig("1", "purchase", 0, 1, "title", "The Legend of Zelda: Breath of the Wild", "series", "The Legend of Zelda")},
			[]string{"Enjoys The Legend of Zelda series"}},
		{"a word shared beyond the name stays its own", []Signal{
			sig("1", "purchase", 0, 1, "title", "Super Mario Galaxy - Nintendo Wii"),
			sig("2", "purchase", 0, 2, "title", "Mario Kart Wii - Nintendo Wii"),
			sig("3", "purchase", 0, 3, "title", "Mario Kart DS - Nintendo DS")},
			[]string{"Prefers Nintendo Wii", "Interested in Mario", "Interested in Mario Kart"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(Config{})
			extractAll(t, s, c.sigs...)
			if got := chunkTexts(s); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("chunks %q, want %q", got, c.want)
			}
		})
	}
}
