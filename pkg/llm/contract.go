// Package llm is the contract between recmem's module and a host's language
// model, and the LLM policies that use it. The module never touches the
// network: it sends a Request to the host function llm_complete and gets a
// Response back. Any Extism host can implement llm_complete (docs/llm.md); the
// Go host implements it against an OpenAI-compatible chat-completions
// endpoint, with record and replay.
//
// Every LLM step has an LLM-free policy. An LLM answer is parsed against a
// schema and validated against the state before it can change anything;
// whatever fails validation is rejected with a reason and the LLM-free policy
// runs instead.
package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Purposes name the four LLM steps of MARS, and the parse of an
// instruction's words the LLM-free interpreter left unknown.
const (
	PurposeExtract    = "extract"    // π_ext: pending signals → preference chunks
	PurposePlan       = "plan"       // π_plan: state and pending volume → operations
	PurposeSynthesize = "synthesize" // π_syn: chunks → profile
	PurposeRank       = "rank"       // π_rank: profile, events, instruction → ordering
	PurposeParse      = "parse"      // the instruction's unknown words → clauses of the catalog's values (intent.go)
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system" or "user"
	Content string `json:"content"`
}

// Request is what the module sends to llm_complete. Temperature is 0 by
// default, as in the MARS paper (greedy decoding).
type Request struct {
	Purpose     string    `json:"purpose"`
	User        string    `json:"user,omitempty"` // for the host's per-user budget
	Messages    []Message `json:"messages"`
	MaxTokens   int       `json:"max_tokens"`
	Temperature float64   `json:"temperature"`
	// ResponseFormat is a hint: "json" asks for a JSON object.
	ResponseFormat string `json:"response_format,omitempty"`
	// Schema, when set, is the JSON schema the answer must match (schema.go),
	// built from the same state as the prompt. A host may pass it to a model
	// that decodes under a grammar (OpenAI's response_format json_schema) or
	// ignore it: the module validates every answer either way.
	Schema json.RawMessage `json:"schema,omitempty"`
}

// Response is what llm_complete returns. A non-empty Error means no usable
// text: the step falls back to its LLM-free policy and says why.
type Response struct {
	Text         string `json:"text"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Error        string `json:"error,omitempty"`
}

// Hash identifies a request for record and replay: the SHA-256 of its JSON
// encoding, hex. Equal requests hash equally on every host.
func (r Request) Hash() string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Completer answers requests: the host function inside the plugin, the
// host's HTTP client, a recording or a script. It is the one form of the
// contract on both sides of the module boundary. ctx bounds one exchange:
// the host function passes the context of the export call it serves, and
// the module's own policies pass context.Background(), since an export runs
// to its end and the host bounds each exchange with its own timeout. An
// error means the exchange itself failed; a model's refusal or a malformed
// answer is a Response with Error set.
type Completer interface {
	Complete(ctx context.Context, req Request) (Response, error)
}
