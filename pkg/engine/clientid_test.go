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
// id with the same signal is acknowledged (listed under "repeated") and not
// recorded again, in the same call or a later one, and the ids seen survive
// an export and import.
func TestRepeatedClientIDIsNotAppliedTwice(t *testing.T) {
	e := New()
	like := `{"user":"u","item":"g1","action":"dislike","meta":{"series":"Uncharted"},"time":%d,"client_id":"click-%d"}`
	out, err := e.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 10, 1)+`,`+fmt.Sprintf(like, 10, 1)+`],"maintain":"none"}`))
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
	out, err = e2.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 10, 1)+`,`+fmt.Sprintf(like, 13, 2)+`],"maintain":"none"}`))
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
	if _, err := e2.Call("record", []byte(`{"signals":[`+fmt.Sprintf(like, 13, 2)+`],"maintain":"none"}`)); err != nil {
		t.Fatal(err)
	}
	if after, _ := e2.Call("export_state", nil); !bytes.Equal(before, after) {
		t.Fatal("an all-repeat record changed the state")
	}
}

// TestClientIDReusedForAnotherSignal (issue 22, finding 6): a client_id
// reused for a different signal was acknowledged as a repeat and the signal
// silently dropped. An id names one signal, as an idempotency key names one
// request (Stripe refuses a key reused with another payload): the call is
// refused, naming the id and both signals' fingerprints, and nothing of it
// is recorded; the same signal under its id is still a repeat.
func TestClientIDReusedForAnotherSignal(t *testing.T) {
	e := New()
	sig := func(item, action string, time int, id string) string {
		return fmt.Sprintf(`{"user":"u","item":%q,"action":%q,"time":%d,"client_id":%q}`, item, action, time, id)
	}
	if _, err := e.Call("record", []byte(`{"signals":[`+sig("a", "like", 10, "k1")+`],"maintain":"none"}`)); err != nil {
		t.Fatal(err)
	}
	before, _ := e.Call("export_state", nil)
	for name, in := range map[string]string{
		"another item":          sig("b", "like", 10, "k1"),
		"another action":        sig("a", "dislike", 10, "k1"),
		"another time":          sig("a", "like", 11, "k1"),
		"within one call":       sig("c", "like", 12, "k2") + `,` + sig("d", "like", 12, "k2"),
		"after a valid new one": sig("e", "like", 12, "k3") + `,` + sig("z", "skip", 12, "k1"),
	} {
		_, err := e.Call("record", []byte(`{"signals":[`+in+`],"maintain":"none"}`))
		if err == nil || !strings.Contains(err.Error(), `.client_id: "k`) || !strings.Contains(err.Error(), "was given to another signal already") {
			t.Errorf("%s: %v", name, err)
		}
		if after, _ := e.Call("export_state", nil); !bytes.Equal(after, before) {
			t.Fatalf("%s: a refused record changed the state", name)
		}
	}
	out, err := e.Call("record", []byte(`{"signals":[`+sig("a", "like", 10, "k1")+`],"maintain":"none"}`))
	if err != nil || !strings.Contains(string(out), `"repeated":["k1"]`) {
		t.Fatalf("the same signal again: %s %v", out, err)
	}
	// A client id kept from a version 3 document has no fingerprint: a
	// repeat of it is acknowledged, as version 3 did.
	e3 := New()
	if _, err := e3.Call("import_state", readFile(t, "../../testdata/state/v3.json")); err != nil {
		t.Fatal(err)
	}
	out, err = e3.Call("record", []byte(`{"signals":[`+sig("other", "like", 1700007200, "tap-1")+`],"maintain":"none"}`))
	if err != nil || !strings.Contains(string(out), `"repeated":["tap-1"]`) {
		t.Fatalf("an id from version 3: %s %v", out, err)
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
	if len(ids) != 256 || ids[0].ID != "c44" || ids[255].ID != "c299" || len(ids[0].Signal) != 16 {
		t.Fatalf("kept %d ids, %v..%v", len(ids), ids[0], ids[len(ids)-1])
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
	v4, _ := e.Call("export_state", nil)
	var old, cur map[string]json.RawMessage
	json.Unmarshal(v2, &old)
	json.Unmarshal(v4, &cur)
	if string(cur["version"]) != "4" || !bytes.Equal(old["memory"], cur["memory"]) || !bytes.Equal(old["units"], cur["units"]) {
		t.Fatalf("migration changed the content:\n%s\n%s", v2, v4)
	}
	// An altered version 2 document is still refused by its checksum.
	bad := bytes.Replace(v2, []byte(`"polarity":"likes"`), []byte(`"polarity":"avoids"`), 1)
	callWant(t, New(), "import_state", string(bad), "state.checksum: does not match the content")
}

// TestMigrateFrozenV3 imports a version 3 document frozen in testdata (made
// by the module of version 3: two signals with client ids, a unit) and gets
// the same content back as a version 4 document, its client ids kept
// without a fingerprint (written as version 3 wrote them); its checksum
// still refuses an altered copy.
func TestMigrateFrozenV3(t *testing.T) {
	v3 := readFile(t, "../../testdata/state/v3.json")
	e := New()
	if _, err := e.Call("import_state", v3); err != nil {
		t.Fatal(err)
	}
	v4, _ := e.Call("export_state", nil)
	var old, cur struct {
		Version int                        `json:"version"`
		Memory  map[string]json.RawMessage `json:"memory"`
		Units   json.RawMessage            `json:"units"`
	}
	json.Unmarshal(v3, &old)
	json.Unmarshal(v4, &cur)
	if cur.Version != 4 || string(cur.Memory["client_ids"]) != `["tap-1","tap-2"]` || !bytes.Equal(old.Units, cur.Units) {
		t.Fatalf("migration: %s\n%s", old.Memory["client_ids"], cur.Memory["client_ids"])
	}
	for k, v := range old.Memory {
		if !bytes.Equal(v, cur.Memory[k]) {
			t.Errorf("memory.%s changed", k)
		}
	}
	// A new signal's id is kept with its fingerprint beside them.
	out, err := e.Call("record", []byte(`{"signals":[{"user":"u1","item":"g3","action":"like","time":1700007200,"client_id":"tap-3"}],"maintain":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := e.Call("export_state", nil)
	if !bytes.Contains(doc, []byte(`"client_ids":["tap-1","tap-2",{"id":"tap-3","signal":"`)) {
		t.Fatalf("after a new signal: %s", out)
	}
	bad := bytes.Replace(v3, []byte(`"tap-2"`), []byte(`"tap-9"`), 1)
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
