package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoadConversations(t *testing.T) {
	dir := t.TempDir()
	locomo := filepath.Join(dir, "locomo.json")
	if err := os.WriteFile(locomo, []byte(locomoTiny), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path      string
		convs     int
		firstID   string // the first conversation's ID
		turns     int    // in the first conversation
		questions int    // in the first conversation
	}{
		// LoCoMo: one conversation of 3 turns and 3 questions.
		{locomo, 1, "conv-x", 3, 3},
		// LongMemEval (has "question_id"): one conversation per question,
		// the first holding a haystack of 6 turns.
		{"../../testdata/longmemeval/small.json", 2, "hand_0001", 6, 1},
	}
	for _, tt := range tests {
		cs, err := LoadConversations(tt.path)
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		if len(cs) != tt.convs || cs[0].ID != tt.firstID || len(cs[0].Turns) != tt.turns || len(cs[0].Questions) != tt.questions {
			t.Errorf("%s: %d conversations, first %q with %d turns and %d questions; want %d, %q, %d, %d",
				tt.path, len(cs), cs[0].ID, len(cs[0].Turns), len(cs[0].Questions), tt.convs, tt.firstID, tt.turns, tt.questions)
		}
	}
	if _, err := LoadConversations(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file gave no error")
	}
}
