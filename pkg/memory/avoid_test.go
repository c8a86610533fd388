package memory

import (
	"reflect"
	"strings"
	"testing"
)

func TestAvoid(t *testing.T) {
	half := 0.5
	tests := []struct {
		name     string
		before   []Op // applied first, by the user
		op       Op
		trigger  string
		wantErr  string
		polarity string
		strength float64
		text     string
		chunks   int
	}{
		{name: "new chunk at strength 1", op: Op{Op: "avoid", Category: "series", Key: "Halo"}, trigger: "user",
			polarity: "avoids", strength: 1, text: "Avoids the Halo series", chunks: 1},
		{name: "given text and strength", op: Op{Op: "avoid", Category: "platform", Key: "Xbox 360", Text: "Never show me Xbox 360", Strength: &half},
			trigger: "user", polarity: "avoids", strength: 0.5, text: "Never show me Xbox 360", chunks: 1},
		{name: "a liked chunk is turned", before: []Op{{Op: "extract", Category: "series", Key: "halo", Text: "Enjoys the Halo series"}},
			op: Op{Op: "avoid", Category: "series", Key: "Halo"}, trigger: "user", polarity: "avoids", strength: 1, text: "Avoids the Halo series", chunks: 1},
		{name: "only the user", op: Op{Op: "avoid", Category: "series", Key: "Halo"}, trigger: "planner", wantErr: "ops[0].op: avoid is a user's wish"},
		{name: "key required", op: Op{Op: "avoid", Category: "series"}, trigger: "user", wantErr: "ops[0].key: required"},
		{name: "no chunk field", op: Op{Op: "avoid", Chunk: "c1", Category: "series", Key: "x"}, trigger: "user", wantErr: "ops[0].chunk: not used by avoid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Config{})
			if len(tt.before) > 0 {
				if _, err := s.Apply(1000, "user", tt.before, Policy{}); err != nil {
					t.Fatal(err)
				}
			}
			was := s.Clone()
			out, err := s.Apply(2000, tt.trigger, []Op{tt.op}, Policy{})
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if !reflect.DeepEqual(s, was) {
					t.Fatal("a refused op changed the memory")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Chunks) != tt.chunks {
				t.Fatalf("%d chunks, want %d", len(s.Chunks), tt.chunks)
			}
			c := s.Chunks[0]
			if c.Polarity != tt.polarity || c.Strength != tt.strength || c.Text != tt.text {
				t.Fatalf("chunk %+v", c)
			}
			if out[0].Op != "avoid" || out[0].Trigger != "user" || !strings.Contains(out[0].Reason, "never to be shown") {
				t.Fatalf("journal %+v", out[0])
			}
		})
	}
}
