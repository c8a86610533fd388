package engine

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/workload"
)

// TestRecordOutputMatchesMarshal holds RecordOutput.AppendJSON to
// json.Marshal on the outputs of a long stream of signals (extractions,
// boosts, a full event memory evicting and extracting on the way out,
// repeated client ids) and on hand-made outputs with every optional field.
func TestRecordOutputMatchesMarshal(t *testing.T) {
	check := func(name string, out RecordOutput) {
		t.Helper()
		want, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		got, err := out.AppendJSON(nil)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s:\n got %s\nwant %s (%v)", name, got, want, err)
		}
	}
	e := New()
	sent := map[int][]byte{} // a client id's signal: a retry sends it unchanged
	for i := 0; i < 400; i++ {
		in := workload.RecordSignal(i)
		if i%7 == 3 {
			id := i % 5
			if sent[id] == nil {
				sent[id] = fmt.Appendf(nil, `{"signals":[{"user":"u1","item":"i%d","action":"dislike","time":%d,"client_id":"c%d"}]}`, i%13, 1672531200+i*86400, id)
			}
			in = sent[id]
		}
		var out RecordOutput
		raw, err := e.Call("record", in)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("signal %d", i), out)
	}
	b, a := 0.5, 0.25
	check("every field", RecordOutput{
		RecordResult: memory.RecordResult{EventsAdded: 2, Repeated: []string{"c<1>"}, Evicted: []string{"e1"},
			Fifo:        []memory.Entry{{Seq: 1, Time: 2, Op: "extract", Trigger: "fifo", Chunks: []string{"c1"}, Events: []string{"e1", "e2"}, Reason: "why \"so\""}},
			Maintenance: memory.Maintenance{Scheduler: "fixed", Decision: "maintain", Reason: "r", Ops: []memory.Entry{{Seq: 2, Op: "boost", Before: &b, After: &a}}}},
		Summary: memory.Summary{Clock: 9, Categories: []memory.CategoryCount{{Category: "genre", Chunks: 2}}},
		LLM:     []llm.Outcome{{Purpose: "extract"}},
	})
	check("nil lists", RecordOutput{})
}
