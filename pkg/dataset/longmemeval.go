package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// longMemEvalDate is the layout of LongMemEval's dates, "2023/05/20 (Sat) 02:21".
const longMemEvalDate = "2006/01/02 (Mon) 15:04"

// ReadLongMemEval decodes a LongMemEval file (a JSON list of questions, each
// with its own haystack of sessions). Every question becomes one Conversation
// holding its haystack: turn IDs are "SESSION_ID:index" (index from 1), the
// speaker is the role, and the evidence is the turns marked has_answer. When no
// turn is marked, the evidence is every turn of the answer sessions whose role
// is "user" (LongMemEval's evidence sessions are usually about the user).
func ReadLongMemEval(r io.Reader) ([]Conversation, error) {
	var raw []struct {
		QuestionID   string          `json:"question_id"`
		QuestionType string          `json:"question_type"`
		Question     string          `json:"question"`
		Answer       json.RawMessage `json:"answer"`
		QuestionDate string          `json:"question_date"`
		SessionIDs   []string        `json:"haystack_session_ids"`
		Dates        []string        `json:"haystack_dates"`
		Sessions     [][]struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			HasAnswer bool   `json:"has_answer"`
		} `json:"haystack_sessions"`
		AnswerSessionIDs []string `json:"answer_session_ids"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("dataset: longmemeval: %w", err)
	}
	out := make([]Conversation, 0, len(raw))
	for qi, q := range raw {
		if len(q.SessionIDs) != len(q.Sessions) || len(q.Dates) != len(q.Sessions) {
			return nil, fmt.Errorf("dataset: longmemeval: question %d (%s): %d session ids, %d dates, %d sessions",
				qi, q.QuestionID, len(q.SessionIDs), len(q.Dates), len(q.Sessions))
		}
		c := Conversation{ID: q.QuestionID, Speakers: []string{"user", "assistant"}}
		answerSession := map[string]bool{}
		for _, s := range q.AnswerSessionIDs {
			answerSession[s] = true
		}
		var marked, fallback []string
		for si, sess := range q.Sessions {
			sid := q.SessionIDs[si]
			date := q.Dates[si]
			for ti, t := range sess {
				id := fmt.Sprintf("%s:%d", sid, ti+1)
				c.Turns = append(c.Turns, Turn{ID: id, Session: sid, Date: date, Time: longMemEvalTime(date), Speaker: t.Role, Text: t.Content})
				if t.HasAnswer {
					marked = append(marked, id)
				}
				if answerSession[sid] && t.Role == "user" {
					fallback = append(fallback, id)
				}
			}
		}
		ev := marked
		if len(ev) == 0 {
			ev = fallback
		}
		c.Questions = []Question{{Text: q.Question, Answer: rawText(q.Answer), Category: q.QuestionType,
			Date: longMemEvalTime(q.QuestionDate), Evidence: ev}}
		out = append(out, c)
	}
	return out, nil
}

func longMemEvalTime(s string) string {
	t, err := time.Parse(longMemEvalDate, strings.TrimSpace(s))
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
