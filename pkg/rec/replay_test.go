package rec

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/memory"
)

// script is an engine.Caller that answers each export from the test's
// outputs and notes every call in short: "record none 5" (the scheduler
// and the number of signals), "maintain planner force", "apply_ops planner
// synthesize", "rank 10" (the number of candidates).
type script struct {
	calls    []string
	record   string                  // record's output
	maintain string                  // maintain's output
	apply    string                  // apply_ops's output
	score    func(id string) float64 // rank's scores
	profile  bool                    // rank's context.profile
	ranks    int                     // rank calls so far
}

func (s *script) Call(export string, input []byte) ([]byte, error) {
	if export == "load_catalog" {
		s.calls = append(s.calls, "load_catalog")
		return []byte(`{"ok":true}`), nil
	}
	var in struct {
		Signals    []json.RawMessage `json:"signals"`
		Maintain   string            `json:"maintain"`
		Scheduler  string            `json:"scheduler"`
		Force      bool              `json:"force"`
		Trigger    string            `json:"trigger"`
		Ops        []memory.Op       `json:"ops"`
		Candidates []string          `json:"candidates"`
		Config     memory.Config     `json:"config"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("%s input %s: %w", export, input, err)
	}
	switch export {
	case "reset":
		s.calls = append(s.calls, fmt.Sprintf("reset %d", in.Config.EventCap))
		return []byte(`{"config":{},"ok":true}`), nil
	case "record":
		s.calls = append(s.calls, fmt.Sprintf("record %s %d", in.Maintain, len(in.Signals)))
		return []byte(s.record), nil
	case "maintain":
		s.calls = append(s.calls, fmt.Sprintf("maintain %s force=%v", in.Scheduler, in.Force))
		return []byte(s.maintain), nil
	case "apply_ops":
		s.calls = append(s.calls, fmt.Sprintf("apply_ops %s %s", in.Trigger, in.Ops[0].Op))
		return []byte(s.apply), nil
	case "get_memory":
		s.calls = append(s.calls, "get_memory")
		return []byte(`{"clock":500,"config":{},"counters":{},"events":[{"id":"e1","item":"i1","meta":{"title":["Toy Story"]}}],` +
			`"chunks":[{"id":"c1","category":"topic","key":"toy","text":"Likes toy films","events":["e1"]}],"profile":{"version":1,"text":"Watches Toy Story."},"journal":[]}`), nil
	case "rank":
		s.calls = append(s.calls, fmt.Sprintf("rank %d", len(in.Candidates)))
		s.ranks++
		var b strings.Builder
		fmt.Fprintf(&b, `{"context":{"profile":%v},"llm":[{"purpose":"rank","status":"accepted"}],"ranking":[`, s.profile)
		for i, id := range in.Candidates {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%q,"score":%v}`, id, s.score(id))
		}
		b.WriteString("]}")
		return []byte(b.String()), nil
	}
	return nil, fmt.Errorf("unexpected export %s", export)
}

// Outputs as the exports write them (the parts a replay reads).
const (
	recordOut = `{"events_added":1,"evicted":[],"fifo":[{"op":"extract","chunks":["c1"]}],` +
		`"maintenance":{"ops":[{"op":"extract"},{"op":"boost","chunks":["c1"]}]},"summary":{},` +
		`"llm":[{"purpose":"extract","status":"fallback","reason":"unknown chunk \"c9\""}]}`
	recordQuiet  = `{"events_added":1,"evicted":[],"fifo":[],"maintenance":{"ops":[]},"summary":{}}`
	maintainLag  = `{"ops":[{"op":"demote","chunks":["c1"]},{"op":"forget","chunks":["c1"]}],"summary":{"profile_version":1,"mutations_since_synthesis":2}}`
	maintainDone = `{"ops":[{"op":"synthesize"}],"summary":{"profile_version":3,"mutations_since_synthesis":0}}`
	maintainNone = `{"ops":[],"summary":{"profile_version":0,"mutations_since_synthesis":0}}`
	applyOut     = `{"ops":[{"op":"synthesize"}],"summary":{},"llm":[{"purpose":"synthesize","status":"accepted"}]}`
)

// TestReplayUser follows one user's replay call by call: which exports, with
// what, and what is counted. u1 of films has 5 signals and the candidates
// i8 (the target), then 9 negatives from i29 down.
func TestReplayUser(t *testing.T) {
	d := films(t)
	cases, _ := Cases(d.Test, d.Random, 0)
	// The target scores 0.5; i29 beats it, i28 ties with it (ties count
	// against the target): rank 2.
	score := func(id string) float64 {
		return map[string]float64{"i8": 0.5, "i29": 0.9, "i28": 0.5}[id]
	}
	tests := []struct {
		name, mode, sched, record, maintain string
		calls                               []string
		ops                                 map[string]int
		llm                                 map[string]StepOutcomes
	}{
		{"retrospective, the profile lags", ModeRetrospective, "fixed", recordOut, maintainLag,
			[]string{"reset 50", "record none 5", "maintain fixed force=true", "apply_ops planner synthesize", "rank 10", "get_memory"},
			// record: fifo extract c1, boost (the chunkless extract is not
			// counted); maintain: demote, forget; apply_ops: synthesize.
			map[string]int{"extract": 1, "boost": 1, "demote": 1, "forget": 1, "synthesize": 1},
			map[string]StepOutcomes{
				"extract":    {Asked: 1, Fallback: map[string]int{`unknown chunk "…"`: 1}, Rejections: map[string]int{"unnamed": 1}},
				"synthesize": {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
				"rank":       {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
			}},
		{"retrospective, maintenance synthesized", ModeRetrospective, "planner", recordQuiet, maintainDone,
			[]string{"reset 50", "record none 5", "maintain planner force=true", "rank 10", "get_memory"},
			map[string]int{"synthesize": 1},
			map[string]StepOutcomes{"rank": {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}}}},
		{"retrospective, never synthesized", ModeRetrospective, "fixed", recordQuiet, maintainNone,
			[]string{"reset 50", "record none 5", "maintain fixed force=true", "apply_ops planner synthesize", "rank 10", "get_memory"},
			map[string]int{"synthesize": 1},
			map[string]StepOutcomes{
				"synthesize": {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
				"rank":       {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
			}},
		{"evolving", ModeEvolving, "planner", recordOut, "",
			[]string{"reset 50", "record planner 1", "record planner 1", "record planner 1", "record planner 1", "record planner 1", "rank 10", "get_memory"},
			// Five records, each: extract c1 and boost; five fallbacks.
			map[string]int{"extract": 5, "boost": 5},
			map[string]StepOutcomes{
				"extract": {Asked: 5, Fallback: map[string]int{`unknown chunk "…"`: 5}, Rejections: map[string]int{"unnamed": 5}},
				"rank":    {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{record: tt.record, maintain: tt.maintain, apply: applyOut, score: score, profile: true}
			r := Replay{Data: d, Mode: tt.mode, Scheduler: tt.sched, EventCap: DefaultEventCap}
			got, err := r.User(s, cases[0])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.calls, tt.calls) {
				t.Errorf("calls\n got %q\nwant %q", s.calls, tt.calls)
			}
			if got.Rank != 2 || !got.Profile {
				t.Errorf("rank %d, profile %v; want 2, true", got.Rank, got.Profile)
			}
			// get_memory's chunk cites e1 ("Toy Story"), and its profile
			// names Toy Story: grounded and faithful.
			if q := (llm.Quality{Users: 1, Chunks: 1, Grounded: 1, Profiles: 1, Sentences: 1, Supported: 1}); got.Quality != q {
				t.Errorf("quality %+v, want %+v", got.Quality, q)
			}
			if !reflect.DeepEqual(got.Ops, tt.ops) {
				t.Errorf("ops %v, want %v", got.Ops, tt.ops)
			}
			if rep := got.LLM.Report(); !reflect.DeepEqual(rep, tt.llm) {
				t.Errorf("llm %+v, want %+v", rep, tt.llm)
			}
		})
	}
}

// TestReplayProbe: the probe builds u1's memory without the low dramas,
// ranks the pool, streams the lows in and ranks again. The pool holds 24
// items, 3 of them dramas (i5, i4, i3).
func TestReplayProbe(t *testing.T) {
	d, _, p := u1Probe(t)
	s := &script{record: recordQuiet, maintain: maintainDone, apply: applyOut}
	// Before the lows, dramas score 1 and all three are in the top 10; after
	// them they score -1 and none is.
	s.score = func(id string) float64 {
		if id == "i3" || id == "i4" || id == "i5" {
			return map[int]float64{0: 1, 1: -1}[s.ranks-1]
		}
		return 0
	}
	r := Replay{Data: d, Mode: ModeRetrospective, Scheduler: "fixed", EventCap: 7}
	before, after, err := r.Probe(s, p)
	if err != nil {
		t.Fatal(err)
	}
	if before != 0.3 || after != 0 {
		t.Errorf("shares %v then %v, want 0.3 then 0", before, after)
	}
	want := []string{"reset 7", "record none 2", "maintain fixed force=true", "rank 24", "record none 3", "maintain fixed force=true", "rank 24"}
	if !reflect.DeepEqual(s.calls, want) {
		t.Errorf("calls\n got %q\nwant %q", s.calls, want)
	}
}

func TestReplayRejects(t *testing.T) {
	d := films(t)
	cases, _ := Cases(d.Test, d.Random, 0)
	open := func() (engine.Caller, func(), error) { return &script{}, func() {}, nil }
	for _, r := range []Replay{{Data: d, Mode: "sideways", Scheduler: "fixed"}, {Data: d, Mode: ModeEvolving, Scheduler: "weekly"}} {
		if _, err := r.Run(cases, nil, nil, Opener(open), 1, nil); err == nil || !strings.Contains(err.Error(), "rec: replay:") {
			t.Errorf("%+v: err %v", r, err)
		}
	}
	// An export's error names the user.
	failing := Replay{Data: d, Mode: ModeEvolving, Scheduler: "fixed"}
	if _, err := failing.Run(cases, nil, nil, Opener(open), 2, nil); err == nil || !strings.Contains(err.Error(), "user u") {
		t.Errorf("err %v", err)
	}
}

func TestCountOps(t *testing.T) {
	tests := []struct {
		entries [][]memory.Entry
		want    map[string]int
	}{
		{nil, map[string]int{}},
		{[][]memory.Entry{{{Op: "extract"}}}, map[string]int{}}, // closes a batch, names no chunk
		{[][]memory.Entry{{{Op: "extract", Chunks: []string{"c1"}}, {Op: "boost"}}, {{Op: "boost"}, {Op: "drop"}}},
			map[string]int{"extract": 1, "boost": 2, "drop": 1}},
	}
	for i, tt := range tests {
		got := map[string]int{}
		CountOps(got, tt.entries...)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%d: %v, want %v", i, got, tt.want)
		}
	}
}

func TestReasonClass(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct{ in, want string }{
		{`input.ops[2].chunk: unknown chunk "c99"`, `input.ops[N].chunk: unknown chunk "…"`},
		{`llm: endpoint answered 400: the prompt is 5011 tokens`, `llm: endpoint answered N: the prompt is N tokens`},
		{`strength 0.75 "a \"quoted\" text"`, `strength N "…"`},
		{long, long[:MaxReasonClass] + "…"},
		// Issue 22: a replay's request hash came out "NaNaNba…".
		{`llm: replay: request not in the recording: purpose extract, hash 9a3b0c41d2e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d`,
			`llm: replay: request not in the recording: purpose extract, hash …`},
		{`state xxh64:4a1869ded0adffd3 at 1700000000000 ms`, `state xxhN:… at N ms`},
	}
	for _, tt := range tests {
		if got := ReasonClass(tt.in); got != tt.want {
			t.Errorf("ReasonClass(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOutcomes(t *testing.T) {
	a, b := Outcomes{}, Outcomes{}
	a.Add([]llm.Outcome{{Purpose: "plan", Status: "accepted"}, {Purpose: "plan", Status: "fallback", Reason: "timeout after 60 s"}})
	b.Add([]llm.Outcome{{Purpose: "plan", Status: "fallback", Reason: "timeout after 61 s"}, {Purpose: "rank", Status: "accepted"}})
	a.Merge(b)
	// plan: 1 of 3 used; both timeouts are one class.
	want := map[string]StepOutcomes{
		"plan": {Asked: 3, Accepted: 1, Valid: 1.0 / 3, Fallback: map[string]int{"timeout after N s": 2}, Rejections: map[string]int{"unnamed": 2}},
		"rank": {Asked: 1, Accepted: 1, Valid: 1, Fallback: map[string]int{}},
	}
	if got := a.Report(); !reflect.DeepEqual(got, want) {
		t.Errorf("report %+v, want %+v", got, want)
	}
	if got := (Outcomes{}).Report(); len(got) != 0 {
		t.Errorf("empty report %v", got)
	}
}

func TestNewResponsiveness(t *testing.T) {
	var after3 float64 = 1.25 / 3 // a float64, so that the drop below is a float64 subtraction
	tests := []struct {
		before, after []float64
		want          Responsiveness
	}{
		{nil, nil, Responsiveness{}},
		// Means 1.5/3 and 1.25/3; one fell, one rose, one stayed.
		{[]float64{0.5, 0.25, 0.75}, []float64{0, 0.5, 0.75}, Responsiveness{Users: 3, Before: 0.5, After: after3, Drop: 0.5 - after3, Rose: 1, Fell: 1}},
		{[]float64{0.5}, []float64{0}, Responsiveness{Users: 1, Before: 0.5, After: 0, Drop: 0.5, Fell: 1}},
	}
	for i, tt := range tests {
		if got := NewResponsiveness(tt.before, tt.after); got != tt.want {
			t.Errorf("%d: %+v, want %+v", i, got, tt.want)
		}
	}
}

func TestRunResultShares(t *testing.T) {
	r := RunResult{Ranks: []int{0, 1, 12, 0}, Ops: map[string]int{"extract": 6, "boost": 2}}
	if got, want := r.OpsShare(), map[string]float64{"extract": 0.75, "boost": 0.25}; !reflect.DeepEqual(got, want) {
		t.Errorf("share %v, want %v", got, want)
	}
	if got, want := r.OpsPerUser(), map[string]float64{"extract": 1.5, "boost": 0.5}; !reflect.DeepEqual(got, want) {
		t.Errorf("per user %v, want %v", got, want)
	}
	// HR@1 2/4; HR@5 3/4; NDCG@5 (1 + 1/log2(3) + 1)/4.
	s := r.Scores()
	if s.HR1 != 0.5 || s.HR5 != 0.75 || s.NDCG5 != (1+1/math.Log2(3)+0+1)/4 {
		t.Errorf("scores %+v", s)
	}
	if (RunResult{}).OpsShare() == nil {
		t.Error("no ops: an empty share, not nil")
	}
}

// TestReplayEngine replays the toy users through the engine natively: the
// memory the exports build in retrospective mode with the fixed scheduler
// is the one Retrospective builds in process, every user is ranked with a
// profile, and three workers give what one gives.
func TestReplayEngine(t *testing.T) {
	d, err := dataset.LoadRecBole("../../testdata/catalog/toy", "Toy")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := TrainCatalog(d, TrainConfig{BPR: BPRConfig{Dim: 4, Epochs: 3}, Seq: SeqConfig{BPR: BPRConfig{Dim: 2, Epochs: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := Cases(d.Test, d.Random, 12)
	open := func() (engine.Caller, func(), error) { return engine.New(), func() {}, nil }
	for _, mode := range []string{ModeRetrospective, ModeEvolving} {
		r := Replay{Data: d, Mode: mode, Scheduler: "fixed", EventCap: DefaultEventCap}
		one, err := r.Run(cases, nil, tr.Catalog, open, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		three, err := r.Run(cases, nil, tr.Catalog, open, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(one, three) {
			t.Errorf("%s: 1 worker %+v, 3 workers %+v", mode, one, three)
		}
		if len(one.Ranks) != len(cases) || one.Ops["extract"] == 0 || len(one.LLM) != 0 {
			t.Errorf("%s: %+v", mode, one)
		}
		if mode == ModeRetrospective && one.WithProfile != len(cases) {
			t.Errorf("%d of %d users ranked with a profile", one.WithProfile, len(cases))
		}
	}
	x := engine.New()
	if _, err := engine.LoadCatalog.Call(x, engine.Raw(tr.Catalog)); err != nil {
		t.Fatal(err)
	}
	r := Replay{Data: d, Mode: ModeRetrospective, Scheduler: "fixed", EventCap: DefaultEventCap}
	for _, c := range cases[:3] {
		if _, err := r.User(x, c); err != nil {
			t.Fatal(err)
		}
		got, err := engine.GetMemory.Call(x, engine.GetMemoryInput{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Retrospective(d, c, DefaultEventCap)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Chunks, want.Chunks) || got.Profile.Text != want.Profile.Text || got.Profile.Version != want.Profile.Version {
			t.Errorf("user %s: the exports built\n%+v\n%+v\nin process\n%+v\n%+v", c.User, got.Chunks, got.Profile, want.Chunks, want.Profile)
		}
	}
}
