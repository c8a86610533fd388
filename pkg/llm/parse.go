package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxAnswerBytes bounds an LLM answer the module will parse.
const maxAnswerBytes = 64 << 10

// decodeAnswer extracts the single JSON object of an answer into v, refusing
// unknown fields. It tolerates a Markdown code fence around the object, and
// nothing else: prose before or after the object is an error.
func decodeAnswer(text string, v any) error {
	if len(text) > maxAnswerBytes {
		return fmt.Errorf("answer is %d bytes, more than %d", len(text), maxAnswerBytes)
	}
	if !utf8.ValidString(text) {
		return errors.New("answer is not valid UTF-8")
	}
	t := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(t, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		end := strings.LastIndex(rest, "```")
		if end < 0 {
			return errors.New("answer opens a code fence and never closes it (truncated?)")
		}
		t = strings.TrimSpace(rest[:end])
	}
	if !strings.HasPrefix(t, "{") {
		return errors.New("answer is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(t)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("answer does not match the schema: %v", err)
	}
	if dec.More() {
		return errors.New("answer has data after its JSON object")
	}
	return nil
}

// cleanText trims s, removes control characters and collapses whitespace; it
// refuses empty text and text longer than max runes.
func cleanText(s string, max int) (string, error) {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r) || r == utf8.RuneError:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	switch n := utf8.RuneCountInString(out); {
	case n == 0:
		return "", errors.New("empty text")
	case n > max:
		return "", fmt.Errorf("text of %d characters, more than %d", n, max)
	}
	return out, nil
}

// clamp01 clamps x into [0, 1], rounded to 3 decimals like every strength.
func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0: // NaN or negative
		return 0
	case x > 1:
		return 1
	}
	return float64(int64(x*1000+0.5)) / 1000
}
