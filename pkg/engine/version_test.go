package engine

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/recmem/recmem/pkg/memory"
)

// v3Memory is a memory a version 3 module could write: chunks, no tombstone,
// nothing stated.
func v3Memory(t *testing.T) *memory.State {
	t.Helper()
	m := memory.New(memory.Config{})
	if _, err := m.Record([]memory.Signal{{User: "u", Item: "a", Action: "like", Meta: map[string][]string{"genre": {"RPG"}}, Time: 10}}, memory.Fixed{}, memory.Policy{}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Apply(20, "user", []memory.Op{{Op: "extract"}}, memory.Policy{}); err != nil {
		t.Fatal(err)
	}
	return m
}

// sealedAs is d's document sealed as version v.
func sealedAs(t *testing.T, m *memory.State, v int) []byte {
	t.Helper()
	d := &Document{Schema: SchemaName, Version: v, Memory: m}
	out, err := d.sealed()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMigrateV3 imports version 3 documents, JSON and binary: the memory
// comes back unchanged as version 4; one holding what only version 4 has
// (a tombstone, a stated chunk) is refused naming the field.
func TestMigrateV3(t *testing.T) {
	m := v3Memory(t)
	e := New()
	if _, err := e.Call("import_state", sealedAs(t, m, 3)); err != nil {
		t.Fatal(err)
	}
	out, _ := e.Call("export_state", nil)
	if !bytes.Equal(out, sealedAs(t, m, 4)) {
		t.Fatalf("version 3 did not come back as the same memory in version 4:\n%s", out)
	}

	// A binary state written by a version 3 module (its pieces say 3).
	bin, err := e.Call("export_state", []byte(`{"format":"binary"}`))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(bin[24:], 3)
	n := len(bin) - trailerLen
	binary.LittleEndian.PutUint64(bin[n:], xxhash.Sum64(bin[:n]))
	e3 := New()
	if _, err := e3.Call("import_state", bin); err != nil {
		t.Fatalf("a version 3 binary state: %v", err)
	}
	if got, _ := e3.Call("export_state", nil); !bytes.Equal(got, out) {
		t.Fatalf("binary version 3 gave another memory:\n%s", got)
	}

	stated := m.Clone()
	stated.Chunks[0].Stated = true
	buried := m.Clone()
	buried.Tombstones = []memory.Tombstone{{Chunk: "c9", Category: "genre", Key: "horror", Polarity: "likes", Text: "Enjoys Horror", Before: 1, Time: 5}}
	buried.Counters.NextChunk = 10
	for _, c := range []struct {
		name string
		m    *memory.State
		want string
	}{
		{"stated", stated, "state.memory.chunks[0].stated: not part of version 3 documents"},
		{"tombstones", buried, "state.memory.tombstones: not part of version 3 documents"},
	} {
		if err := c.m.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e := New()
		before, _ := e.Call("export_state", nil)
		_, err := e.Call("import_state", sealedAs(t, c.m, 3))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		if after, _ := e.Call("export_state", nil); !bytes.Equal(before, after) {
			t.Errorf("%s: a refused document changed the state", c.name)
		}
		// And as version 4, it imports.
		if _, err := New().Call("import_state", sealedAs(t, c.m, 4)); err != nil {
			t.Errorf("%s as version 4: %v", c.name, err)
		}
	}
}
