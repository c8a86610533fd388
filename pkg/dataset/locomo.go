package dataset

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/slate"
)

// Turn is one dialogue turn of a long conversation, the unit that slate
// selection ranks.
type Turn struct {
	ID      string `json:"id"`      // unique in its conversation, e.g. "D1:3"
	Session string `json:"session"` // e.g. "S1"
	Date    string `json:"date"`    // the session date as the source prints it
	Time    string `json:"time"`    // the session date as RFC 3339 (UTC), "" if unparsable
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
}

// Question is one question about a conversation with its evidence turns.
type Question struct {
	Text     string   `json:"question"`
	Answer   string   `json:"answer"`
	Category string   `json:"category"` // LoCoMo's number as text, or LongMemEval's question_type
	Date     string   `json:"date"`     // the date the question is asked, RFC 3339, "" if unknown
	Evidence []string `json:"evidence"` // turn IDs that exist in the conversation, deduplicated, in turn order
}

// Conversation is one user's history of dated sessions and the questions asked
// about it.
type Conversation struct {
	ID        string     `json:"id"`
	Speakers  []string   `json:"speakers"`
	Turns     []Turn     `json:"turns"` // chronological: session by session, turn by turn
	Questions []Question `json:"questions"`
}

// Sessions returns the number of distinct sessions that hold q's evidence (κ).
func (c *Conversation) Sessions(q Question) int {
	byID := map[string]string{}
	for _, t := range c.Turns {
		byID[t.ID] = t.Session
	}
	seen := map[string]bool{}
	for _, e := range q.Evidence {
		seen[byID[e]] = true
	}
	return len(seen)
}

// locomoDate is the layout of LoCoMo's session_N_date_time, "1:56 pm on 8 May, 2023".
const locomoDate = "3:04 pm on 2 January, 2006"

var (
	locomoSessionKey = regexp.MustCompile(`^session_(\d+)$`)
	locomoEvidenceID = regexp.MustCompile(`D\d+:\d+`)
)

// ReadLoCoMo decodes a LoCoMo file (a JSON list of samples with conversation
// and qa). It handles the data set's quirks: evidence strings that hold several
// IDs ("D8:6; D9:17", "D9:1 D4:4") are split; IDs that match no turn ("D",
// "D:11:26", "D30:05") are dropped, so a question may end with no evidence;
// image turns get their caption appended to the text as "[image: caption]";
// numeric answers become text. Questions are dated at the last session.
func ReadLoCoMo(r io.Reader) ([]Conversation, error) {
	var raw []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
		QA           []struct {
			Question    string          `json:"question"`
			Answer      json.RawMessage `json:"answer"`
			Adversarial json.RawMessage `json:"adversarial_answer"`
			Evidence    []string        `json:"evidence"`
			Category    int             `json:"category"`
		} `json:"qa"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("dataset: locomo: %w", err)
	}
	out := make([]Conversation, 0, len(raw))
	for si, s := range raw {
		c := Conversation{ID: s.SampleID}
		if c.ID == "" {
			c.ID = fmt.Sprintf("sample-%d", si)
		}
		for _, k := range []string{"speaker_a", "speaker_b"} {
			var name string
			if b, ok := s.Conversation[k]; ok {
				if err := json.Unmarshal(b, &name); err != nil {
					return nil, fmt.Errorf("dataset: locomo: %s.%s: %w", c.ID, k, err)
				}
				c.Speakers = append(c.Speakers, name)
			}
		}
		var nums []int
		for k := range s.Conversation {
			if m := locomoSessionKey.FindStringSubmatch(k); m != nil {
				n, _ := strconv.Atoi(m[1])
				nums = append(nums, n)
			}
		}
		sort.Ints(nums)
		lastTime := ""
		for _, n := range nums {
			var turns []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
				Caption string `json:"blip_caption"`
			}
			key := fmt.Sprintf("session_%d", n)
			if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
				return nil, fmt.Errorf("dataset: locomo: %s.%s: %w", c.ID, key, err)
			}
			var date string
			if b, ok := s.Conversation[key+"_date_time"]; ok {
				_ = json.Unmarshal(b, &date)
			}
			iso := ""
			if t, err := time.Parse(locomoDate, strings.TrimSpace(date)); err == nil {
				iso = t.UTC().Format(time.RFC3339)
			}
			if iso != "" {
				lastTime = iso
			}
			for _, t := range turns {
				text := t.Text
				if t.Caption != "" {
					text += " [image: " + t.Caption + "]"
				}
				c.Turns = append(c.Turns, Turn{ID: t.DiaID, Session: fmt.Sprintf("S%d", n), Date: date, Time: iso, Speaker: t.Speaker, Text: text})
			}
		}
		order := map[string]int{}
		for i, t := range c.Turns {
			order[t.ID] = i
		}
		for _, q := range s.QA {
			ans := q.Answer
			if len(ans) == 0 {
				ans = q.Adversarial
			}
			var ev []string
			seen := map[string]bool{}
			for _, e := range q.Evidence {
				for _, id := range locomoEvidenceID.FindAllString(e, -1) {
					if _, ok := order[id]; ok && !seen[id] {
						seen[id] = true
						ev = append(ev, id)
					}
				}
			}
			sort.Slice(ev, func(i, j int) bool { return order[ev[i]] < order[ev[j]] })
			c.Questions = append(c.Questions, Question{
				Text: q.Question, Answer: rawText(ans), Category: strconv.Itoa(q.Category),
				Date: lastTime, Evidence: ev,
			})
		}
		out = append(out, c)
	}
	return out, nil
}

// rawText returns a JSON string's value, or any other JSON value as written.
func rawText(b json.RawMessage) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(b))
}

// Eligible reports whether a question counts in slate evaluation: it is not
// LoCoMo's adversarial category 5 and has at least one evidence unit.
func (q Question) Eligible() bool { return q.Category != "5" && len(q.Evidence) > 0 }

// Units converts the conversation's turns to the units slate selection
// stores, one per turn, in order.
func (c *Conversation) Units() []slate.Unit {
	us := make([]slate.Unit, len(c.Turns))
	for i, t := range c.Turns {
		us[i] = slate.Unit{ID: t.ID, Session: t.Session, Date: t.Date, Time: t.Time, Speaker: t.Speaker, Text: t.Text}
	}
	return us
}
