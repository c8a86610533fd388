package host_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/host"
	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/llm"
)

// badEndpoint is an OpenAI-compatible endpoint that answers every request
// badly, in one of the ways a real endpoint or model does.
func badEndpoint(t *testing.T, kind string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		sys := ""
		if len(req.Messages) > 0 {
			sys = req.Messages[0].Content
		}
		var content string
		switch kind {
		case "html page":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
			return
		case "empty body":
			return
		case "hung connection":
			<-r.Context().Done() // never answers; the client's deadline ends it
			return
		case "html answer":
			content = "<html><body><p>Here are my recommendations</p></body></html>"
		case "1 MB answer":
			content = `{"profile":"` + strings.Repeat("Mario ", 1<<20/6) + `"}`
		case "refusal":
			content = "I'm sorry, but I can't help with that request."
		case "ids that are not candidates":
			switch {
			case strings.Contains(sys, "read a user's request"): // the parse step: a value the catalog lacks
				content = `{"only":[],"exclude":[{"word":"zany","facet":"category","value":"Atari Jaguar"}],"prefer":[],"avoid":[]}`
			case strings.Contains(sys, "rank candidate items"):
				content = `{"ranking":["zz1","zz2","zz3"]}`
			case strings.Contains(sys, "preference memory for a recommender"):
				content = `{"ops":[{"op":"boost","chunk":"c99","events":["e1"]}]}`
			default:
				content = `{"profile":"Plays Mario.","chunks":["c99"]}`
			}
		}
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": 100, "completion_tokens": 10},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// badInstruction has a word the LLM-free interpreter leaves unknown
// ("zany"), so that the parse step asks the model about it.
const badInstruction = "nothing zany, please"

// badInputRun records five purchases, forces a maintenance (extract), asks
// for a synthesis and ranks the tiny catalog with badInstruction, through
// the .wasm module with c behind llm_complete (nil: no LLM). It returns the
// memory's events, chunks and profile text, the ranking's ids and what was
// understood, the LLM outcomes and how long the three calls took.
func badInputRun(t *testing.T, c llm.Completer) (string, []string, []llm.Outcome, time.Duration) {
	t.Helper()
	ctx := context.Background()
	opts := host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache-badinput")}
	if c != nil {
		opts.LLM, opts.LLMSteps = c, []string{"extract", "synthesize", "rank", "parse"}
	}
	rt, err := host.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(ctx)
	cat, err := os.ReadFile("../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Call("load_catalog", cat); err != nil {
		t.Fatal(err)
	}
	var signals []string
	for i, title := range []string{"Super Mario Odyssey", "Mario Kart 8", "Super Mario Maker", "Mario Party 10", "Zelda: Breath of the Wild"} {
		signals = append(signals, `{"user":"u1","item":"m`+string(rune('0'+i))+`","action":"purchase","meta":{"title":"`+title+`"},"time":`+string(rune('1'+i))+`00}`)
	}
	if _, err := in.Call("record", []byte(`{"maintain":"none","signals":[`+strings.Join(signals, ",")+`]}`)); err != nil {
		t.Fatal(err)
	}
	var outcomes []llm.Outcome
	collect := func(out []byte) {
		var x struct {
			LLM []llm.Outcome `json:"llm"`
		}
		if err := json.Unmarshal(out, &x); err != nil {
			t.Fatal(err)
		}
		outcomes = append(outcomes, x.LLM...)
	}
	start := time.Now()
	for _, call := range []struct{ name, input string }{
		{"maintain", `{"force":true}`},
		{"apply_ops", `{"ops":[{"op":"synthesize"}]}`},
		{"rank", `{"candidates":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}],"instruction":"` + badInstruction + `"}`},
	} {
		out, err := in.Call(call.name, []byte(call.input))
		if err != nil {
			t.Fatalf("%s: %v", call.name, err)
		}
		collect(out)
		if call.name == "rank" {
			var r struct {
				Ranking    []struct{ ID string } `json:"ranking"`
				Understood json.RawMessage       `json:"understood"`
			}
			json.Unmarshal(out, &r)
			var ids []string
			for _, x := range r.Ranking {
				ids = append(ids, x.ID)
			}
			ids = append(ids, "understood "+string(r.Understood))
			elapsed := time.Since(start)
			mem, err := in.Call("get_memory", nil)
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Events json.RawMessage `json:"events"`
				Chunks []struct {
					ID, Category, Key, Text, Polarity string
					Strength                          float64
				} `json:"chunks"`
				Profile struct{ Text string } `json:"profile"`
			}
			if err := json.Unmarshal(mem, &m); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal([]any{m.Events, m.Chunks, m.Profile.Text})
			return string(b), ids, outcomes, elapsed
		}
	}
	panic("unreachable")
}

// TestBadModelAnswers: a model or endpoint that answers HTML, an empty body,
// a 1 MB answer, a refusal in prose, valid JSON naming ids that are not
// candidates (or, to the parse step, a value the catalog lacks), or never
// answers: each step falls back to its LLM-free policy with a named check,
// within the call's deadline, and the memory, the ranking and what was
// understood of the instruction are exactly what they are with no LLM at
// all.
func TestBadModelAnswers(t *testing.T) {
	wantMem, wantRank, none, _ := badInputRun(t, nil)
	if len(none) != 0 {
		t.Fatalf("LLM outcomes with no LLM: %+v", none)
	}
	if u := wantRank[len(wantRank)-1]; !strings.Contains(u, `"unknown":["zany"]`) {
		t.Fatalf("the LLM-free interpreter must leave zany unknown, for the parse step to be asked: %s", u)
	}
	const deadline = 400 * time.Millisecond // one attempt of one exchange
	tests := []struct {
		kind  string
		check map[string]string // purpose → check
	}{
		{"html page", map[string]string{"extract": llm.CheckExchange, "synthesize": llm.CheckExchange, "rank": llm.CheckExchange, "parse": llm.CheckExchange}},
		{"empty body", map[string]string{"extract": llm.CheckExchange, "synthesize": llm.CheckExchange, "rank": llm.CheckExchange, "parse": llm.CheckExchange}},
		{"hung connection", map[string]string{"extract": llm.CheckExchange, "synthesize": llm.CheckExchange, "rank": llm.CheckExchange, "parse": llm.CheckExchange}},
		{"html answer", map[string]string{"extract": llm.CheckFormat, "synthesize": llm.CheckFormat, "rank": llm.CheckFormat, "parse": llm.CheckFormat}},
		{"1 MB answer", map[string]string{"extract": llm.CheckFormat, "synthesize": llm.CheckFormat, "rank": llm.CheckFormat, "parse": llm.CheckFormat}},
		{"refusal", map[string]string{"extract": llm.CheckRefusal, "synthesize": llm.CheckRefusal, "rank": llm.CheckRefusal, "parse": llm.CheckRefusal}},
		{"ids that are not candidates", map[string]string{"extract": llm.CheckUnknownID, "synthesize": llm.CheckFormat, "rank": llm.CheckUnknownID, "parse": llm.CheckUnknownID}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			srv := badEndpoint(t, tt.kind)
			cl, err := hostllm.New(hostllm.Config{BaseURL: srv.URL + "/v1", Timeout: deadline, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			mem, ranking, outcomes, took := badInputRun(t, cl)
			if len(outcomes) != 4 {
				t.Fatalf("outcomes %+v, want one per step", outcomes)
			}
			for _, o := range outcomes {
				if o.Status != "fallback" || o.Check != tt.check[o.Purpose] || o.Reason == "" {
					t.Errorf("%s: %+v, want a fallback named %q", o.Purpose, o, tt.check[o.Purpose])
				}
			}
			if mem != wantMem {
				t.Errorf("memory changed:\n got %s\nwant %s", mem, wantMem)
			}
			if strings.Join(ranking, ",") != strings.Join(wantRank, ",") {
				t.Errorf("ranking and understood %v, want the LLM-free %v", ranking, wantRank)
			}
			// Four exchanges, each bounded by one attempt's deadline,
			// plus the module's own work.
			if limit := 4*deadline + 10*time.Second; took > limit {
				t.Errorf("the three calls took %v, more than %v", took, limit)
			}
		})
	}
}
