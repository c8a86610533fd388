package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestMigrateFrozenV1 imports a version 1 document frozen in testdata (no
// checksum) and gets the same memory back as a sealed version 4 document.
func TestMigrateFrozenV1(t *testing.T) {
	v1, err := os.ReadFile("../../testdata/state/v1.json")
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	out, err := e.Call("import_state", v1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"version":4`)) {
		t.Fatalf("import answered %s", out)
	}
	v2, err := e.Call("export_state", nil)
	if err != nil {
		t.Fatal(err)
	}
	var old, cur map[string]json.RawMessage
	json.Unmarshal(v1, &old)
	json.Unmarshal(v2, &cur)
	if string(cur["version"]) != "4" || !strings.HasPrefix(string(cur["checksum"]), `"sha256:`) {
		t.Fatalf("exported header: version %s checksum %s", cur["version"], cur["checksum"])
	}
	var a, b bytes.Buffer
	json.Compact(&a, old["memory"])
	json.Compact(&b, cur["memory"])
	if a.String() != b.String() {
		t.Fatal("migration changed the memory")
	}
	// The migrated document imports again, byte for byte.
	e2 := New()
	if _, err := e2.Call("import_state", v2); err != nil {
		t.Fatal(err)
	}
	again, _ := e2.Call("export_state", nil)
	if !bytes.Equal(again, v2) {
		t.Fatal("version 4 round trip is not byte-identical")
	}
}

// TestIntegrity refuses altered, truncated, unsealed and future documents and
// leaves the state as it was; whitespace alone is not an alteration.
func TestIntegrity(t *testing.T) {
	v1, err := os.ReadFile("../../testdata/state/v1.json")
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	if _, err := e.Call("import_state", v1); err != nil {
		t.Fatal(err)
	}
	sealed, _ := e.Call("export_state", nil)
	var pretty bytes.Buffer
	json.Indent(&pretty, sealed, "", "   ")
	tests := []struct {
		name string
		doc  []byte
		want string // "" means accepted
	}{
		{"sealed", sealed, ""},
		{"reindented", pretty.Bytes(), ""},
		{"strength changed", bytes.Replace(sealed, []byte(`"strength":0.9`), []byte(`"strength":0.8`), 1), "state.checksum: does not match the content"},
		{"checksum removed", bytes.Replace(sealed, []byte(`"checksum":"sha256:`), []byte(`"checksum_":"sha256:`), 1), `unknown field "checksum_"`},
		{"checksum emptied", emptyChecksum(sealed), "state.checksum: missing"},
		{"truncated", sealed[:len(sealed)/2], "input: truncated JSON"},
		{"future version", bytes.Replace(sealed, []byte(`"version":4`), []byte(`"version":5`), 1), "state.version: document version 5 is newer than this module supports (4)"},
		{"v1 with a checksum", bytes.Replace(sealed, []byte(`"version":4`), []byte(`"version":1`), 1), "state.checksum: version 1 documents have no checksum"},
		{"v4 relabelled v3", bytes.Replace(sealed, []byte(`"version":4`), []byte(`"version":3`), 1), "state.checksum: does not match the content"},
	}
	if !bytes.Contains(sealed, []byte(`"strength":0.9`)) {
		t.Fatal("fixture has no chunk of strength 0.9 to alter")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New()
			before, _ := e.Call("export_state", nil)
			_, err := e.Call("import_state", tt.doc)
			after, _ := e.Call("export_state", nil)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("err %v, want %q", err, tt.want)
			case tt.want != "" && !bytes.Equal(before, after):
				t.Fatal("a refused document changed the state")
			}
		})
	}
}

// emptyChecksum empties the checksum value of a sealed document.
func emptyChecksum(doc []byte) []byte {
	i := bytes.Index(doc, []byte(`"checksum":"`))
	j := bytes.IndexByte(doc[i+12:], '"')
	return append(append([]byte{}, doc[:i+12]...), doc[i+12+j:]...)
}

// TestSealedIsMarshal: export_state's single-encoding output is exactly
// json.Marshal of the sealed document, for an empty state and one holding
// memory and units with characters encoding/json escapes.
func TestSealedIsMarshal(t *testing.T) {
	e := New()
	check := func(name string) {
		t.Helper()
		got, err := e.doc.sealed()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(e.doc)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	check("empty")
	for _, in := range []string{
		`{"signals":[{"user":"u","item":"a<b>","action":"purchase","meta":{"title":"Caf\u00e9 & <Co>"},"time":100}],"maintain":"fixed"}`,
	} {
		if _, err := e.Call("record", []byte(in)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Call("add_units", []byte(`{"units":[{"id":"u1","session":"s1","speaker":"Ann","text":"a \u2028 <b> & \"q\""}]}`)); err != nil {
		t.Fatal(err)
	}
	check("memory and units")
}
