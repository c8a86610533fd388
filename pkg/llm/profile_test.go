package llm

import (
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rank"
)

func TestModelParams(t *testing.T) {
	tests := []struct {
		name string
		want float64
	}{
		{"SmolLM2-135M-Instruct.Q4_1.gguf", 135e6},
		{"qwen2.5-0.5b-instruct", 0.5e9},
		{"llama3.1:8b", 8e9},
		{"gemma-3-270m-q4_k_m.gguf", 270e6},
		{"gpt-4o-mini", 0},
		{"Q4_K_M", 0},
	}
	for _, tt := range tests {
		if got := ModelParams(tt.name); got != tt.want {
			t.Errorf("ModelParams(%q) = %g, want %g", tt.name, got, tt.want)
		}
	}
}

func TestForModel(t *testing.T) {
	tests := []struct {
		name, model, prompts string
	}{
		{"the local server's description of SmolLM2", "SmolLM2-135M-Instruct (HuggingFaceTB, Apache-2.0), SmolLM2-135M-Instruct.Q4_1.gguf, Q4_1", "compact"},
		{"the Gemma file", "gemma-3-270m-q4_k_m.gguf", "compact"},
		{"a small model never measured", "qwen2.5-1.5b-instruct", "compact"},
		{"a large one", "llama3.1:70b", "full"},
		{"no size in the name", "gpt-4o-mini", "full"},
		{"nothing", "", "full"},
	}
	for _, tt := range tests {
		s := ForModel(tt.model)
		if s.Prompts.Name != tt.prompts {
			t.Errorf("%s: prompts %q, want %q", tt.name, s.Prompts.Name, tt.prompts)
		}
		if s.RankWeight < 0 {
			t.Errorf("%s: negative rank weight %v", tt.name, s.RankWeight)
		}
		for _, st := range s.Steps {
			if st != PurposeExtract && st != PurposePlan && st != PurposeSynthesize && st != PurposeRank {
				t.Errorf("%s: unknown step %q", tt.name, st)
			}
		}
		if s.Model == "" && len(s.Steps) > 0 {
			t.Errorf("%s: an unmeasured model gets default steps %v", tt.name, s.Steps)
		}
	}
}

// TestPromptsShowNoPlaceholder: no prompt, in either profile, shows an
// angle-bracket placeholder; the full profile's show a filled-in example,
// the compact one's none but the ranking's (whose ids a grammar forbids
// copying); and only the full profile asks for reasons.
func TestPromptsShowNoPlaceholder(t *testing.T) {
	s := fixture(t)
	base, _ := memory.TemplateSynthesizer{}.Synthesize(s)
	for _, p := range []Profile{Full, Compact} {
		reqs := []Request{
			ExtractRequestFor(p, s, "u1", []string{"e1", "e2"}),
			PlanRequestFor(p, s, "u1", 300),
			SynthesizeRequestFor(p, s, "u1", base),
			RankRequest(rank.User{}, "u1", "", []string{"i1", "i2"}, strings.ToUpper),
		}
		for _, r := range reqs {
			sys := r.Messages[0].Content
			if m := placeholderRE.FindString(sys); m != "" {
				t.Errorf("%s %s: the prompt shows the placeholder %q", p.Name, r.Purpose, m)
			}
			if want := p.Reasons || r.Purpose == PurposeRank; strings.Contains(sys, "Example") != want {
				t.Errorf("%s %s: shows an example: %v, want %v", p.Name, r.Purpose, !want, want)
			}
			asks := strings.Contains(sys, `"reason"`) || strings.Contains(string(r.Schema), `"reason"`)
			if r.Purpose != PurposeRank && r.Purpose != PurposeSynthesize && asks != p.Reasons {
				t.Errorf("%s %s: asks for reasons %v", p.Name, r.Purpose, asks)
			}
		}
	}
}
