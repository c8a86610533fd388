package llm

import (
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/memory"
)

// shelf is a memory of four purchases of a game player and two chunks, for
// reading answers against: e1 and e2 are Mario games on Nintendo systems,
// e3 a Zelda game, e4 a charging cable.
func shelf(t *testing.T) *memory.State {
	t.Helper()
	s := memory.New(memory.Config{})
	titles := []string{"Super Mario Odyssey - Nintendo Switch", "Mario Kart 8 Deluxe", "The Legend of Zelda: Breath of the Wild", "PowerA Charging Cable for Xbox One Controllers"}
	var sigs []memory.Signal
	for i, ti := range titles {
		sigs = append(sigs, memory.Signal{User: "u7", Item: "i" + string(rune('1'+i)), Action: "purchase", Meta: map[string][]string{"title": {ti}}, Time: int64(100 * (i + 1))})
	}
	if _, err := s.Record(sigs, nil, memory.Policy{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(500, "user", []memory.Op{
		{Op: "extract", Category: "series", Text: "Enjoys the Mario series", Strength: f(0.8)},
		{Op: "extract", Category: "platform", Text: "Plays on Nintendo Switch", Strength: f(0.7)},
	}, memory.Policy{}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCheckPreference(t *testing.T) {
	tests := []struct {
		name, pref string
		cited      []string
		check      string // "" accepted
	}{
		{"a series both cited games share", "Likes Mario games", []string{"e1", "e2"}, ""},
		{"a platform word of one title", "Plays on the Switch", []string{"e1"}, ""},
		{"half the cited events is enough", "Likes Mario", []string{"e1", "e3"}, ""},
		{"fewer than half is not", "Likes Mario", []string{"e1", "e3", "e4"}, CheckUnsupported},
		{"nothing cited", "Likes Mario", nil, CheckUnsupported},
		{"a word no cited title has", "Enjoys horror", []string{"e1", "e2"}, CheckUnsupported},
		{"a nonsense word", "Xenophobia", []string{"e3"}, CheckUnsupported},
		{"only generic words", "Likes video games", []string{"e1"}, CheckUnsupported},
		{"a whole title", "Mario Kart 8 Deluxe", []string{"e2"}, CheckTitleCopy},
		{"a title after a verb", "Likes Mario Kart 8 Deluxe", []string{"e2"}, CheckTitleCopy},
		{"the start of a long title", "PowerA Charging Cable for Xbox", []string{"e4"}, CheckTitleCopy},
		{"two words of a title are a series", "Enjoys Super Mario", []string{"e1"}, ""},
		{"a title of an event not cited", "The Legend of Zelda: Breath of the Wild", []string{"e1"}, CheckTitleCopy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkPreference("ops[0]", tt.pref, shelf(t), tt.cited)
			if got := checkName(err); got != tt.check {
				t.Fatalf("%q: %v (%q), want %q", tt.pref, err, got, tt.check)
			}
		})
	}
}

func checkName(err error) string {
	if err == nil {
		return ""
	}
	return checkOf(err)
}

func TestCheckProfile(t *testing.T) {
	tests := []struct {
		name, profile string
		check         string
	}{
		{"names what the chunks hold", "A Mario fan who plays on the Nintendo Switch. Zelda comes up too.", ""},
		{"a sentence that names nothing passes", "Mostly plays Mario games. Buys games often.", ""},
		{"an unsupported sentence", "Loves Mario. Also a big fan of horror movies.", CheckUnsupported},
		{"nothing named at all", "A player who likes games.", CheckUnsupported},
		{"one chunk verbatim", "Enjoys the Mario series", CheckVerbatimCopy},
		{"one title verbatim", "Mario Kart 8 Deluxe", CheckVerbatimCopy},
		{"a placeholder", "<3 to 6 sentences>", CheckPlaceholder},
		{"a template's variable", "The most popular choice is [category_name] with a preference for Mario.", CheckPlaceholder},
		{"a title in square brackets is not one", "Plays Mario [Super Mario Odyssey].", ""},
		{"the example", exampleProfiles0(), exampleCheck()},
		{"a loop", "Likes Mario and Zelda, likes Mario and Zelda, likes Mario and Zelda.", CheckRepetition},
		{"a sentence twice", "Likes Mario. Likes Mario.", CheckRepetition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkProfile(tt.profile, shelf(t))
			if got := checkName(err); got != tt.check {
				t.Fatalf("%q: %v (%q), want %q", tt.profile, err, got, tt.check)
			}
		})
	}
}

// exampleProfiles0 is the synthesize prompt's example profile, or its
// placeholder when the prompt shows no example; exampleCheck is the check
// that rejects it.
func exampleProfiles0() string {
	if len(exampleProfiles) > 0 {
		return exampleProfiles[0]
	}
	return "<3 to 6 sentences>"
}

func exampleCheck() string {
	if len(exampleProfiles) > 0 {
		return CheckExampleCopy
	}
	return CheckPlaceholder
}

func TestContentTerms(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Likes the Mario series (0.7)", "mario"},
		{"Enjoys open-world RPGs", "open world rpg"},
		{"FIFA 2016 - Xbox One", "fifa 2016 xbox one"},
		{"Strongly interested in racing games", "rac"},
	}
	for _, tt := range tests {
		if got := strings.Join(contentTerms(tt.in), " "); got != tt.want {
			t.Errorf("contentTerms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMemoryQuality(t *testing.T) {
	s := shelf(t)
	// c1 (Mario) and c2 (Switch) cite no events (made by the user): add a
	// grounded chunk, one whose events do not support it, a duplicate and a
	// placeholder, then a profile with one unsupported sentence of two.
	s.Chunks = append(s.Chunks,
		memory.Chunk{ID: "c3", Category: "series", Key: "zelda", Text: "Enjoys Zelda", Events: []string{"e3"}, Polarity: "likes"},
		memory.Chunk{ID: "c4", Category: "genre", Key: "horror", Text: "Likes horror", Events: []string{"e1", "e2"}, Polarity: "likes"},
		memory.Chunk{ID: "c5", Category: "series", Key: "zelda", Text: "Likes the Zelda games", Events: []string{"e3"}, Polarity: "likes"},
		memory.Chunk{ID: "c6", Category: "topic", Key: "why", Text: "<why>", Events: []string{"e4"}, Polarity: "likes"},
		memory.Chunk{ID: "c7", Category: "topic", Key: "mario kart", Text: "Mario Kart 8 Deluxe", Events: []string{"e2"}, Polarity: "likes"},
	)
	s.Profile = memory.Profile{Version: 1, Text: "Plays Mario on the Switch. Fond of chess."}
	// The journal says a model made c3 (grounded), c4 (not) and c6 (a
	// placeholder, which names nothing its event holds either); c5's
	// extraction fell back to the LLM-free extractor.
	s.Journal = append(s.Journal,
		memory.Entry{Op: "extract", Chunks: []string{"c3", "c4"}, Reason: "LLM extract"},
		memory.Entry{Op: "extract", Chunks: []string{"c5"}, Reason: "LLM extract not used (answer rejected: ...); LLM-free: ..."},
		memory.Entry{Op: "extract", Chunks: []string{"c6"}, Reason: "LLM extract: two purchases"})
	got := MemoryQuality(s)
	want := Quality{Users: 1, Chunks: 7, Grounded: 3, Unverifiable: 2, Duplicates: 1, Placeholders: 1, TitleCopies: 1,
		Profiles: 1, Sentences: 2, Supported: 1, ModelChunks: 3, ModelUngrounded: 2, ModelPlaceholders: 1}
	if got != want {
		t.Fatalf("quality\n got %+v\nwant %+v", got, want)
	}
	r := got.Report()
	if r.GroundedShare != 0.6 || r.Faithfulness != 0.5 || r.ChunksPerUser != 7 {
		t.Fatalf("report %+v", r)
	}
}
