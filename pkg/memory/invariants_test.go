package memory

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestInvariantsUnderRandomSignals streams seeded random signals through both
// schedulers and checks after every call that the state validates and that it
// survives a JSON round trip unchanged.
func TestInvariantsUnderRandomSignals(t *testing.T) {
	titles := []string{"Super Mario Odyssey - Nintendo Switch", "Mario Kart 8 - Nintendo Switch", "Halo 3 - Xbox 360",
		"Halo: Reach - Xbox 360", "Resident Evil 4 - GameCube", "Silent Hill 2 - PlayStation 2", "Tetris", "Xbox One Wired Controller"}
	genres := []string{"Platformer", "Shooter", "Horror", "Puzzle", "Racing"}
	actions := []string{"purchase", "like", "rate", "click", "view", "dislike", "skip"}
	for _, p := range []Planner{Fixed{}, Heuristic{}} {
		r := rand.New(rand.NewPCG(1, 2))
		s := New(Config{KCat: 2, EventCap: 6, Batch: 3, JournalCap: 40})
		now := int64(0)
		for i := range 300 {
			now += int64(r.IntN(3 * day))
			g := Signal{User: "u", Item: "i", Action: actions[r.IntN(len(actions))], Time: now,
				Meta: map[string][]string{"title": {titles[r.IntN(len(titles))]}, "genre": {genres[r.IntN(len(genres))]}}}
			if g.Action == "rate" {
				g.Rating = 1 + r.IntN(5)
			}
			if _, err := s.Record([]Signal{g}, p, Policy{}); err != nil {
				t.Fatalf("%s step %d: %v", p.Name(), i, err)
			}
			if i%7 == 0 && len(s.Chunks) > 0 {
				c := s.Chunks[r.IntN(len(s.Chunks))]
				if _, err := s.Apply(now, "user", []Op{{Op: "demote", Chunk: c.ID}, {Op: "forget", Chunk: c.ID}}, Policy{}); err != nil {
					t.Fatalf("%s step %d: %v", p.Name(), i, err)
				}
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("%s step %d: %v", p.Name(), i, err)
			}
			b, _ := json.Marshal(s)
			var back State
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if b2, _ := json.Marshal(&back); string(b2) != string(b) {
				t.Fatalf("%s step %d: round trip differs", p.Name(), i)
			}
		}
		if s.Profile.Version == 0 || len(s.Journal) != 40 {
			t.Errorf("%s: profile version %d, journal %d: the stream exercised too little", p.Name(), s.Profile.Version, len(s.Journal))
		}
	}
}
