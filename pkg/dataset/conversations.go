package dataset

import (
	"bytes"
	"os"
)

// LoadConversations reads the LoCoMo or LongMemEval file at path, told apart
// by LongMemEval's "question_id" key in the first 4 KiB. It reads the whole
// file into memory once: O(size of the file).
func LoadConversations(path string) ([]Conversation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	head := b[:min(len(b), 4096)]
	if bytes.Contains(head, []byte(`"question_id"`)) {
		return ReadLongMemEval(bytes.NewReader(b))
	}
	return ReadLoCoMo(bytes.NewReader(b))
}
