package memory

import (
	"encoding/json"
	"testing"
)

func TestDuplicates(t *testing.T) {
	s := fixture(t)
	s.Chunks = append(s.Chunks,
		Chunk{ID: "c5", Category: "genre", Key: "role playing game", Polarity: "likes", Text: "Enjoys role-playing games", Strength: 0.5, Evidence: 1, Events: []string{}},
		Chunk{ID: "c6", Category: "genre", Key: "action role playing", Polarity: "likes", Text: "Enjoys action RPGs", Strength: 0.9, Evidence: 1, Events: []string{}},
		Chunk{ID: "c7", Category: "genre", Key: "mario", Polarity: "likes", Text: "Enjoys Mario", Strength: 0.5, Evidence: 1, Events: []string{}},
	)
	s.Counters.NextChunk = 8
	s.Config.KCat = 8
	// series: "mario" (0.8) absorbs "super mario" (containment).
	// genre likes: "action role playing" (0.9) and "role playing game" (0.5)
	// share 2 of 4 terms: 0.5, below 0.6, so no merge at the default; "mario"
	// in genre is not merged with the series chunk.
	got, _ := json.Marshal(Duplicates(s))
	want := `[{"op":"merge","chunks":["c3","c4"],"reason":"near-duplicates in series (2/8 chunks): \"mario\" absorbs \"super mario\" (one contains the other)"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	s.Config.MergeJaccard = 0.5
	got, _ = json.Marshal(Duplicates(s))
	want = `[{"op":"merge","chunks":["c6","c5"],"reason":"near-duplicates in genre (5/8 chunks): \"action role playing\" absorbs \"role playing game\" (term overlap 0.50, threshold 0.5)"},` +
		`{"op":"merge","chunks":["c3","c4"],"reason":"near-duplicates in series (2/8 chunks): \"mario\" absorbs \"super mario\" (one contains the other)"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestForgettable(t *testing.T) {
	s := fixture(t)
	got, _ := json.Marshal(Forgettable(s))
	want := `[{"op":"forget","chunk":"c2","reason":"strength 0.3 is at or below the threshold 0.3, with evidence 2 (minimum 2)"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
