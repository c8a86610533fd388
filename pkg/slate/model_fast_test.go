package slate

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestParseModelFast: the fast reader gives exactly json.Unmarshal's model
// for the embedded file and for small hand-written ones, and refuses what
// it does not know.
func TestParseModelFast(t *testing.T) {
	for _, in := range []string{
		string(modelJSON),
		`{"kind":"linear","features":["bm25"],"mean":[0.5],"scale":[2],"weights":[-1.25e-3],"bias":0.1,"note":"x"}`,
		`{"kind":"gbdt","features":["bm25","dense"],"mean":null,"scale":null,"weights":null,"bias":0,"trees":[{"feature":[0,-1,-1],"threshold":[0.3,0,0],"left":[1,0,0],"right":[2,0,0],"value":[0,-0.5,0.75]}]}`,
	} {
		var want Model
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		got, err := parseModelFast([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("fast reader differs from encoding/json on %.80s", in)
		}
	}
	for _, bad := range []string{`{"kind":"linear","extra":1}`, `{"trees":[{"feature":["a"]}]}`, `[1]`, `{"bias":"x"}`} {
		if _, err := parseModelFast([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
