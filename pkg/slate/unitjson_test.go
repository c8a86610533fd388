package slate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestParseUnitsArray: on a bare array, ParseUnits either declines or gives
// what the store's strict decoder gives.
func TestParseUnitsArray(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{`[{"id":"u1","session":"s1","text":"hello","kind":"record"}]`, true},
		{`[]`, true},
		{`[{"id":"u1","session":"s1","text":"x","extra":1}]`, false},
		{`[{"Id":"u1","session":"s1","text":"x"}]`, false},
		{`[{"id":"u1","session":"s1","text":"\u00e9"}]`, false},
		{`{"units":[]}`, false},
	}
	for _, tt := range tests {
		units, ok := ParseUnits([]byte(tt.in), "")
		if ok != tt.fast {
			t.Errorf("%s: fast = %v, want %v", tt.in, ok, tt.fast)
		}
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(tt.in)))
		dec.DisallowUnknownFields()
		var want []Unit
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("%s: strict decoder refuses what the fast path took: %v", tt.in, err)
		}
		if !reflect.DeepEqual(units, want) && len(units)+len(want) > 0 {
			t.Errorf("%s: fast %+v, strict %+v", tt.in, units, want)
		}
	}
}
