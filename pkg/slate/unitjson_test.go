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
		{`[{"id":"u1","session":"s1","text":"\u00e9 \u0026 \u003cb\u003e"}]`, true},
		{`[{"id":"u1","session":"s1","text":"\\u00e9"}]`, true}, // a backslash, then text
		{`[{"id":"u1","session":"s1","text":"\ud83d\ude00"}]`, false},
		{`[{"id":"u1","session":"s1","text":"\uDBFF"}]`, false},
		{`[{"id":"u1","session":"s1","text":"\\uD800"}]`, false}, // flagged though literal: the slow way
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

// TestStoreMarshalIsUnitMarshal: the store encodes each unit exactly as
// json.Marshal encodes a Unit, every omitempty field both empty and set,
// with characters encoding/json escapes.
func TestStoreMarshalIsUnitMarshal(t *testing.T) {
	units := []Unit{
		{ID: "u1", Session: "s1", Text: "plain"},
		{ID: "u<2>", Session: "s&1", Date: "8 May, 2023", Time: "2023-05-08", Speaker: "Ann \"A\"", Text: "caf\xe9 \u2028 \n\t", User: "me", Kind: "record"},
		{ID: "u3", Session: "s2", Speaker: "Bob", Text: "x", Kind: "turn"},
	}
	s := NewStore()
	if err := s.Add(units); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(units)
	if string(got) != string(want) {
		t.Errorf("store:\n got %s\nwant %s", got, want)
	}
}
