package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

var (
	eventRE = regexp.MustCompile(`(?m)^e\d+ `)
	chunkRE = regexp.MustCompile(`(?m)^c\d+ `)
)

// chatServer is an OpenAI-compatible endpoint on loopback that answers by
// rule, standing in for a model: the planner extracts when signals are
// pending, extraction proposes nothing, synthesis writes a fixed profile.
func chatServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet { // GET /v1/models: a recording's source
			http.NotFound(w, r)
			return
		}
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		n.Add(1)
		sys := req.Messages[0].Content
		var text string
		switch {
		case strings.Contains(sys, "schedule maintenance"):
			text = `{"decision":"wait","reason":"nothing pending"}`
			if !strings.Contains(req.Messages[1].Content, "Pending signals: 0") {
				text = `{"decision":"maintain","reason":"new signals","ops":[{"op":"extract"}]}`
			}
		case strings.Contains(sys, "preference memory for a recommender"):
			// Boost the first chunk with the first pending event, or
			// extract one from it.
			user := req.Messages[1].Content
			ev := eventRE.FindString(user)
			switch ch := chunkRE.FindString(user); {
			case ev == "":
				text = `{"ops":[]}`
			case ch != "":
				text = `{"ops":[{"op":"boost","chunk":"` + strings.TrimSpace(ch) + `","events":["` + strings.TrimSpace(ev) + `"]}]}`
			default:
				text = `{"ops":[{"op":"extract","category":"topic","text":"Likes the toy catalogue","events":["` + strings.TrimSpace(ev) + `"]}]}`
			}
		default:
			text = `{"profile":"A player of the toy catalogue."}`
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": len(req.Messages[1].Content) / 4, "completion_tokens": len(text) / 4},
		})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestEvalRecWithLLM runs eval rec through the .wasm against an endpoint on
// loopback while recording the exchanges, then replays the recording: the
// replayed run reproduces the metrics, the ops and the LLM costs exactly.
func TestEvalRecWithLLM(t *testing.T) {
	wasm := testModule(t)
	cat := filepath.Join(t.TempDir(), "toy.cat")
	var out, errb bytes.Buffer
	if code := doMain([]string{"train", "catalog", "--data", toyDir, "--dataset", "Toy", "--out", cat, "--epochs", "5", "--seq-epochs", "3"}, &out, &errb); code != 0 {
		t.Fatalf("train catalog: %s", errb.String())
	}
	srv, calls := chatServer(t)
	rec := filepath.Join(t.TempDir(), "toy.jsonl")
	eval := func(llm string, extra ...string) map[string]any {
		out.Reset()
		errb.Reset()
		if len(extra) == 0 || extra[0] != "--no-steps" {
			extra = append([]string{"--llm-steps", "extract,plan,synthesize,rank"}, extra...)
		} else {
			extra = extra[1:]
		}
		args := append([]string{"eval", "rec", "--data", toyDir, "--dataset", "Toy", "--catalog", cat, "--wasm", wasm, "--json",
			"--users", "6", "--mode", "evolving", "--scheduler", "planner", "--llm", llm}, extra...)
		if code := doMain(args, &out, &errb); code != 0 {
			t.Fatalf("eval rec --llm %s: exit %d: %s", llm, code, errb.String())
		}
		var rep map[string]any
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		delete(rep, "seconds")
		delete(rep, "llm_endpoint")
		return rep
	}
	live := eval(srv.URL+"/v1", "--llm-record", rec)
	if calls.Load() == 0 || live["llm_calls_per_user"].(float64) <= 0 {
		t.Fatalf("no LLM call reached the endpoint: %v", live["llm"])
	}
	steps := live["llm"].(map[string]any)
	for _, s := range []string{"plan", "extract", "synthesize"} {
		if _, ok := steps[s]; !ok {
			t.Errorf("no %s calls in %v", s, steps)
		}
	}
	before := calls.Load()
	replayed := eval("replay:" + rec)
	if calls.Load() != before {
		t.Fatal("the replay reached the endpoint")
	}
	a, _ := json.Marshal(live)
	b, _ := json.Marshal(replayed)
	if !bytes.Equal(a, b) {
		t.Fatalf("replay differs from the recorded run:\nlive:   %s\nreplay: %s", a, b)
	}
	// Without --llm-steps, the steps measured to help with the model: none
	// for this endpoint's, which names no measured model.
	before = calls.Load()
	none := eval(srv.URL+"/v1", "--no-steps")
	if calls.Load() != before || none["llm_calls_per_user"].(float64) != 0 {
		t.Fatalf("a model nothing was measured with was asked %d times by default", calls.Load()-before)
	}
}
