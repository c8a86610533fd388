package llm

import (
	"encoding/json"
	"testing"
)

// TestSchemas pins the schemas built for the fixture (chunks c1..c3, pending
// e1 and e2, no configured categories): the ids are enumerated, keys come in
// generation order, and every schema is valid JSON.
func TestSchemas(t *testing.T) {
	s := fixture(t)
	reason := `"reason":{"type":"string","minLength":0,"maxLength":80}`
	events := `"events":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["e1","e2"]}}`
	tests := []struct {
		name string
		got  json.RawMessage
		want string
	}{
		{"extract", ExtractSchema(s, []string{"e1", "e2"}), `{"type":"object","properties":{"ops":{"type":"array","maxItems":6,"items":{"oneOf":[` +
			`{"type":"object","properties":{"op":{"enum":["boost","demote"]},"chunk":{"enum":["c1","c2","c3"]},` + events + `,` + reason + `}},` +
			`{"type":"object","properties":{"op":{"const":"extract"},"category":{"enum":["topic","genre","platform","series","creator","format","era","tone"]},` +
			`"text":{"type":"string","minLength":1,"maxLength":80},"polarity":{"enum":["likes","avoids"]},"strength":{"enum":[0.5,0.6,0.7,0.8,0.9]},` + events + `,` + reason + `}}]}}}}`},
		{"plan", PlanSchema(s), `{"oneOf":[{"type":"object","properties":{"decision":{"const":"wait"},` + reason + `}},` +
			`{"type":"object","properties":{"decision":{"const":"maintain"},` + reason + `,"ops":{"type":"array","minItems":1,"maxItems":6,"items":{"oneOf":[` +
			`{"type":"object","properties":{"op":{"enum":["extract","synthesize"]},` + reason + `}},` +
			`{"type":"object","properties":{"op":{"enum":["boost","demote","forget"]},"chunk":{"enum":["c1","c2","c3"]},` + reason + `}},` +
			`{"type":"object","properties":{"op":{"const":"merge"},"chunks":{"type":"array","minItems":2,"maxItems":3,"items":{"enum":["c1","c2","c3"]}},` + reason + `}}]}}}}]}`},
		{"extract, compact", ExtractSchemaFor(Compact, s, []string{"e1", "e2"}), `{"type":"object","properties":{"ops":{"type":"array","maxItems":3,"items":{"oneOf":[` +
			`{"type":"object","properties":{"op":{"enum":["boost","demote"]},"chunk":{"enum":["c1","c2","c3"]},` + events + `}},` +
			`{"type":"object","properties":{"op":{"const":"extract"},"category":{"enum":["topic","genre","platform","series","creator","format","era","tone"]},` +
			`"text":{"type":"string","minLength":1,"maxLength":60},"polarity":{"enum":["likes","avoids"]},"strength":{"enum":[0.5,0.6,0.7,0.8,0.9]},` + events + `}}]}}}}`},
		{"plan, compact", PlanSchemaFor(Compact, s), `{"oneOf":[{"type":"object","properties":{"decision":{"const":"wait"}}},` +
			`{"type":"object","properties":{"decision":{"const":"maintain"},"ops":{"type":"array","minItems":1,"maxItems":6,"items":{"oneOf":[` +
			`{"type":"object","properties":{"op":{"enum":["extract","synthesize"]}}},` +
			`{"type":"object","properties":{"op":{"enum":["boost","demote","forget"]},"chunk":{"enum":["c1","c2","c3"]}}},` +
			`{"type":"object","properties":{"op":{"const":"merge"},"chunks":{"type":"array","minItems":2,"maxItems":3,"items":{"enum":["c1","c2","c3"]}}}}]}}}}]}`},
		{"synthesize", SynthesizeSchema(), `{"type":"object","properties":{"profile":{"type":"string","minLength":1,"maxLength":600}}}`},
		{"rank", RankSchema([]string{"i2", "i1"}), `{"type":"object","properties":{"ranking":{"type":"array","minItems":1,"maxItems":2,"items":{"enum":["i2","i1"]}}}}`},
		{"rank of none", RankSchema(nil), `{"type":"object","properties":{"ranking":{"type":"array","maxItems":0}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !json.Valid(tt.got) {
				t.Fatalf("not JSON: %s", tt.got)
			}
			if string(tt.got) != tt.want {
				t.Fatalf("got  %s\nwant %s", tt.got, tt.want)
			}
		})
	}
	if r := ExtractRequest(s, "u1", []string{"e1"}); string(r.Schema) != string(ExtractSchema(s, []string{"e1"})) {
		t.Fatal("the extract request does not carry its schema")
	}
}
