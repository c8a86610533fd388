package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAtomicityProperty runs random sequences of calls, a third of them with
// an injected failure (a bad field somewhere in an otherwise good input), and
// checks after every call: a call that fails leaves the exported state byte
// for byte as it was; a call that succeeds changes only chunks its journal
// entries name, changes the profile only with a synthesis entry, and a
// read-only export changes nothing.
func TestAtomicityProperty(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			e := New()
			clock := int64(1_700_000_000)
			failures, successes := 0, 0
			for step := range 250 {
				clock += int64(r.IntN(3)) * 3600
				name, input, injected := randomCall(r, e, clock, step)
				before := exportState(t, e)
				out, err := e.Call(name, input)
				after := exportState(t, e)
				if err != nil {
					failures++
					if !bytes.Equal(before, after) {
						t.Fatalf("step %d: %s failed (%v) and changed the state", step, name, err)
					}
					continue
				}
				successes++
				if injected {
					t.Fatalf("step %d: %s accepted an injected failure: %s", step, name, input)
				}
				checkJournalCovers(t, step, name, before, after, out)
			}
			if failures < 30 || successes < 100 {
				t.Fatalf("a weak run: %d failures, %d successes", failures, successes)
			}
		})
	}
}

func exportState(t *testing.T, e *Engine) []byte {
	t.Helper()
	b, err := e.Call("export_state", nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var titles = []string{"Halo 5: Guardians - Xbox One", "Forza Horizon 3 - Xbox One", "Mario Kart 8 - Nintendo Switch",
	"Super Mario Odyssey - Nintendo Switch", "The Last of Us - PlayStation 4", "Uncharted 4 - PlayStation 4"}
var actions = []string{"purchase", "like", "dislike", "skip", "click"}

// randomCall picks an export and an input; injected says whether a failure
// was put into it on purpose.
func randomCall(r *rand.Rand, e *Engine, clock int64, step int) (string, []byte, bool) {
	inject := r.IntN(3) == 0
	chunks := chunkIDs(e)
	pick := func() string {
		if len(chunks) == 0 || (inject && r.IntN(2) == 0) {
			return fmt.Sprintf("c%d", 900+r.IntN(50))
		}
		return chunks[r.IntN(len(chunks))]
	}
	switch k := r.IntN(10); {
	case k < 4:
		n := 1 + r.IntN(4)
		sigs := make([]map[string]any, n)
		for i := range sigs {
			sigs[i] = map[string]any{"user": "u1", "item": fmt.Sprint("i", r.IntN(30)), "action": actions[r.IntN(len(actions))],
				"meta": map[string]any{"title": titles[r.IntN(len(titles))]}, "time": clock}
		}
		if inject {
			sigs[r.IntN(n)]["action"] = "zap"
		}
		maint := []string{"fixed", "planner", "none"}[r.IntN(3)]
		b, _ := json.Marshal(map[string]any{"signals": sigs, "maintain": maint})
		return "record", b, inject
	case k < 7:
		var ops []map[string]any
		for range 1 + r.IntN(3) {
			switch r.IntN(5) {
			case 0:
				ops = append(ops, map[string]any{"op": "boost", "chunk": pick()})
			case 1:
				ops = append(ops, map[string]any{"op": "demote", "chunk": pick()})
			case 2:
				ops = append(ops, map[string]any{"op": "extract", "category": []string{"genre", "platform", "topic"}[r.IntN(3)], "text": fmt.Sprint("Likes thing ", r.IntN(20))})
			case 3:
				ops = append(ops, map[string]any{"op": "synthesize"})
			default:
				ops = append(ops, map[string]any{"op": "edit", "chunk": pick(), "strength": float64(r.IntN(11)) / 10})
			}
		}
		b, _ := json.Marshal(map[string]any{"ops": ops, "now": clock})
		return "apply_ops", b, false // an unknown pick may or may not be drawn: not a sure failure
	case k < 8:
		now := clock
		if inject {
			now = 1 // before the memory's clock
		}
		b, _ := json.Marshal(map[string]any{"now": now, "scheduler": []string{"fixed", "planner"}[r.IntN(2)], "force": r.IntN(2) == 0})
		return "maintain", b, inject && memClock(e) > 1
	case k < 9:
		id := fmt.Sprintf("t%d", step)
		units := []map[string]any{{"id": id, "session": fmt.Sprint("s", step/10), "time": "2024-05-01", "speaker": "Ana", "text": fmt.Sprint("turn ", step, " about pottery")}}
		if inject {
			units = append(units, map[string]any{"id": id, "session": "s", "text": "duplicate id"})
		}
		b, _ := json.Marshal(map[string]any{"units": units})
		return "add_units", b, inject
	default:
		if inject {
			return "import_state", []byte(`{"schema":"recmem.state","version":2,"checksum":"sha256:00","memory":{}}`), true
		}
		return []string{"get_memory", "plan", "select_slate"}[r.IntN(3)], []byte(`{"query":"pottery class"}`), false
	}
}

func chunkIDs(e *Engine) []string {
	var ids []string
	for _, c := range e.doc.Memory.Chunks {
		ids = append(ids, c.ID)
	}
	return ids
}

func memClock(e *Engine) int64 { return e.doc.Memory.Clock }

// checkJournalCovers compares two exported states around a successful call.
func checkJournalCovers(t *testing.T, step int, name string, before, after, out []byte) {
	t.Helper()
	var b, a struct {
		Memory struct {
			Chunks  []json.RawMessage `json:"chunks"`
			Profile json.RawMessage   `json:"profile"`
		} `json:"memory"`
	}
	json.Unmarshal(before, &b)
	json.Unmarshal(after, &a)
	switch name {
	case "get_memory", "plan", "select_slate", "export_state":
		if !bytes.Equal(before, after) {
			t.Fatalf("step %d: read-only %s changed the state", step, name)
		}
		return
	}
	changed := map[string]bool{}
	index := func(cs []json.RawMessage) map[string]string {
		m := map[string]string{}
		for _, c := range cs {
			var h struct {
				ID string `json:"id"`
			}
			json.Unmarshal(c, &h)
			m[h.ID] = string(c)
		}
		return m
	}
	bm, am := index(b.Memory.Chunks), index(a.Memory.Chunks)
	for id, v := range bm {
		if am[id] != v {
			changed[id] = true
		}
	}
	for id := range am {
		if _, ok := bm[id]; !ok {
			changed[id] = true
		}
	}
	named, synthesized := journalChunks(out)
	for id := range changed {
		if !slices.Contains(named, id) {
			t.Fatalf("step %d: %s changed chunk %s, which no journal entry names\noutput: %s", step, name, id, out)
		}
	}
	if !bytes.Equal(b.Memory.Profile, a.Memory.Profile) && !synthesized {
		t.Fatalf("step %d: %s changed the profile without a synthesis entry", step, name)
	}
}

// journalChunks collects the chunk ids named by the journal entries of an
// export's output, and whether one of them is a synthesis.
func journalChunks(out []byte) ([]string, bool) {
	var o struct {
		Ops         []entryIDs `json:"ops"`
		Fifo        []entryIDs `json:"fifo"`
		Maintenance struct {
			Ops []entryIDs `json:"ops"`
		} `json:"maintenance"`
	}
	json.Unmarshal(out, &o)
	var ids []string
	synth := false
	for _, list := range [][]entryIDs{o.Ops, o.Fifo, o.Maintenance.Ops} {
		for _, e := range list {
			ids = append(ids, e.Chunks...)
			synth = synth || e.Op == "synthesize"
		}
	}
	return ids, synth
}

type entryIDs struct {
	Op     string   `json:"op"`
	Chunks []string `json:"chunks"`
}
