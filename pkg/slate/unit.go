// Package slate stores an agent's long-term memory as units (dialogue turns
// and write-time records carrying their session, date and speaker) and selects,
// for each request, the slate of units that enters a context of at most B
// tokens, with no LLM call (AgentMemRec: memory selection as budgeted slate
// recommendation).
//
// Selection is a recommender cascade: a candidate pool fusing BM25 and dense
// retrieval by reciprocal rank fusion, cheap features for every candidate, a
// learned ranker (a JSON model embedded in the package), and a greedy fill of
// the ranked units under the budget, output in chronological order. Every
// chosen unit carries its features and score.
package slate

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/ident"
)

// Unit is one stored memory unit.
type Unit struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Date    string `json:"date,omitempty"` // shown to the reader as written, e.g. "1:56 pm on 8 May, 2023"
	Time    string `json:"time,omitempty"` // the same date as RFC 3339 or YYYY-MM-DD, for ordering and temporal cues
	Speaker string `json:"speaker,omitempty"`
	Text    string `json:"text"`
	User    string `json:"user,omitempty"` // owner, for purging a user
	Kind    string `json:"kind,omitempty"` // "" or "turn" for a dialogue turn, "record" for a write-time record
}

// MaxTextBytes bounds one unit's text (64 KiB).
const MaxTextBytes = 64 << 10

// MaxIDBytes bounds a unit's id, session and user.
const MaxIDBytes = 256

// Validate checks one unit, naming the field at fault. Its id, session and
// user must be ids in the sense of pkg/ident: no invalid UTF-8, U+FFFD or
// control characters.
func (u Unit) Validate() error {
	switch {
	case u.ID == "":
		return errors.New("id: missing")
	case u.Session == "":
		return errors.New("session: missing")
	}
	for _, f := range [...]struct{ name, v string }{{"id", u.ID}, {"session", u.Session}, {"user", u.User}} {
		if f.v == "" {
			continue
		}
		if err := ident.Check(f.v, MaxIDBytes); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	switch {
	case strings.TrimSpace(u.Text) == "":
		return errors.New("text: missing")
	case len(u.Text) > MaxTextBytes:
		return fmt.Errorf("text: %d bytes, more than %d", len(u.Text), MaxTextBytes)
	case u.Kind != "" && u.Kind != "turn" && u.Kind != "record":
		return fmt.Errorf("kind: want \"turn\" or \"record\", got %q", u.Kind)
	}
	if u.Time != "" {
		if _, err := ParseTime(u.Time); err != nil {
			return fmt.Errorf("time: %w", err)
		}
	}
	return nil
}

// Render is the unit as it enters the context: "[date] speaker: text", with
// the bracket omitted when the unit has no date and "speaker: " when it has no
// speaker.
func (u Unit) Render() string {
	var b strings.Builder
	if u.Date != "" {
		b.WriteString("[" + u.Date + "] ")
	} else if u.Time != "" {
		b.WriteString("[" + u.Time + "] ")
	}
	if u.Speaker != "" {
		b.WriteString(u.Speaker + ": ")
	}
	b.WriteString(u.Text)
	return b.String()
}

// Tokens estimates the tokens of the rendered unit as ceil(characters / 4),
// characters being Unicode code points: the usual rule of thumb for English
// with GPT-style tokenizers, applied identically to every ranker.
func (u Unit) Tokens() int { return (utf8.RuneCountInString(u.Render()) + 3) / 4 }

// ParseTime reads an RFC 3339 time or a YYYY-MM-DD date as seconds since the
// Unix epoch.
func ParseTime(s string) (int64, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.Unix(), nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return 0, fmt.Errorf("want RFC 3339 or YYYY-MM-DD, got %q", s)
	}
	return t.Unix(), nil
}
