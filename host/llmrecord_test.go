package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recmem/recmem/host"
	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/llm"
)

var updateLLM = flag.Bool("update-llm", false, "rewrite testdata/llm/handwritten.jsonl with the scripted hand-written answers")

const handwrittenPath = "../testdata/llm/handwritten.jsonl"

// handLLM writes answers by rule, standing in for a model where none can be
// reached: the recording it produces is labelled "hand-written".
type handLLM struct{}

var (
	pendingRE  = regexp.MustCompile(`Pending signals: (\d+)`)
	eventRE    = regexp.MustCompile(`(?m)^(e\d+) purchase item "[^"]*" title="[^"]* - ([^"]+)"$`)
	chunkRE    = regexp.MustCompile(`(?m)^(c\d+) \[(\w+)\] likes "([^"]+)" ([\d.]+) (\d+)$`)
	synthRE    = regexp.MustCompile(`(?m)^\[(\w+)\] likes "([^"]+)" ([\d.]+)$`)
	platformOf = map[string]string{}
)

func (handLLM) Complete(_ context.Context, r llm.Request) (llm.Response, error) {
	user := r.Messages[len(r.Messages)-1].Content
	var ans string
	switch r.Purpose {
	case "plan":
		n := 0
		if m := pendingRE.FindStringSubmatch(user); m != nil {
			fmt.Sscan(m[1], &n)
		}
		// Wait only with nothing pending: a wait where the LLM-free planner
		// maintains is rejected (docs/llm.md), and with a signal pending it
		// may (a near-duplicate group to merge, no profile yet).
		if n >= 1 {
			ans = `{"decision":"maintain","reason":"new purchases","ops":[{"op":"extract"}]}`
		} else {
			ans = `{"decision":"wait","reason":"no new purchase"}`
		}
	case "extract":
		chunks := map[string]string{} // text -> id
		for _, m := range chunkRE.FindAllStringSubmatch(user, -1) {
			chunks[m[3]] = m[1]
		}
		byPlatform := map[string][]string{}
		var order []string
		for _, m := range eventRE.FindAllStringSubmatch(user, -1) {
			if _, ok := byPlatform[m[2]]; !ok {
				order = append(order, m[2])
			}
			byPlatform[m[2]] = append(byPlatform[m[2]], m[1])
		}
		var ops []string
		for _, p := range order {
			evs, _ := json.Marshal(byPlatform[p])
			text := "Plays games on " + p
			if id, ok := chunks[text]; ok {
				ops = append(ops, fmt.Sprintf(`{"op":"boost","chunk":%q,"events":%s,"reason":"more %s purchases"}`, id, evs, p))
			} else if len(byPlatform[p]) >= 2 {
				ops = append(ops, fmt.Sprintf(`{"op":"extract","category":"platform","text":%q,"polarity":"likes","strength":0.8,"events":%s,"reason":"repeated %s purchases"}`, text, evs, p))
			}
		}
		ans = `{"ops":[` + strings.Join(ops, ",") + `]}`
	case "synthesize":
		var parts []string
		for _, m := range synthRE.FindAllStringSubmatch(user, -1) {
			parts = append(parts, fmt.Sprintf("%s (%s)", strings.ToLower(m[2]), m[3]))
		}
		ans = fmt.Sprintf(`{"profile":"A console gamer whose memory says: %s."}`, strings.Join(parts, "; "))
	default:
		return llm.Response{Error: "no hand-written rule for " + r.Purpose}, nil
	}
	// Token counts as a tokenizer-free estimate: 4 characters a token.
	in := 0
	for _, m := range r.Messages {
		in += (len(m.Content) + 3) / 4
	}
	return llm.Response{Text: ans, InputTokens: in, OutputTokens: (len(ans) + 3) / 4}, nil
}

// llmScenario streams ten purchases through the planner with every memory
// step on the LLM, then asks for a synthesis, and returns the final memory.
func llmScenario(t *testing.T, c llm.Completer) (string, []llm.Outcome) {
	t.Helper()
	ctx := context.Background()
	rt, err := host.Open(ctx, host.Options{WasmPath: testWasm, CacheDir: filepath.Join(os.TempDir(), "recmem-test-cache"),
		LLM: c, LLMSteps: []string{"extract", "plan", "synthesize"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	in, err := rt.NewInstance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(ctx)
	titles := []string{"Halo 5: Guardians - Xbox One", "Forza Horizon 3 - Xbox One", "Gears of War 4 - Xbox One",
		"Mario Kart 8 Deluxe - Nintendo Switch", "Splatoon 2 - Nintendo Switch", "Super Mario Odyssey - Nintendo Switch",
		"Titanfall 2 - Xbox One", "ARMS - Nintendo Switch", "Sea of Thieves - Xbox One", "Celeste - Nintendo Switch"}
	var outcomes []llm.Outcome
	for i, title := range titles {
		out, err := in.Call("record", fmt.Appendf(nil, `{"signals":[{"user":"u7","item":"g%d","action":"purchase","meta":{"title":%q},"time":%d}],"maintain":"planner"}`, i, title, 1700000000+i*86400))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			LLM []llm.Outcome `json:"llm"`
		}
		json.Unmarshal(out, &r)
		outcomes = append(outcomes, r.LLM...)
	}
	out, err := in.Call("apply_ops", []byte(`{"ops":[{"op":"synthesize"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		LLM []llm.Outcome `json:"llm"`
	}
	json.Unmarshal(out, &r)
	outcomes = append(outcomes, r.LLM...)
	mem, err := in.Call("export_state", nil)
	if err != nil {
		t.Fatal(err)
	}
	return string(mem), outcomes
}

// TestRecordedLLMSet replays the recorded set, from the file and from an
// OpenAI-compatible server on 127.0.0.1 serving it, and demands that every
// LLM answer is accepted and both runs end in the same state.
func TestRecordedLLMSet(t *testing.T) {
	if *updateLLM {
		var buf bytes.Buffer
		llmScenario(t, hostllm.NewRecorder(handLLM{}, &buf, "hand-written (scripted rules in host/llmrecord_test.go, no model)"))
		if err := os.WriteFile(handwrittenPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rp, err := hostllm.LoadReplayer(handwrittenPath)
	if err != nil {
		t.Fatal(err)
	}
	meter := hostllm.NewMeter(rp)
	fromFile, outcomes := llmScenario(t, meter)
	if len(outcomes) == 0 {
		t.Fatal("no LLM step ran")
	}
	for _, o := range outcomes {
		if o.Status != "accepted" {
			t.Errorf("%s: %s (%s)", o.Purpose, o.Status, o.Reason)
		}
	}
	per, users := meter.Totals()
	if users != 1 || per["plan"].Calls == 0 || per["extract"].Calls == 0 || per["synthesize"].Calls == 0 {
		t.Fatalf("usage %v over %d users", per, users)
	}
	t.Logf("recorded set, per user: %+v", per)

	f, err := os.Open(handwrittenPath)
	if err != nil {
		t.Fatal(err)
	}
	exchanges, err := hostllm.ReadExchanges(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	srv := hostllm.NewReplayServer(exchanges)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client, err := hostllm.New(hostllm.Config{BaseURL: ts.URL + "/v1", Model: "replay"})
	if err != nil {
		t.Fatal(err)
	}
	overHTTP, _ := llmScenario(t, client)
	if overHTTP != fromFile {
		t.Fatalf("the run over HTTP differs from the replay:\nhttp: %s\nfile: %s", overHTTP, fromFile)
	}
	if srv.Hits != len(exchanges) {
		t.Fatalf("server answered %d of %d recorded exchanges", srv.Hits, len(exchanges))
	}
	if !strings.Contains(fromFile, "A console gamer whose memory says") {
		t.Fatal("final profile is not the recorded synthesis")
	}
}
