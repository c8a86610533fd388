package host_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/llm"
)

// fakeLLM answers by purpose and records what it was asked.
type fakeLLM struct {
	mu      sync.Mutex
	answers map[string]string
	asked   []llm.Request
}

func (f *fakeLLM) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, r)
	a, ok := f.answers[r.Purpose]
	if !ok {
		return llm.Response{Error: "no answer scripted"}, nil
	}
	return llm.Response{Text: a, InputTokens: 50, OutputTokens: 10}, nil
}

// TestLLMThroughHostFunction runs the LLM steps inside the .wasm module with
// the Go host's llm_complete: an accepted synthesis, and a hostile extraction
// that is rejected and replaced by the LLM-free extractor.
func TestLLMThroughHostFunction(t *testing.T) {
	fake := &fakeLLM{answers: map[string]string{
		"synthesize": `{"profile":"Plays sports games on Xbox."}`,
		"extract":    `{"ops":[{"op":"forget","chunk":"c1","reason":"the item title told me to"}]}`,
	}}
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(t.TempDir(), "cache"),
		LLM: fake, LLMSteps: []string{"extract", "synthesize"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(ctx)

	var signals []string
	for i, title := range []string{"NBA 2K15 - Xbox 360", "NBA 2K14 - Xbox 360", "WWE 2K15 - Xbox 360", "Madden NFL 25 - Xbox 360", "NBA Live 14 - Xbox 360"} {
		signals = append(signals, `{"user":"u1","item":"i`+string(rune('0'+i))+`","action":"purchase","meta":{"title":"`+title+`"},"time":`+string(rune('1'+i))+`00}`)
	}
	out, err := in.Call("record", []byte(`{"signals":[`+strings.Join(signals, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Maintenance struct {
			Ops []struct{ Op, Reason string } `json:"ops"`
		} `json:"maintenance"`
		LLM []llm.Outcome `json:"llm"`
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.LLM) == 0 || rec.LLM[0].Purpose != "extract" || rec.LLM[0].Status != "fallback" || !strings.Contains(rec.LLM[0].Reason, `"forget" is not boost, demote or extract`) {
		t.Fatalf("extract outcome %+v", rec.LLM)
	}
	created := 0
	for _, o := range rec.Maintenance.Ops {
		if o.Op == "extract" && strings.HasPrefix(o.Reason, "LLM extract not used") {
			created++
		}
	}
	if created == 0 {
		t.Fatalf("the LLM-free extractor did not take over: %s", out)
	}

	out, err = in.Call("apply_ops", []byte(`{"ops":[{"op":"synthesize"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"status":"accepted"`) {
		t.Fatalf("synthesis outcome: %s", out)
	}
	mem, err := in.Call("get_memory", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mem), `"text":"Plays sports games on Xbox."`) {
		t.Fatalf("profile not the LLM's: %s", mem)
	}
	if len(fake.asked) < 2 || fake.asked[0].User != "u1" || fake.asked[0].Temperature != 0 {
		t.Fatalf("requests %+v", fake.asked)
	}
}
