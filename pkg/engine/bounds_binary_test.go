package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/workload"
)

// refuses imports in into e and checks that it is refused with an error
// containing want, the state as it was, and returns how long the refusal
// took.
func refuses(t *testing.T, e *engine.Engine, in []byte, want string) time.Duration {
	t.Helper()
	before := call(t, e, "export_state", "")
	t0 := time.Now()
	_, err := e.Call("import_state", in)
	took := time.Since(t0)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("import_state of %d bytes: err = %v, want %q", len(in), err, want)
	}
	if after := call(t, e, "export_state", ""); !bytes.Equal(after, before) {
		t.Fatal("a refused import changed the state")
	}
	return took
}

// TestImportAppliesAtMost16Segments (issue 22, finding 2): a base of 20,000
// units followed by 2,000 small segments was imported whole, 15.7 s on one
// instance. An import applies at most engine.MaxSegments segments and
// refuses more before reading any, naming the limit.
func TestImportAppliesAtMost16Segments(t *testing.T) {
	e := memoryEngine(t, 0)
	var units []string
	for i := range 20000 {
		units = append(units, fmt.Sprintf(`{"id":"u%d","session":"s%d","text":"turn %d of a long memory"}`, i, i/40, i))
	}
	call(t, e, "add_units", `{"units":[`+strings.Join(units, ",")+`]}`)
	base := call(t, e, "export_state", `{"format":"binary"}`)
	at16, err := workload.EmptySegments(base, engine.MaxSegments)
	if err != nil {
		t.Fatal(err)
	}
	out := call(t, engine.New(), "import_state", string(at16))
	if !bytes.Contains(out, []byte(`"segments":16`)) {
		t.Fatalf("16 segments: %s", out)
	}
	for _, n := range []int{engine.MaxSegments + 1, 2000} {
		in, err := workload.EmptySegments(base, n)
		if err != nil {
			t.Fatal(err)
		}
		took := refuses(t, e, in, "state.binary.segments[16]: more than 16 segments after the base, the most one import applies")
		t.Logf("%d segments after a base of 20,000 units (%d bytes): refused in %v", n, len(in), took)
	}
	// export_state never writes more: compact_after is at most 16.
	if _, err := e.Call("export_state", []byte(`{"format":"binary","base":"`+engine.Checksum(base)+`","compact_after":17}`)); err == nil {
		t.Fatal("compact_after 17 was taken")
	}
}

// TestImportRefusesADeclaredVocabulary (issue 22, finding 3): a base
// declaring a 1,000,000-word vocabulary and no unit, 7 MB that pack into
// about 33 kB, made an instance fail (serve answered 500) or grow by
// hundreds of MB. Every token a piece defines must be used by one of its
// units, so a vocabulary never outgrows the texts; and what a state
// declares is measured against the import's memory budget before anything
// is allocated: a million words that units do use are refused too.
func TestImportRefusesADeclaredVocabulary(t *testing.T) {
	e := memoryEngine(t, 0)
	mem, err := workload.MemoryOf(call(t, e, "export_state", `{"format":"binary"}`))
	if err != nil {
		t.Fatal(err)
	}
	took := refuses(t, e, workload.UnusedVocabulary(mem, 1_000_000),
		"state.binary.units.tokens[0]: used by no unit of this piece (a binary state defines only the tokens its units use)")
	t.Logf("1,000,000 unused words: refused in %v", took)
	used := workload.Vocabulary(mem, 1_000_000)
	took = refuses(t, e, used, "state.binary: importing it would take about 977.5 MB of memory (1000000 tokens, 1000000 words, 1000 units, 1000000 token ids), more than the 201.3 MB one import may take")
	t.Logf("1,000,000 used words, %d bytes: refused in %v", len(used), took)
	// A vocabulary of a size a state holds imports.
	small := workload.Vocabulary(mem, 20_000)
	if _, err := engine.New().Call("import_state", small); err != nil {
		t.Fatalf("20,000 words in %d bytes: %v", len(small), err)
	}
}

// TestImportRefusesUnusedValues: a piece's dictionaries list the values of
// its units, each once; a session, date or speaker no unit has is refused
// (it would cost memory and say nothing).
func TestImportRefusesUnusedValues(t *testing.T) {
	e := memoryEngine(t, 0)
	mem, err := workload.MemoryOf(call(t, e, "export_state", `{"format":"binary"}`))
	if err != nil {
		t.Fatal(err)
	}
	// One unit "u" in session "s" with the text token " hi", and the date
	// "d", which the unit has (date index 1) or not (0).
	piece := func(date byte) []byte {
		u := []byte{0, 1, 3, ' ', 'h', 'i', 1 << 4, 0, 0, 0, 1, 1,
			1, 1, 's', // sessions
			1, 1, 'd', // dates
			0, 0, 0, 0, // times, speakers, users, kinds
			0, 1, 'u', // the unit's id
			0, date, 0, 0, 0, 0, // its columns: session, date, time, speaker, user, kind
			1, 0} // its text: token 0, the end
		return workload.Piece('B', 0, 0, append(workload.Section('M', mem), workload.Section('U', u)...))
	}
	refuses(t, e, piece(0), "state.binary.units.dates[0]: used by no unit of this piece")
	if _, err := engine.New().Call("import_state", piece(1)); err != nil {
		t.Fatalf("the same unit with its date: %v", err)
	}
}

// TestImportBudget holds the import budget's claim: every state the module
// writes needs at most about 65 bytes of memory a byte of state, by the
// measure the budget applies (slate.Measure), from real LoCoMo turns to the
// densest states there are (units of one word, ids of a few letters), so
// the budget (80 a byte, plus 4 MiB) refuses none of them.
func TestImportBudget(t *testing.T) {
	type state struct {
		name  string
		units []map[string]string
	}
	var states []state
	for _, n := range []int{500, 5000} {
		m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
		if err != nil {
			t.Skipf("LoCoMo: %v", err)
		}
		states = append(states, state{fmt.Sprintf("%d LoCoMo turns", n), m.Units})
	}
	tiny := make([]map[string]string, 20000)
	short := make([]map[string]string, 20000)
	distinct := make([]map[string]string, 5000)
	for i := range tiny {
		tiny[i] = map[string]string{"id": fmt.Sprint(i), "session": "s", "text": "ok"}
		short[i] = map[string]string{"id": fmt.Sprintf("u%d", i), "session": fmt.Sprintf("s%d", i/50), "speaker": "Ann", "text": fmt.Sprintf("ok %d", i%7)}
	}
	for i := range distinct {
		distinct[i] = map[string]string{"id": fmt.Sprintf("u%d", i), "session": fmt.Sprintf("s%d", i), "text": fmt.Sprintf("w%d", i)}
	}
	states = append(states, state{"20,000 one-word units", tiny}, state{"20,000 three-word units", short}, state{"5,000 units of a word of their own", distinct})
	for _, s := range states {
		e := engine.New()
		in, _ := json.Marshal(map[string]any{"units": s.units})
		call(t, e, "add_units", string(in))
		b := call(t, e, "export_state", `{"format":"binary"}`)
		need := measure(t, b)
		perByte := float64(need) / float64(len(b))
		t.Logf("%s: %d bytes, about %.1f MB to import, %.1f a byte", s.name, len(b), float64(need)/1e6, perByte)
		if perByte > 66 {
			t.Errorf("%s: %.1f bytes of memory a byte, more than the 65 the budget's comment claims", s.name, perByte)
		}
		if _, err := engine.New().Call("import_state", b); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
	}
}

// measure is what the import budget counts for a bare binary state.
func measure(t *testing.T, b []byte) int64 {
	t.Helper()
	m := slate.NewMeasure()
	ps, err := workload.Pieces(b)
	if err != nil {
		t.Fatal(err)
	}
	largest := 0
	for i, p := range ps {
		body := p[32 : len(p)-8]
		for len(body) >= 5 {
			n := int(uint32(body[1]) | uint32(body[2])<<8 | uint32(body[3])<<16 | uint32(body[4])<<24)
			switch body[0] {
			case 'M':
				largest = max(largest, n)
			case 'U':
				if err := m.Add(body[5:5+n], i == 0, slate.Limits{Units: engine.MaxUnits, TextBytes: engine.MaxInputBytes}); err != nil {
					t.Fatal(err)
				}
			}
			body = body[5+n:]
		}
	}
	return m.Bytes() + int64(largest)*8
}
