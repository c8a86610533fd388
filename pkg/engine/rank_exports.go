package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/ident"
	"github.com/recmem/recmem/pkg/intent"
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
	maxItemIDLen      = 256 // as for the items of signals (pkg/memory)
)

// RankInput is the input of rank: candidate items (ids, or {id, meta} for
// items the catalog does not know), an instruction, and how many to keep
// (0: all).
type RankInput struct {
	Candidates []RankCandidate `json:"candidates"`
	// Instruction is nil when the input has none: the output then has no
	// "understood", "kept" or "relaxed" keys.
	Instruction *string `json:"instruction,omitempty"`
	K           int     `json:"k,omitempty"`
}

// RankCandidate is an item id, or {id, meta} where meta maps a field to a
// string or a list of strings (used when the catalog does not know the item).
type RankCandidate struct {
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

// MarshalJSON writes the id alone when there is no metadata, else {id, meta}.
func (c RankCandidate) MarshalJSON() ([]byte, error) {
	if c.Meta == nil {
		return json.Marshal(c.ID)
	}
	return json.Marshal(struct {
		ID   string              `json:"id"`
		Meta map[string][]string `json:"meta"`
	}{c.ID, c.Meta})
}

func (c *RankCandidate) UnmarshalJSON(b []byte) error {
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

// LoadCatalogOutput describes the catalog load_catalog loaded.
type LoadCatalogOutput struct {
	Dataset string `json:"dataset"`
	Dim     int    `json:"dim"`
	// Facets types each metadata column: what an instruction can ask of
	// it (a list's values one by one, a number's range).
	Facets        []CatalogFacet `json:"facets"`
	FormatVersion int            `json:"format_version"`
	Items         int            `json:"items"`
	Meta          []string       `json:"meta"`
	OK            bool           `json:"ok"`
}

// CatalogFacet is one metadata column of the loaded catalog: its name, its
// type (text, list or number), a number's unit and range, and whether its
// values are inferred from the data rather than given.
type CatalogFacet struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Unit     string   `json:"unit,omitempty"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Inferred bool     `json:"inferred,omitempty"`
}

func loadCatalogExport(e *Engine, input []byte) (LoadCatalogOutput, error) {
	cat, err := catalog.Parse(input)
	if err != nil {
		return LoadCatalogOutput{}, fmt.Errorf("input: %w", err)
	}
	e.rec = &recAsset{cat: cat, ranker: rank.New(cat)}
	facets := make([]CatalogFacet, len(cat.Facets))
	for k, f := range cat.Facets {
		facets[k] = CatalogFacet{Name: f.Name, Type: f.Type, Unit: f.Unit, Inferred: f.Inferred}
		if f.Type == catalog.TypeNumber {
			lo, hi := f.Min, f.Max
			facets[k].Min, facets[k].Max = &lo, &hi
		}
	}
	return LoadCatalogOutput{Dataset: cat.Dataset, Dim: cat.Dim, Facets: facets, FormatVersion: catalog.Version, Items: cat.Len(),
		Meta: cat.MetaNames, OK: true}, nil
}

// RankOutput is rank's output: the ranking, best first, each item with its
// score and explanation; the ranker and its effective weights; how much of
// the memory the ranking read (context); and the LLM's outcomes when π_rank
// was asked.
//
// With an instruction it also has kept (the candidates that met its hard
// constraints), relaxed (the constraints dropped because none did; empty
// when none was), understood (the parsed intent) and each item's meets.
type RankOutput struct {
	Context    RankContext        `json:"context"`
	Kept       *int               `json:"kept,omitempty"`
	LLM        []llm.Outcome      `json:"llm,omitempty"`
	LLMCalls   int                `json:"llm_calls"`
	Ranker     string             `json:"ranker"`
	Ranking    []rank.Ranked      `json:"ranking"`
	Relaxed    *[]intent.Relaxed  `json:"relaxed,omitempty"`
	Understood *intent.Intent     `json:"understood,omitempty"`
	Weights    map[string]float64 `json:"weights"`
}

// RankContext is how much of the user's memory a ranking read.
type RankContext struct {
	Chunks  int  `json:"chunks"`
	Events  int  `json:"events"`
	Profile bool `json:"profile"`
}

func rankExport(e *Engine, input []byte) (RankOutput, error) {
	in, fast := decodeRankFast(input)
	if !fast {
		if err := decodeStrict(input, &in); err != nil {
			return RankOutput{}, err
		}
	}
	if e.rec == nil {
		return RankOutput{}, ErrNoCatalog
	}
	switch {
	case len(in.Candidates) == 0:
		return RankOutput{}, errors.New("input.candidates: at least one candidate is required")
	case len(in.Candidates) > maxCandidates:
		return RankOutput{}, fmt.Errorf("input.candidates: %d candidates, more than the limit of %d", len(in.Candidates), maxCandidates)
	case in.K < 0:
		return RankOutput{}, fmt.Errorf("input.k: must be at least 0, got %d", in.K)
	case in.Instruction != nil && len(*in.Instruction) > maxInstructionLen:
		return RankOutput{}, fmt.Errorf("input.instruction: %d bytes, more than the limit of %d", len(*in.Instruction), maxInstructionLen)
	}
	req := rank.Request{K: in.K}
	if in.Instruction != nil {
		req.Instruction = *in.Instruction
	}
	seen := map[string]bool{}
	for i, c := range in.Candidates {
		switch {
		case c.ID == "":
			return RankOutput{}, fmt.Errorf("input.candidates[%d]: empty item id", i)
		case seen[c.ID]:
			return RankOutput{}, fmt.Errorf("input.candidates[%d]: duplicate item %q", i, c.ID)
		}
		if err := ident.Check(c.ID, maxItemIDLen); err != nil {
			return RankOutput{}, fmt.Errorf("input.candidates[%d]: item id: %w", i, err)
		}
		seen[c.ID] = true
		req.Candidates = append(req.Candidates, rank.Candidate{ID: c.ID, Text: rank.MetaText(c.Meta), Meta: c.Meta})
	}
	// An instruction is understood (pkg/intent; the words it leaves unknown
	// read by the model when the parse step is on) and its hard parts
	// filter the candidates before any scorer sees them.
	e.timer.Mark("decode")
	out := RankOutput{}
	var log llm.Log
	if in.Instruction != nil {
		var refine func(*intent.Intent)
		if e.llmOn(llm.PurposeParse) {
			x := llm.Interpreter{C: e.llm, Linker: e.rec.ranker.Linker(), Log: &log, Prompts: e.llmSet.Prompts}
			refine = func(it *intent.Intent) { x.Refine(req.Instruction, it) }
		}
		und := e.rec.ranker.UnderstandWith(req, refine)
		e.timer.Mark("intent")
		req = und.Constrained(req)
		relaxed := und.Relaxed
		if relaxed == nil {
			relaxed = []intent.Relaxed{}
		}
		out.Kept, out.Relaxed, out.Understood = &und.Kept, &relaxed, &und.Intent
		e.timer.Mark("constrain")
	}
	u := rank.FromMemory(e.doc.Memory)
	e.timer.Mark("context")
	var scorer rank.Scorer = e.rec.ranker
	name := "linear"
	if e.llmOn(llm.PurposeRank) {
		texts := map[string]string{}
		for _, c := range req.Candidates {
			texts[c.ID] = c.Text
		}
		scorer = llm.Ranker{C: e.llm, Fallback: e.rec.ranker, User: userOf(e.doc.Memory), Log: &log, Weight: e.llmSet.RankWeight,
			Describe: func(id string) string { return e.rec.describe(id, texts[id]) }}
		name = "llm over linear"
	}
	ranked, err := scorer.Rank(u, req)
	if err != nil {
		return RankOutput{}, fmt.Errorf("input.%w", err)
	}
	e.timer.Mark("score")
	// Enforced again after the scorer: an LLM's permutation cannot bring
	// back an item the instruction excludes.
	ranked = e.rec.ranker.Enforce(ranked, req)
	e.timer.Mark("enforce")
	out.Context = RankContext{len(u.Chunks), len(u.Events), u.Profile != ""}
	out.LLM, out.LLMCalls, out.Ranker, out.Ranking, out.Weights = log.Outcomes, len(log.Outcomes), name, ranked, e.rec.ranker.Weights()
	return out, nil
}

// AppendJSON appends rank's output to b, byte for byte as json.Marshal
// encodes it, without reflection (which costs 10-20x more inside
// WebAssembly). O(size of the output).
func (o *RankOutput) AppendJSON(b []byte) ([]byte, error) {
	ranked, ranker, weights, outcomes := o.Ranking, o.Ranker, o.Weights, o.LLM
	b = slices.Grow(b, 512+256*len(ranked))
	b = append(b, `{"context":{"chunks":`...)
	b = jsonenc.AppendInt(b, o.Context.Chunks)
	b = append(b, `,"events":`...)
	b = jsonenc.AppendInt(b, o.Context.Events)
	b = append(b, `,"profile":`...)
	b = jsonenc.AppendBool(b, o.Context.Profile)
	b = append(b, '}')
	if o.Kept != nil {
		b = append(b, `,"kept":`...)
		b = jsonenc.AppendInt(b, *o.Kept)
	}
	if len(outcomes) > 0 {
		var err error
		if b, err = appendMarshal(b, `,"llm":`, outcomes); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"llm_calls":`...)
	b = jsonenc.AppendInt(b, o.LLMCalls)
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
		if len(r.Meets) > 0 { // omitempty, as rank.Ranked declares it
			b = append(b, `,"meets":[`...)
			for k, m := range r.Meets {
				if k > 0 {
					b = append(b, ',')
				}
				b = jsonenc.AppendString(b, m)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if o.Relaxed != nil {
		if b, err = appendMarshal(b, `,"relaxed":`, *o.Relaxed); err != nil {
			return nil, err
		}
	}
	if o.Understood != nil {
		if b, err = appendMarshal(b, `,"understood":`, o.Understood); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"weights":`...)
	if b, err = jsonenc.AppendFloatMap(b, weights); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendMarshal appends key and v as json.Marshal encodes it (for the rare,
// small parts of an output).
func appendMarshal(b []byte, key string, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(append(b, key...), enc...), nil
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
