package slate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/workload"
)

// locomoUnits returns n units of LoCoMo turns, as the benchmarks use them.
func locomoUnits(t testing.TB, n int) ([]slate.Unit, []string) {
	t.Helper()
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
	if err != nil {
		t.Skipf("LoCoMo: %v", err)
	}
	us := make([]slate.Unit, len(m.Units))
	for i, u := range m.Units {
		us[i] = slate.Unit{ID: u["id"], Session: u["session"], Date: u["date"], Time: u["time"], Speaker: u["speaker"], Text: u["text"]}
	}
	return us, m.Questions
}

// selections returns the JSON of every ranker's slate for the questions: the
// outputs a binary state must leave byte-identical.
func selections(t testing.TB, s *slate.Store, questions []string) []byte {
	t.Helper()
	var out bytes.Buffer
	for i, q := range questions {
		for _, ranker := range []string{"learned", "bm25", "dense", "rrf"} {
			res, err := s.Select(slate.Request{Query: q, Budget: 1000, Ranker: ranker, WithPool: i%3 == 0})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(b)
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

func jsonOf(t testing.TB, s *slate.Store) []byte {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fromJSON(t testing.TB, b []byte) *slate.Store {
	t.Helper()
	s := slate.NewStore()
	if err := s.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBinarySameUnitsAndSlates writes LoCoMo stores in binary, reads them
// back, and checks the units, the slates of every ranker, and that writing
// again gives the same bytes, as does writing the store read from JSON.
func TestBinarySameUnitsAndSlates(t *testing.T) {
	for _, n := range []int{300, 2000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			us, qs := locomoUnits(t, n)
			live := slate.NewStore()
			if err := live.Add(us); err != nil {
				t.Fatal(err)
			}
			bin := live.AppendBinary(nil)
			read, err := slate.ReadBinary(bin, lim)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(jsonOf(t, read), jsonOf(t, live)) {
				t.Fatal("units differ after a binary round trip")
			}
			qs = qs[:12]
			want := selections(t, live, qs)
			if got := selections(t, read, qs); !bytes.Equal(got, want) {
				t.Fatal("slates differ after a binary round trip")
			}
			if again := read.AppendBinary(nil); !bytes.Equal(again, bin) {
				t.Fatal("binary -> store -> binary is not byte-identical")
			}
			if viaJSON := fromJSON(t, jsonOf(t, read)).AppendBinary(nil); !bytes.Equal(viaJSON, bin) {
				t.Fatal("binary -> JSON -> binary is not byte-identical")
			}
			t.Logf("%d units: JSON %d bytes, binary %d bytes", n, len(jsonOf(t, live)), len(bin))
		})
	}
}

// TestSegmentsFollowChanges changes a marked store (adds, deletes, a purge,
// a session's first unit deleted while the session lives on), writes the
// change as segments, and applies them to the base read back: the result
// holds the same units, gives the same slates, and writes the same base as
// the live store and as a store read from its JSON.
func TestSegmentsFollowChanges(t *testing.T) {
	us, qs := locomoUnits(t, 600)
	qs = qs[:8]
	live := slate.NewStore()
	if err := live.Add(us[:400]); err != nil {
		t.Fatal(err)
	}
	base := live.AppendBinary(nil)
	var segs [][]byte
	steps := []func() error{
		func() error { return live.Add(us[400:450]) },
		func() error { return live.Delete([]string{us[0].ID, us[420].ID, us[399].ID}) },
		func() error {
			// A new unit in the first session, then that session's old first
			// units deleted: the session lives on through the new one.
			u := us[1]
			u.ID, u.Text = "late", "A late word about the first session, with brand-new zyzzyvas."
			if err := live.Add([]slate.Unit{u}); err != nil {
				return err
			}
			return live.Delete([]string{us[1].ID, us[2].ID})
		},
		func() error { live.Purge(us[100].Session, ""); return live.Add(us[450:600]) },
		func() error { return nil }, // nothing changed
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		segs = append(segs, live.AppendSegment(nil))
	}
	read, err := slate.ReadBinary(base, lim)
	if err != nil {
		t.Fatal(err)
	}
	for i, seg := range segs {
		if err := read.ApplySegment(seg, lim); err != nil {
			t.Fatalf("segment %d: %v", i, err)
		}
	}
	if !bytes.Equal(jsonOf(t, read), jsonOf(t, live)) {
		t.Fatal("units differ after the segments")
	}
	fresh := fromJSON(t, jsonOf(t, live))
	want := selections(t, fresh, qs)
	if got := selections(t, read, qs); !bytes.Equal(got, want) {
		t.Fatal("slates after the segments differ from a fresh import's")
	}
	if got := selections(t, live, qs); !bytes.Equal(got, want) {
		t.Fatal("the live store's slates differ from a fresh import's")
	}
	if a, b := read.AppendBinary(nil), fresh.AppendBinary(nil); !bytes.Equal(a, b) {
		t.Fatal("the base written after the segments differs from a fresh import's")
	}
	// Nothing removed, no token, no unit, six empty dicts.
	if len(segs[4]) != 9 {
		t.Errorf("an empty segment is %d bytes, want 9", len(segs[4]))
	}
}

var lim = slate.Limits{Units: 100_000, TextBytes: 16 << 20}

// TestBinaryLimits reads a state whose few bytes would unfold into more
// text than a state may hold: refused, naming the unit.
func TestBinaryLimits(t *testing.T) {
	s := slate.NewStore()
	long := strings.Repeat("x", 60_000)
	var us []slate.Unit
	for i := range 40 {
		us = append(us, slate.Unit{ID: fmt.Sprint(i), Session: "s", Text: long})
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	bin := s.AppendBinary(nil)
	if len(bin) > 61_000 {
		t.Fatalf("%d bytes: the long token is not shared", len(bin))
	}
	_, err := slate.ReadBinary(bin, slate.Limits{Units: 100, TextBytes: 1 << 20})
	if err == nil || err.Error() != "units[17].text: the units' texts pass 1048576 bytes, the most a state holds" {
		t.Errorf("err = %v", err)
	}
	if _, err := slate.ReadBinary(bin, slate.Limits{Units: 39, TextBytes: 1 << 30}); err == nil || !strings.Contains(err.Error(), "(at most 39 units in a state)") {
		t.Errorf("err = %v", err)
	}
}

// TestAppendBinaryWritten checks the written section a store keeps between
// writes: after each step, writing the store (twice, the second a copy of
// the first when nothing changed) gives the bytes a store that never wrote
// before gives for the same units (one read from the store's JSON); and a
// segment written after a copied write holds exactly the change since.
func TestAppendBinaryWritten(t *testing.T) {
	us, qs := locomoUnits(t, 300)
	live := slate.NewStore()
	if err := live.Add(us[:200]); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"nothing", func() error { return nil }},
		{"a select (the lexicon learns the query's words)", func() error {
			_, err := live.Select(slate.Request{Query: qs[0] + " zyzzyva", Budget: 500})
			return err
		}},
		{"add", func() error { return live.Add(us[200:250]) }},
		{"delete", func() error { return live.Delete([]string{us[3].ID, us[220].ID}) }},
		{"purge", func() error { live.Purge(us[5].Session, ""); return nil }},
		{"a segment, then add", func() error {
			live.AppendSegment(nil)
			return live.Add(us[250:260])
		}},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got := live.AppendBinary(nil)
		again := live.AppendBinary([]byte("x"))
		want := fromJSON(t, jsonOf(t, live)).AppendBinary(nil)
		if !bytes.Equal(got, want) || !bytes.Equal(again[1:], want) {
			t.Fatalf("after %s: the store writes other bytes than a fresh store of its units", st.name)
		}
	}
	prev := live.AppendBinary(nil) // a copy
	if err := live.Add(us[260:270]); err != nil {
		t.Fatal(err)
	}
	seg := live.AppendSegment(nil)
	read, err := slate.ReadBinary(prev, lim)
	if err != nil {
		t.Fatal(err)
	}
	if err := read.ApplySegment(seg, lim); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(jsonOf(t, read), jsonOf(t, live)) {
		t.Fatal("a segment after a copied write does not hold the change")
	}
}
