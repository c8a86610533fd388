package engine

import (
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/slate"
)

// sameAsStrict checks decodeUnitsFast against decodeStrict on one input: a
// fast decode must succeed exactly where, and give exactly what, the strict
// decoder gives.
func sameAsStrict(t *testing.T, input string) (fast bool) {
	t.Helper()
	units, ok := decodeUnitsFast([]byte(input))
	var in struct {
		Units []slate.Unit `json:"units"`
	}
	err := decodeStrict([]byte(input), &in)
	if ok {
		if err != nil {
			t.Fatalf("%s: fast path accepted what decodeStrict refuses: %v", input, err)
		}
		if !reflect.DeepEqual(units, in.Units) && !(len(units) == 0 && len(in.Units) == 0) {
			t.Fatalf("%s:\nfast   %+v\nstrict %+v", input, units, in.Units)
		}
	}
	return ok
}

func TestDecodeUnitsFast(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{`{"units":[{"id":"u1","session":"s1","text":"hello"}]}`, true},
		{` {"units":[{"id":"u1","session":"s1","date":"8 May","time":"2023-05-08","speaker":"Ann","text":"a \"b\" \\ \n","user":"x","kind":"turn"}]} `, true},
		{`{"units":[]}`, true},
		{`{"units":[{"id":"é","session":"s","text":"🎮 <b>"}]}`, true},
		{`{"units":[{"ID":"u1","session":"s1","text":"x"}]}`, false},                     // encoding/json matches keys case-insensitively
		{`{"units":[{"id":"u1","id":"u2","session":"s1","text":"x"}]}`, false},           // duplicate: the last one wins there
		{`{"units":[{"id":null,"session":"s1","text":"x"}]}`, false},                     // null leaves the field empty there
		{`{"units":[{"id":"u1","session":"s1","text":"\u00e9"}]}`, false},                // \u escapes are left to encoding/json
		{"{\"units\":[{\"id\":\"u1\",\"session\":\"s1\",\"text\":\"caf\xe9\"}]}", false}, // invalid UTF-8 becomes U+FFFD there
		{"{\"units\":[{\"id\":\"u1\",\"session\":\"s1\",\"text\":\"a\nb\"}]}", false},    // a raw newline in a string is invalid JSON
		{`{"units":[{"id":1,"session":"s1","text":"x"}]}`, false},
		{`{"units":[{"id":"u1","session":"s1","text":"x","extra":"y"}]}`, false},
		{`{"units":[{"id":"u1","session":"s1","text":"x"}],"more":1}`, false},
		{`{"units":[{"id":"u1","session":"s1","text":"x"}]} trailing`, false},
		{`{"units":{"id":"u1"}}`, false},
		{`{"units":["u1"]}`, false},
		{`[]`, false},
		{``, false},
		{`{"units":[{"id":"u1","session":"s1","text":"x"}]`, false},
	}
	for _, tt := range tests {
		if got := sameAsStrict(t, tt.in); got != tt.fast {
			t.Errorf("%q: fast path taken = %v, want %v", tt.in, got, tt.fast)
		}
	}
}

// FuzzDecodeUnitsFast: on any input the fast path either declines or agrees
// with decodeStrict.
func FuzzDecodeUnitsFast(f *testing.F) {
	for _, s := range []string{`{"units":[{"id":"u1","session":"s1","text":"hello"}]}`, `{"units":[{"ID":"a","session":"b","text":"c"}]}`,
		`{"units":[{"id":"a","session":"b","text":"c\\n\"","kind":"record"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameAsStrict(t, s) })
}
