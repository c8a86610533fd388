package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/jsonenc"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rank"
)

// recAsset is the catalog an instance ranks with and the ranker prepared over
// it. It is an asset, not user state: export_state does not return it, and
// import_state and reset keep it.
type recAsset struct {
	cat    *catalog.Catalog
	ranker *rank.Ranker
}

// Limits of one rank call.
const (
	maxCandidates     = 1000
	maxInstructionLen = 4000
)

// rankInput is the input of rank.
type rankInput struct {
	Candidates  []rankCandidate `json:"candidates"`
	Instruction string          `json:"instruction,omitempty"`
	K           int             `json:"k,omitempty"`
}

// rankCandidate is an item id, or {id, meta} where meta maps a field to a
// string or a list of strings (used when the catalog does not know the item).
type rankCandidate struct {
	ID   string
	Meta map[string][]string
}

// plainString decodes a JSON string literal that needs no unescaping: no
// backslash, no control character, valid UTF-8; ok is false for any other
// (json.Unmarshal then decodes it, or says what is wrong with it).
func plainString(t []byte) (string, bool) {
	if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
		return "", false
	}
	in := t[1 : len(t)-1]
	for _, c := range in {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

func (c *rankCandidate) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		if id, ok := plainString(t); ok {
			c.ID = id
			return nil
		}
		return json.Unmarshal(t, &c.ID)
	}
	var obj struct {
		ID   string                     `json:"id"`
		Meta map[string]json.RawMessage `json:"meta"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return fmt.Errorf("want an item id or {id, meta}: %w", err)
	}
	c.ID = obj.ID
	for k, raw := range obj.Meta {
		var one string
		var many []string
		switch {
		case json.Unmarshal(raw, &one) == nil:
			many = []string{one}
		case json.Unmarshal(raw, &many) == nil:
		default:
			return fmt.Errorf("meta.%s: want a string or a list of strings", k)
		}
		if c.Meta == nil {
			c.Meta = map[string][]string{}
		}
		c.Meta[k] = many
	}
	return nil
}

// describe renders an item for the LLM ranker's prompt: its catalog title,
// else the metadata the request gave.
func (a *recAsset) describe(id, text string) string {
	if i, ok := a.cat.Lookup(id); ok {
		if t := a.cat.Title(i); t != "" {
			return t
		}
	}
	if text != "" {
		return text
	}
	return id
}

// userOf names the memory's user (from its newest event) for the host's
// per-user LLM budget.
func userOf(m *memory.State) string {
	if n := len(m.Events); n > 0 {
		return m.Events[n-1].User
	}
	return ""
}

// ErrNoCatalog is returned by rank before load_catalog succeeded.
var ErrNoCatalog = errors.New("no catalog loaded (call load_catalog first)")

func init() {
	register("load_catalog", func(e *Engine, input []byte) (any, error) {
		cat, err := catalog.Parse(input)
		if err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		e.rec = &recAsset{cat: cat, ranker: rank.New(cat)}
		return map[string]any{"ok": true, "dataset": cat.Dataset, "items": cat.Len(), "dim": cat.Dim,
			"meta": cat.MetaNames, "format_version": catalog.Version}, nil
	})
	register("rank", func(e *Engine, input []byte) (any, error) {
		var in rankInput
		if err := decodeStrict(input, &in); err != nil {
			return nil, err
		}
		if e.rec == nil {
			return nil, ErrNoCatalog
		}
		switch {
		case len(in.Candidates) == 0:
			return nil, errors.New("input.candidates: at least one candidate is required")
		case len(in.Candidates) > maxCandidates:
			return nil, fmt.Errorf("input.candidates: %d candidates, more than the limit of %d", len(in.Candidates), maxCandidates)
		case in.K < 0:
			return nil, fmt.Errorf("input.k: must be at least 0, got %d", in.K)
		case len(in.Instruction) > maxInstructionLen:
			return nil, fmt.Errorf("input.instruction: %d bytes, more than the limit of %d", len(in.Instruction), maxInstructionLen)
		}
		req := rank.Request{Instruction: in.Instruction, K: in.K}
		seen := map[string]bool{}
		for i, c := range in.Candidates {
			switch {
			case c.ID == "":
				return nil, fmt.Errorf("input.candidates[%d]: empty item id", i)
			case seen[c.ID]:
				return nil, fmt.Errorf("input.candidates[%d]: duplicate item %q", i, c.ID)
			}
			seen[c.ID] = true
			req.Candidates = append(req.Candidates, rank.Candidate{ID: c.ID, Text: rank.MetaText(c.Meta), Meta: c.Meta})
		}
		u := rank.FromMemory(e.doc.Memory)
		var scorer rank.Scorer = e.rec.ranker
		name := "linear"
		var log llm.Log
		if e.llmOn(llm.PurposeRank) {
			texts := map[string]string{}
			for _, c := range req.Candidates {
				texts[c.ID] = c.Text
			}
			scorer = llm.Ranker{C: e.llm, Fallback: e.rec.ranker, User: userOf(e.doc.Memory), Log: &log,
				Describe: func(id string) string { return e.rec.describe(id, texts[id]) }}
			name = "llm over linear"
		}
		ranked, err := scorer.Rank(u, req)
		if err != nil {
			return nil, fmt.Errorf("input.%w", err)
		}
		return encodeRanking(ranked, name, e.rec.ranker.Weights(), u, log.Outcomes)
	})
}

// encodeRanking writes rank's output: the object
// {"context", "llm" (when the LLM was asked), "llm_calls", "ranker",
// "ranking", "weights"} with its keys in the order json.Marshal gives a map,
// each value as json.Marshal encodes it. O(size of the output).
func encodeRanking(ranked []rank.Ranked, ranker string, weights map[string]float64, u rank.User, outcomes []llm.Outcome) (rawJSON, error) {
	b := make([]byte, 0, 512+256*len(ranked))
	b = append(b, `{"context":{"chunks":`...)
	b = jsonenc.AppendInt(b, len(u.Chunks))
	b = append(b, `,"events":`...)
	b = jsonenc.AppendInt(b, len(u.Events))
	b = append(b, `,"profile":`...)
	b = jsonenc.AppendBool(b, u.Profile != "")
	b = append(b, '}')
	if len(outcomes) > 0 {
		o, err := json.Marshal(outcomes)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"llm":`...)
		b = append(b, o...)
	}
	b = append(b, `,"llm_calls":`...)
	b = jsonenc.AppendInt(b, len(outcomes))
	b = append(b, `,"ranker":`...)
	b = jsonenc.AppendString(b, ranker)
	b = append(b, `,"ranking":[`...)
	var err error
	for i, r := range ranked {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = jsonenc.AppendString(b, r.ID)
		b = append(b, `,"rank":`...)
		b = jsonenc.AppendInt(b, r.Rank)
		b = append(b, `,"score":`...)
		if b, err = jsonenc.AppendFloat(b, r.Score); err != nil {
			return nil, err
		}
		b = append(b, `,"explanation":`...)
		if b, err = appendExplanation(b, &r.Explanation); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	b = append(b, `],"weights":`...)
	if b, err = jsonenc.AppendFloatMap(b, weights); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendExplanation writes an explanation tree as json.Marshal does
// (children omitted when empty).
func appendExplanation(b []byte, x *rank.Explanation) ([]byte, error) {
	b = append(b, `{"value":`...)
	b, err := jsonenc.AppendFloat(b, x.Value)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"message":`...)
	b = jsonenc.AppendString(b, x.Message)
	if len(x.Children) > 0 {
		b = append(b, `,"children":[`...)
		for i := range x.Children {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendExplanation(b, &x.Children[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}
