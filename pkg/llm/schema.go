package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
)

// A request's Schema is the JSON schema its answer must match, built from the
// same state as its prompt: the ids it may name are enumerated (the existing
// chunks, the pending events in scope, the candidates), so a host that decodes
// under a grammar (llama.cpp's json_schema, OpenAI's structured outputs)
// cannot produce an unknown id, a prose preamble or a truncated object. The
// schema is a hint: the validators in this package still check every answer,
// and a host may ignore it.
//
// The schemas are stricter than the validators where that keeps an answer
// short enough to finish within the step's max_tokens on a small model: fewer
// ops, shorter texts and reasons, strengths from a short list. Object keys are
// written in the order the model should produce them (op first), so the
// schemas are built as text, not from maps.

// Bounds of the answers the schemas allow, below the validators' limits.
const (
	schemaExtractOps = 6   // validator: 8
	schemaPlanOps    = 6   // validator: 12
	schemaReason     = 80  // validator: 200
	schemaChunkText  = 80  // validator: 300
	schemaProfile    = 600 // validator: 1,500
	schemaMergeIDs   = 4
)

// schemaStrengths are the strengths an extract op may propose: the MARS case
// study's initial strengths 0.7 to 0.9, and two weaker ones.
var schemaStrengths = []float64{0.5, 0.6, 0.7, 0.8, 0.9}

// freeCategories are offered when the state configures none: the words the
// extract prompt suggests, plus the ones the LLM-free extractor reads from
// item metadata.
var freeCategories = []string{"topic", "genre", "platform", "series", "creator", "format", "era", "tone"}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func stringSchema(minLen, maxLen int) string {
	return fmt.Sprintf(`{"type":"string","minLength":%d,"maxLength":%d}`, minLen, maxLen)
}

// idList is an array of up to n of the ids, or an empty array when there are none.
func idList(ids []string, minItems, n int) string {
	if len(ids) == 0 {
		return `{"type":"array","maxItems":0}`
	}
	return fmt.Sprintf(`{"type":"array","minItems":%d,"maxItems":%d,"items":{"enum":%s}}`, minItems, n, jsonText(ids))
}

func object(fields ...string) string {
	return `{"type":"object","properties":{` + strings.Join(fields, ",") + `}}`
}

func field(name, schema string) string { return jsonText(name) + ":" + schema }

func chunkIDs(s *memory.State) []string {
	ids := make([]string, len(s.Chunks))
	for i, c := range s.Chunks {
		ids[i] = c.ID
	}
	return ids
}

// ExtractSchema is the schema of π_ext's answer for the pending events in
// scope: boosts and demotes of existing chunks, and new chunks in the
// configured categories.
func ExtractSchema(s *memory.State, scope []string) json.RawMessage {
	return ExtractSchemaFor(Profile{}, s, scope)
}

// ExtractSchemaFor is ExtractSchema in prompt profile p: every op cites at
// least one event (a preference no signal shows is rejected anyway), and a
// reason field only when p asks for reasons.
func ExtractSchemaFor(p Profile, s *memory.State, scope []string) json.RawMessage {
	p = p.resolved()
	events := idList(scope, min(1, len(scope)), len(scope))
	var reason []string
	if p.Reasons {
		reason = []string{field("reason", stringSchema(0, schemaReason))}
	}
	var variants []string
	if ids := chunkIDs(s); len(ids) > 0 {
		variants = append(variants, object(append([]string{field("op", `{"enum":["boost","demote"]}`), field("chunk", `{"enum":`+jsonText(ids)+`}`), field("events", events)}, reason...)...))
	}
	cats := s.Config.Categories
	if len(cats) == 0 {
		cats = freeCategories
	}
	variants = append(variants, object(append([]string{field("op", `{"const":"extract"}`), field("category", `{"enum":`+jsonText(cats)+`}`),
		field("text", stringSchema(1, p.Text)), field("polarity", `{"enum":["likes","avoids"]}`),
		field("strength", `{"enum":`+jsonText(schemaStrengths)+`}`), field("events", events)}, reason...)...))
	item := variants[0]
	if len(variants) > 1 {
		item = `{"oneOf":[` + strings.Join(variants, ",") + `]}`
	}
	return json.RawMessage(object(field("ops", fmt.Sprintf(`{"type":"array","maxItems":%d,"items":%s}`, p.ExtractOps, item))))
}

// PlanSchema is the schema of π_plan's answer: wait, or maintain with ops of
// the action space over the existing chunks.
func PlanSchema(s *memory.State) json.RawMessage {
	return PlanSchemaFor(Profile{}, s)
}

// PlanSchemaFor is PlanSchema in prompt profile p: reason fields only when p
// asks for reasons.
func PlanSchemaFor(p Profile, s *memory.State) json.RawMessage {
	p = p.resolved()
	with := func(fields ...string) string {
		if p.Reasons {
			fields = append(fields, field("reason", stringSchema(0, schemaReason)))
		}
		return object(fields...)
	}
	ops := []string{with(field("op", `{"enum":["extract","synthesize"]}`))}
	if ids := chunkIDs(s); len(ids) > 0 {
		ops = append(ops, with(field("op", `{"enum":["boost","demote","forget"]}`), field("chunk", `{"enum":`+jsonText(ids)+`}`)))
		if len(ids) > 1 {
			ops = append(ops, with(field("op", `{"const":"merge"}`), field("chunks", idList(ids, 2, min(schemaMergeIDs, len(ids))))))
		}
	}
	op := ops[0]
	if len(ops) > 1 {
		op = `{"oneOf":[` + strings.Join(ops, ",") + `]}`
	}
	wait := with(field("decision", `{"const":"wait"}`))
	opsField := field("ops", fmt.Sprintf(`{"type":"array","minItems":1,"maxItems":%d,"items":%s}`, schemaPlanOps, op))
	var maintain string
	if p.Reasons { // the decision's reason before its ops, as the prompt shows
		maintain = object(field("decision", `{"const":"maintain"}`), field("reason", stringSchema(0, schemaReason)), opsField)
	} else {
		maintain = object(field("decision", `{"const":"maintain"}`), opsField)
	}
	return json.RawMessage(`{"oneOf":[` + wait + "," + maintain + `]}`)
}

// SynthesizeSchema is the schema of π_syn's answer: one profile text.
func SynthesizeSchema() json.RawMessage {
	return json.RawMessage(object(field("profile", stringSchema(1, schemaProfile))))
}

// RankSchema is the schema of π_rank's answer: candidate ids, best first.
func RankSchema(ids []string) json.RawMessage {
	return json.RawMessage(object(field("ranking", idList(ids, 1, len(ids)))))
}
