package llm

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Profile is how the prompts and schemas address one kind of model. Small
// models copy whatever a prompt shows them: a placeholder such as "<why>"
// comes back verbatim, and a field they cannot fill (a reason) is filled
// with a copy. The compact profile asks them for less: no reason fields, at
// most three extract ops, shorter texts. Both show filled-in examples from
// another catalog (books) instead of placeholders, so that a copied example
// is recognizable (CheckExampleCopy) and never looks like a preference of
// this catalog. The zero Profile is Full.
type Profile struct {
	// Name is "full" or "compact"; it appears in no prompt.
	Name string
	// Reasons asks for a reason field in every op; without it the schemas
	// leave reason out and the validators accept answers without one.
	Reasons bool
	// ExtractOps bounds the ops of an extract answer in its schema.
	ExtractOps int
	// Text bounds a chunk text in the extract schema, in characters.
	Text int
}

// The two prompt profiles.
var (
	Full    = Profile{Name: "full", Reasons: true, ExtractOps: schemaExtractOps, Text: schemaChunkText}
	Compact = Profile{Name: "compact", Reasons: false, ExtractOps: 3, Text: 60}
)

// resolved returns p with the zero value read as Full.
func (p Profile) resolved() Profile {
	if p.Name == "" {
		return Full
	}
	return p
}

// SmallModelParams is the size at or below which a model gets the compact
// profile: 2 billion parameters (the models of docs/llm.md are 135M and
// 270M; MARS's planner ablation used 8B and up).
const SmallModelParams = 2e9

var sizeRE = regexp.MustCompile(`(?i)(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)\s*([mb])(?:$|[^a-z0-9])`)

// ModelParams reads a parameter count from a model's name ("SmolLM2-135M",
// "qwen2.5-0.5b-instruct", "llama3.1:8b"), or 0 when the name states none.
func ModelParams(name string) float64 {
	m := sizeRE.FindStringSubmatch(name)
	if m == nil {
		return 0
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0
	}
	if strings.EqualFold(m[2], "m") {
		return x * 1e6
	}
	return x * 1e9
}

// Settings are what recmem uses with one model: its prompt profile, the
// steps measured to help with it (the default of --llm-steps and of
// recmem.js's llmSteps), and the weight its ranking gets as evidence.
type Settings struct {
	// Model names the settings ("smollm2-135m-instruct"), or is empty for
	// a model nothing was measured with.
	Model   string
	Prompts Profile
	// Steps are the steps measured to help with this model, never one
	// measured harmful (docs/llm.md, "Which steps help"). For a model
	// nothing was measured with: none.
	Steps []string
	// RankWeight is how much the model's ordering counts against the
	// LLM-free ranker's scores (Ranker): fitted on a tuning split of
	// recorded answers, never negative; 0 leaves the LLM-free order.
	RankWeight float64
	// Measured says where the figures behind Steps and RankWeight are.
	Measured string
}

// measured lists the models recmem was measured with (docs/llm.md, "Which
// steps help"), each matched by a substring of its lowercased name. Neither
// small model helped in any step on the 20 held-out Games-6k users: every
// step left HR@1 where the LLM-free policies have it (0.75), π_rank with
// SmolLM2's fitted weight cost 0.003 of NDCG@10, and the memories were
// the LLM-free ones (their answers were rejected or added nothing), so no
// step is on by default. Nor did the parse step help either: no clause of
// their 30 answers each held (docs/instructions.md), p@10 as LLM-free.
// SmolLM2's rank weight is 0: recmem llm fit-rank chose 2 on 30 tuning users
// (HR@1 0.667 at every weight, NDCG@10 0.8496 against 0.8452 at 0, one user's
// difference), but that weight cost 0.0034 of NDCG@10 on the held-out users
// and, once issues 24 and 27 had changed the lists, 0.025 of p@10 on the
// held-out knowledge instruction cases (0.625 against 0.650): a model's
// ranking must never make the list worse, so it is not weighed. Gemma's is 0
// too (weights of 2 and more cost HR@1 there).
var measured = []struct {
	match    []string
	settings Settings
}{
	{[]string{"smollm2-135m", "smollm2_135m", "smollm2 135m", "smollm2"}, Settings{Model: "smollm2-135m-instruct", Prompts: Compact,
		Steps: []string{}, RankWeight: 0,
		Measured: "docs/llm.md, SmolLM2-135M-Instruct Q4_1: testdata/llm/smollm2-135m-instruct-q4_1"}},
	{[]string{"gemma-3-270m", "gemma3-270m", "gemma 3 270m"}, Settings{Model: "gemma-3-270m", Prompts: Compact,
		Steps: []string{}, RankWeight: 0,
		Measured: "docs/llm.md, Gemma 3 270M (pretrained) Q4_K_M: testdata/llm/gemma-3-270m-q4_k_m"}},
}

// ForModel returns the settings for a model by name (the endpoint's model
// id, a GGUF file name or a recording's source): the measured ones when the
// name matches a measured model, else the compact profile for a model the
// name says is small (at most SmallModelParams) and the full one otherwise,
// with no default steps and no rank weight.
func ForModel(name string) Settings {
	low := strings.ToLower(name)
	for _, m := range measured {
		for _, k := range m.match {
			if strings.Contains(low, k) {
				s := m.settings
				s.Steps = slices.Clone(s.Steps)
				return s
			}
		}
	}
	s := Settings{Prompts: Full, Steps: []string{}}
	if n := ModelParams(name); n > 0 && n <= SmallModelParams {
		s.Prompts = Compact
	}
	return s
}
