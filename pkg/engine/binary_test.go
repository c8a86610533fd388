package engine_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/recmem/recmem/pkg/conformance"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/workload"
)

// binaryTrip is an engine that, before every call, exports its state in
// binary form and imports it back: every output must be the one the engine
// gives without the trip.
type binaryTrip struct {
	t *testing.T
	e *engine.Engine
}

func (b binaryTrip) Call(name string, in []byte) ([]byte, error) {
	bin, err := b.e.Call("export_state", []byte(`{"format":"binary"}`))
	if err != nil {
		b.t.Fatalf("before %s: %v", name, err)
	}
	if _, err := b.e.Call("import_state", bin); err != nil {
		b.t.Fatalf("before %s: %v", name, err)
	}
	return b.e.Call(name, in)
}

// TestConformanceAfterBinaryRoundTrip runs every conformance and hostile
// case with the state sent through the binary form before each call: the
// outputs are the expected ones, byte for byte.
func TestConformanceAfterBinaryRoundTrip(t *testing.T) {
	cases, err := conformance.LoadAll(conformanceDir, hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		t.Run(c.ID(), func(t *testing.T) {
			e := engine.New()
			if c.LLM != nil {
				if err := e.SetLLM(c.LLM, c.LLM.Steps); err != nil {
					t.Fatal(err)
				}
			}
			r, err := conformance.Run(c, binaryTrip{t, e})
			if err != nil {
				t.Fatal(err)
			}
			if err := conformance.Check(c, r); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func call(t testing.TB, e *engine.Engine, name, in string) []byte {
	t.Helper()
	out, err := e.Call(name, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// memoryEngine returns an engine whose memory has events, chunks, a profile,
// a journal and client ids, and n LoCoMo units (none when n is 0).
func memoryEngine(t testing.TB, n int) *engine.Engine {
	t.Helper()
	e := engine.New()
	call(t, e, "reset", `{"config":{"batch":2,"gamma":2}}`)
	for i := range 12 {
		call(t, e, "record", string(workload.RecordSignal(i)))
	}
	call(t, e, "record", `{"signals":[{"user":"u1","item":"x","action":"dislike","meta":{"genre":["Horror"]},"time":1800000000,"client_id":"k1"}]}`)
	call(t, e, "apply_ops", `{"ops":[{"op":"synthesize"}],"now":1800000000}`)
	if n > 0 {
		m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
		if err != nil {
			t.Skipf("LoCoMo: %v", err)
		}
		call(t, e, "add_units", string(m.AddUnits(0, n)))
	}
	return e
}

// TestBinaryJSONRoundTrip holds the two forms to each other: binary ->
// JSON -> binary and JSON -> binary -> JSON are byte-identical, with and
// without units, and a store emptied of its units stays a store.
func TestBinaryJSONRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := memoryEngine(t, n)
			j1 := call(t, e, "export_state", "")
			b1 := call(t, e, "export_state", `{"format":"binary"}`)
			fromBin := engine.New()
			out := call(t, fromBin, "import_state", string(b1))
			if !bytes.Contains(out, []byte(`"format":"binary","checksum":"xxh64:`)) {
				t.Errorf("import output %s", out)
			}
			if j2 := call(t, fromBin, "export_state", ""); !bytes.Equal(j2, j1) {
				t.Fatal("JSON -> binary -> JSON is not byte-identical")
			}
			fromJSON := engine.New()
			call(t, fromJSON, "import_state", string(j1))
			if b2 := call(t, fromJSON, "export_state", `{"format":"binary"}`); !bytes.Equal(b2, b1) {
				t.Fatal("binary -> JSON -> binary is not byte-identical")
			}
			if engine.Checksum(b1) == "" || !strings.Contains(string(out), engine.Checksum(b1)) {
				t.Errorf("Checksum(b1) = %q, import said %s", engine.Checksum(b1), out)
			}
		})
	}
	// Units added, then all deleted: "units": [] survives both ways.
	e := engine.New()
	call(t, e, "add_units", `{"units":[{"id":"a","session":"s","text":"hello there"}]}`)
	call(t, e, "delete_units", `{"ids":["a"]}`)
	j := call(t, e, "export_state", "")
	f := engine.New()
	call(t, f, "import_state", string(call(t, e, "export_state", `{"format":"binary"}`)))
	if got := call(t, f, "export_state", ""); !bytes.Equal(got, j) || !bytes.Contains(got, []byte(`"units":[]`)) {
		t.Fatalf("an empty store: %s, want %s", got, j)
	}
}

// TestDeltas follows a memory through a run of changes, each exported as a
// delta against the state the caller holds, and checks that the base and
// its segments import to the state the engine holds (the same JSON), that
// nothing changed gives no bytes, and that compaction writes a base.
func TestDeltas(t *testing.T) {
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, 700)
	if err != nil {
		t.Skipf("LoCoMo: %v", err)
	}
	e := memoryEngine(t, 0)
	call(t, e, "add_units", string(m.AddUnits(0, 600)))
	held := call(t, e, "export_state", `{"format":"binary"}`)
	steps := []string{
		`record ` + string(workload.RecordSignal(40)),
		`add_units ` + string(m.AddUnits(600, 620)),
		`delete_units {"ids":["` + m.Units[3]["id"] + `","` + m.Units[610]["id"] + `"]}`,
		`select_slate {"query":"what did Caroline paint?","budget":500}`, // changes nothing
		`purge {"session":"` + m.Units[100]["session"] + `"}`,
		`add_units ` + string(m.AddUnits(620, 640)),
	}
	segments, bases := 0, 0
	for i, st := range steps {
		name, in, _ := strings.Cut(st, " ")
		// A cold engine, importing the state held, gives the delta the
		// engine that wrote it gives, byte for byte.
		cold := engine.New()
		call(t, cold, "import_state", string(held))
		call(t, cold, name, in)
		call(t, e, name, in)
		d := call(t, e, "export_state", `{"format":"binary","base":"`+engine.Checksum(held)+`"}`)
		if cd := call(t, cold, "export_state", `{"format":"binary","base":"`+engine.Checksum(held)+`"}`); !bytes.Equal(cd, d) {
			t.Fatalf("step %d (%s): a cold engine's delta differs from the warm one's", i, name)
		}
		switch {
		case len(d) == 0:
			if name != "select_slate" {
				t.Fatalf("step %d (%s): no delta", i, name)
			}
		case bytes.HasPrefix(d, []byte("RMSB\x01S")):
			segments++
			held = append(held, d...)
		default:
			bases++
			held = d
		}
		f := engine.New()
		out := call(t, f, "import_state", string(held))
		if got, want := call(t, f, "export_state", ""), call(t, e, "export_state", ""); !bytes.Equal(got, want) {
			t.Fatalf("step %d (%s): the state held differs from the engine's", i, name)
		}
		if !strings.Contains(string(out), engine.Checksum(held)) {
			t.Fatalf("step %d: import says %s, checksum %s", i, out, engine.Checksum(held))
		}
	}
	if segments != 5 || bases != 0 {
		t.Errorf("%d segments and %d bases, want 5 and 0", segments, bases)
	}
	// A base that is not the one held gives the whole state; so does
	// compaction (one segment allowed).
	for _, in := range []string{`{"format":"binary","base":"xxh64:0123456789abcdef"}`,
		`{"format":"binary","base":"` + engine.Checksum(held) + `","compact_after":1}`} {
		call(t, e, "record", string(workload.RecordSignal(41)))
		if d := call(t, e, "export_state", in); !bytes.HasPrefix(d, []byte("RMSB\x01B")) {
			t.Errorf("%s: not a base: %q", in, d[:6])
		} else {
			held = d
		}
	}
}

// TestBinaryRefused feeds import_state damaged binary states: each is
// refused with a message naming the fault, and the state is unchanged.
func TestBinaryRefused(t *testing.T) {
	e := memoryEngine(t, 0)
	call(t, e, "add_units", `{"units":[{"id":"a","session":"s","text":"Pottery on Tuesdays"},{"id":"b","session":"s","text":"What do you make?"}]}`)
	base := call(t, e, "export_state", `{"format":"binary"}`)
	call(t, e, "add_units", `{"units":[{"id":"c","session":"s","text":"Bowls, mostly."}]}`)
	seg1 := call(t, e, "export_state", `{"format":"binary","base":"`+engine.Checksum(base)+`"}`)
	call(t, e, "delete_units", `{"ids":["a"]}`)
	seg2 := call(t, e, "export_state", `{"format":"binary","base":"`+engine.Checksum(append(append([]byte{}, base...), seg1...))+`"}`)
	cat := func(ps ...[]byte) []byte { return bytes.Join(ps, nil) }
	flip := func(b []byte, i int) []byte { c := bytes.Clone(b); c[i] ^= 1; return c }
	other := engine.New()
	call(t, other, "add_units", `{"units":[{"id":"z","session":"s","text":"another memory"}]}`)
	otherBase := call(t, other, "export_state", `{"format":"binary"}`)
	call(t, other, "add_units", `{"units":[{"id":"y","session":"s","text":"more"}]}`)
	otherSeg := call(t, other, "export_state", `{"format":"binary","base":"`+engine.Checksum(otherBase)+`"}`)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"truncated", base[:len(base)-3], "state.binary: truncated: the header says"},
		{"tampered body", flip(base, 40), "state.binary: checksum does not match the content"},
		{"tampered checksum", flip(base, len(base)-1), "state.binary: checksum does not match the content"},
		{"segment alone", seg1, "state.binary: starts with a segment"},
		{"segments out of order", cat(base, seg2, seg1), "state.binary.segments[0]: segment number 2 where 1 comes next (segments out of order)"},
		{"a delta of another state", cat(base, otherSeg), "state.binary.segments[0]: applies to state xxh64:"},
		{"two bases", cat(base, otherBase), "state.binary.segments[0]: a second base"},
		{"garbage after", cat(base, []byte("{}")), "state.binary.segments[0]: truncated"},
		{"version", flip(base, 4), "state.binary: binary format version 0"},
	}
	before := call(t, e, "export_state", "")
	for _, tt := range tests {
		_, err := e.Call("import_state", tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
		if after := call(t, e, "export_state", ""); !bytes.Equal(after, before) {
			t.Fatalf("%s: the state changed", tt.name)
		}
	}
	// The whole chain imports.
	if _, err := e.Call("import_state", cat(base, seg1, seg2)); err != nil {
		t.Fatal(err)
	}
}

// TestExportStateInput checks export_state's input errors, field by field.
func TestExportStateInput(t *testing.T) {
	e := engine.New()
	for in, want := range map[string]string{
		`{"format":"xml"}`:                                    `export_state: input.format: want "json" or "binary", got "xml"`,
		`{"base":"xxh64:0000000000000000"}`:                   `export_state: input.base: only for the binary format (give "format": "binary")`,
		`{"format":"binary","base":"sha256:00"}`:              `export_state: input.base: want xxh64: and 16 hex digits, got "sha256:00"`,
		`{"format":"binary","base":"xxh64:zz00000000000000"}`: `export_state: input.base: want xxh64: and 16 hex digits, got "xxh64:zz00000000000000"`,
		`{"format":"binary","compact_after":17}`:              `export_state: input.compact_after: must be between 1 and 16 (the most segments an import applies), got 17`,
		`{"format":"binary","compact_ratio":-1}`:              `export_state: input.compact_ratio: must be above 0 and at most 100, got -1`,
		`{"format":"binary","mood":1}`:                        `export_state: input: unknown field "mood"`,
	} {
		if _, err := e.Call("export_state", []byte(in)); err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
	var d engine.Document
	if err := json.Unmarshal(call(t, e, "export_state", `{"format":"json"}`), &d); err != nil || d.Version != engine.SchemaVersion {
		t.Errorf("format json: %v %+v", err, d)
	}
}

// binarySeedDir holds binarySeeds, the fuzz target's seeds.
const binarySeedDir = testdataDir + "/fuzz/binary"

// TestBinarySeeds holds the seed files to binarySeeds (-update rewrites
// them): the binary form's seeds follow its format.
func TestBinarySeeds(t *testing.T) {
	files := map[string][]byte{}
	for i, b := range binarySeeds(t) {
		files[fmt.Sprintf("state%d.bin", i)] = b
	}
	for name, b := range hostileSeeds(t) {
		files["hostile-"+name+".bin"] = b
	}
	for name, b := range files {
		p := filepath.Join(binarySeedDir, name)
		if *update {
			if err := os.MkdirAll(binarySeedDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is stale (go test ./pkg/engine -run TestBinarySeeds -args -update): %v", p, err)
		}
	}
}

// binarySeeds are binary states of every shape: a memory alone, units, a
// base with segments (adds, a delete, a memory change).
func binarySeeds(t testing.TB) [][]byte {
	e := memoryEngine(t, 0)
	var out [][]byte
	out = append(out, call(t, e, "export_state", `{"format":"binary"}`))
	call(t, e, "add_units", `{"units":[{"id":"D1:1","session":"S1","date":"8 May 2023","time":"2023-05-08","speaker":"Ann","text":"I signed up for a pottery class on Tuesdays.","user":"ann"},{"id":"D1:2","session":"S1","speaker":"Ben","text":"Nice, what will you make? Bowls?","kind":"turn"},{"id":"R1","session":"S2","text":"Ann takes pottery classes — ünïcode too.","kind":"record"}]}`)
	base := call(t, e, "export_state", `{"format":"binary"}`)
	out = append(out, base)
	held := base
	for _, st := range []string{
		`add_units {"units":[{"id":"D2:1","session":"S3","time":"2023-06-01T10:00:00Z","speaker":"Ann","text":"My first bowl cracked in the kiln!"}]}`,
		`delete_units {"ids":["D1:2"]}`,
		`record {"signals":[{"user":"u1","item":"z","action":"like","meta":{"genre":["Puzzle"]},"time":1800000100}]}`,
	} {
		name, in, _ := strings.Cut(st, " ")
		call(t, e, name, in)
		held = append(held, call(t, e, "export_state", `{"format":"binary","base":"`+engine.Checksum(held)+`"}`)...)
		out = append(out, bytes.Clone(held))
	}
	return out
}

// hostileSeeds are the forgeries of issue 22, one per finding, small enough
// for the corpus: a state carrying 17 segments, a base declaring 1,000
// words no unit uses, a date no unit has, a word's vector rewritten (the
// text unchanged), a segment turning every preference into "avoids".
func hostileSeeds(t testing.TB) map[string][]byte {
	e := memoryEngine(t, 0)
	call(t, e, "add_units", `{"units":[{"id":"D1:1","session":"S1","date":"8 May 2023","speaker":"Ann","text":"I signed up for a pottery class on Tuesdays."},{"id":"D1:2","session":"S1","speaker":"Ben","text":"Nice, what will you make? Bowls?"}]}`)
	base := call(t, e, "export_state", `{"format":"binary"}`)
	mem, err := workload.MemoryOf(base)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"unused-vocabulary": workload.UnusedVocabulary(mem, 1000)}
	if out["segments"], err = workload.EmptySegments(base, engine.MaxSegments+1); err != nil {
		t.Fatal(err)
	}
	if out["rewritten-vectors"], err = workload.RewriteVectors(base); err != nil {
		t.Fatal(err)
	}
	avoids, err := workload.AvoidEverything(mem)
	if err != nil {
		t.Fatal(err)
	}
	seg, err := workload.Segment(base, workload.Section('M', avoids))
	if err != nil {
		t.Fatal(err)
	}
	out["avoid-everything"] = append(bytes.Clone(base), seg...)
	u := []byte{0, 1, 3, ' ', 'h', 'i', 1 << 4, 0, 0, 0, 1, 1, 1, 1, 's', 1, 1, 'd', 0, 0, 0, 0, 0, 1, 'u', 0, 0, 0, 0, 0, 0, 1, 0}
	out["unused-date"] = workload.Piece('B', 0, 0, append(workload.Section('M', mem), workload.Section('U', u)...))
	return out
}

// FuzzBinaryState feeds import_state arbitrary bytes starting like a binary
// state: it never panics; a refused state leaves the engine as it was; an
// accepted one selects, is written again as it was read, and its JSON form
// survives a round trip. (A state whose analysis was forged, a token's word
// or a word's vector source changed and the checksum recomputed, imports as
// written, and its JSON form analyses the text afresh: the two forms agree
// for every state the module wrote, TestBinaryJSONRoundTrip. A host that
// must know a state is one it wrote seals it.)
//
// With fix, the input's pieces get their checksums (and their links to the
// piece before) recomputed first, so that mutations reach the bodies rather
// than stop at the checksum.
func FuzzBinaryState(f *testing.F) {
	seeds, _ := filepath.Glob(binarySeedDir + "/*.bin")
	if len(seeds) == 0 {
		f.Fatal("no seeds in " + binarySeedDir)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(false, b)
		f.Add(true, b)
	}
	f.Fuzz(func(t *testing.T, fix bool, b []byte) {
		if fix {
			b = reseal(b)
		}
		e := engine.New()
		must(t, e, "add_units", `{"units":[{"id":"keep","session":"s","text":"a unit that must survive a refused import"}]}`)
		before := must(t, e, "export_state", "")
		if _, err := e.Call("import_state", b); err != nil {
			if after := must(t, e, "export_state", ""); !bytes.Equal(after, before) {
				t.Fatalf("a refused import changed the state: %v", err)
			}
			return
		}
		if _, err := e.Call("select_slate", []byte(`{"query":"pottery bowl","budget":300}`)); err != nil {
			t.Fatalf("select after an accepted import: %v", err)
		}
		j := must(t, e, "export_state", "")
		bin := must(t, e, "export_state", `{"format":"binary"}`)
		f2 := engine.New()
		must(t, f2, "import_state", string(bin))
		if j2 := must(t, f2, "export_state", ""); !bytes.Equal(j2, j) {
			t.Fatal("an accepted binary state does not survive a binary round trip")
		}
		if b2 := must(t, f2, "export_state", `{"format":"binary"}`); !bytes.Equal(b2, bin) {
			t.Fatal("an accepted binary state is not written again as it was read")
		}
		f3 := engine.New()
		must(t, f3, "import_state", string(j))
		if j3 := must(t, f3, "export_state", ""); !bytes.Equal(j3, j) {
			t.Fatal("the JSON form of an accepted binary state does not survive a round trip")
		}
	})
}

// reseal recomputes the checksum of every whole piece of b, and the link of
// each segment to the piece before.
func reseal(b []byte) []byte {
	b = bytes.Clone(b)
	var prev uint64
	for off := 0; off+40 <= len(b) && string(b[off:off+4]) == "RMSB"; {
		n := 32 + int(binary.LittleEndian.Uint32(b[off+8:]))
		if off+n+8 > len(b) {
			break
		}
		if off > 0 {
			binary.LittleEndian.PutUint64(b[off+16:], prev)
		}
		prev = xxhash.Sum64(b[off : off+n])
		binary.LittleEndian.PutUint64(b[off+n:], prev)
		off += n + 8
	}
	return b
}

// must runs an export that must succeed (call without t.Helper, which the
// fuzzing engine makes slow).
func must(t *testing.T, e *engine.Engine, name, in string) []byte {
	out, err := e.Call(name, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}
