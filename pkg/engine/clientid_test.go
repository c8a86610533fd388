package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRepeatedClientIDIsNotAppliedTwice (issue 17, item 6): a double-click on
// Like stored two like events, a triple-click on Dislike three, which made a
// strong "avoids". A signal's client_id makes a retry harmless: a repeated
// id is acknowledged (listed under "repeated") and not recorded again, in the
// same call or a later one, and the ids seen survive an export and import.
func TestRepeatedClientIDIsNotAppliedTwice(t *testing.T) {
	e := New()
	like := `{"user":"u","item":"g1","action":"dislike","meta":{"series":"Uncharted"},"time":%d,"client_id":"click-%d"}`
	out, err := e.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 10, 1)+`,`+fmt.Sprintf(like, 11, 1)+`],"maintain":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		EventsAdded int      `json:"events_added"`
		Repeated    []string `json:"repeated"`
	}
	json.Unmarshal(out, &r)
	if r.EventsAdded != 1 || len(r.Repeated) != 1 || r.Repeated[0] != "click-1" {
		t.Fatalf("a repeat within one call: %s", out)
	}
	// Round trip, then the retry of the same click and a third click.
	doc, _ := e.Call("export_state", nil)
	e2 := New()
	if _, err := e2.Call("import_state", doc); err != nil {
		t.Fatal(err)
	}
	out, err = e2.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 12, 1)+`,`+fmt.Sprintf(like, 13, 2)+`],"maintain":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	r.Repeated = nil
	json.Unmarshal(out, &r)
	if r.EventsAdded != 1 || len(r.Repeated) != 1 {
		t.Fatalf("a retry after a round trip: %s", out)
	}
	if n := len(e2.doc.Memory.Events); n != 2 {
		t.Fatalf("%d events, want 2", n)
	}
	// A signal without a client id is always recorded.
	if _, err := e2.Call("record", []byte(`{"signals":[{"user":"u","item":"g1","action":"like","time":14}],"maintain":"none"}`)); err != nil {
		t.Fatal(err)
	}
	// A call whose every signal repeats changes nothing.
	before, _ := e2.Call("export_state", nil)
	if _, err := e2.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 15, 2)+`],"maintain":"none"}`)); err != nil {
		t.Fatal(err)
	}
	if after, _ := e2.Call("export_state", nil); !bytes.Equal(before, after) {
		t.Fatal("an all-repeat record changed the state")
	}
}

// TestClientIDsAreBounded: the memory keeps the newest memory.MaxClientIDs
// ids; an id is checked like any other id.
func TestClientIDsAreBounded(t *testing.T) {
	e := New()
	var sigs []string
	for i := range 300 {
		sigs = append(sigs, fmt.Sprintf(`{"user":"u","item":"g%d","action":"view","time":%d,"client_id":"c%d"}`, i, i, i))
	}
	if _, err := e.Call("record", []byte(`{"signals":[`+strings.Join(sigs, ",")+`],"maintain":"none"}`)); err != nil {
		t.Fatal(err)
	}
	ids := e.doc.Memory.ClientIDs
	if len(ids) != 256 || ids[0] != "c44" || ids[255] != "c299" {
		t.Fatalf("kept %d ids, %s..%s", len(ids), ids[0], ids[len(ids)-1])
	}
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"g","action":"like","time":400,"client_id":"x\u0000"}]}`,
		"record: input.signals[0].client_id: contains U+0000")
	callWant(t, e, "record", `{"signals":[{"user":"u","item":"g","action":"like","time":400,"client_id":"`+strings.Repeat("x", 129)+`"}]}`,
		"record: input.signals[0].client_id: longer than 128 bytes")
}

// TestMigrateFrozenV2 imports a version 2 document frozen in testdata and
// gets the same memory and units back as a version 4 document.
func TestMigrateFrozenV2(t *testing.T) {
	v2 := readFile(t, "../../testdata/state/v2.json")
	e := New()
	out, err := e.Call("import_state", v2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"version":4`)) {
		t.Fatalf("import answered %s", out)
	}
	v3, _ := e.Call("export_state", nil)
	var old, cur map[string]json.RawMessage
	json.Unmarshal(v2, &old)
	json.Unmarshal(v3, &cur)
	if string(cur["version"]) != "4" || !bytes.Equal(old["memory"], cur["memory"]) || !bytes.Equal(old["units"], cur["units"]) {
		t.Fatalf("migration changed the content:\n%s\n%s", v2, v3)
	}
	// An altered version 2 document is still refused by its checksum.
	bad := bytes.Replace(v2, []byte(`"polarity":"likes"`), []byte(`"polarity":"avoids"`), 1)
	callWant(t, New(), "import_state", string(bad), "state.checksum: does not match the content")
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
