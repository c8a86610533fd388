package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/memory"
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
		{`{"units":[{"id":"u1","session":"s1","text":"\u00e9 \u0026"}]}`, true},          // a \u escape of a character reads the same
		{`{"units":[{"id":"u1","session":"s1","text":"\ud83c\udfae"}]}`, false},          // surrogates are left to encoding/json
		{`{"units":[{"id":"u1","session":"s1","text":"\udc00"}]}`, false},                // (an unpaired one becomes U+FFFD there)
		{"{\"units\":[{\"id\":\"u1\",\"session\":\"s1\",\"text\":\"caf\xe9\"}]}", false}, // invalid UTF-8 becomes U+FFFD there
		{"{\"units\":[{\"id\":\"u1\",\"session\":\"s1\",\"text\":\"a\nb\"}]}", false},    // a raw newline in a string is invalid JSON
		{"{\"units\":[{\"text\":\"\x00\\b\"}]}", false},                                  // a raw NUL beside an escape (fastjson took it; found by FuzzDecodeUnitsFast, issue 25)
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
		`{"units":[{"id":"a","session":"b","text":"c\\n\"","kind":"record"}]}`, `{"units":[{"id":"a","session":"b","text":"\u0041\ud800\u00"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameAsStrict(t, s) })
}

// recordAsStrict checks decodeRecordFast against the strict path on one
// input: a fast decode must succeed exactly where, and give exactly what,
// decodeStrict and memory.Signal's decoder give.
func recordAsStrict(t *testing.T, input string) (fast bool) {
	t.Helper()
	signals, maintain, ok := decodeRecordFast([]byte(input))
	if !ok {
		return false
	}
	var in struct {
		Signals  []json.RawMessage `json:"signals"`
		Maintain string            `json:"maintain"`
	}
	if err := decodeStrict([]byte(input), &in); err != nil {
		t.Fatalf("%s: fast path accepted what decodeStrict refuses: %v", input, err)
	}
	want := make([]memory.Signal, len(in.Signals))
	for i, raw := range in.Signals {
		if err := decodeElem(raw, "input.signals", &want[i]); err != nil {
			t.Fatalf("%s: fast path accepted signal %d, which the strict path refuses: %v", input, i, err)
		}
	}
	if !reflect.DeepEqual(signals, want) && !(len(signals) == 0 && len(want) == 0) || maintain != in.Maintain {
		t.Fatalf("%s:\nfast   %+v %q\nstrict %+v %q", input, signals, maintain, want, in.Maintain)
	}
	return true
}

func TestDecodeRecordFast(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{`{"signals":[{"user":"u1","item":"i1","action":"purchase","meta":{"title":"NBA 2K13 - Sony PSP"},"time":1672531200}],"maintain":"fixed"}`, true},
		{`{"signals":[{"user":"u","item":"i","action":"rate","rating":4,"time":0,"client_id":"c1","meta":{"genre":["a","b"],"x":"y"}}]}`, true},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":-5,"meta":{}}]}`, true},
		{`{"signals":[]}`, true},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":1.0}]}`, false},          // not an integer literal there
		{`{"signals":[{"user":"u","item":"i","action":"like","time":1e3}]}`, false},          // nor this
		{`{"signals":[{"user":"u","item":"i","action":"like"}]}`, false},                     // time is required
		{`{"signals":[{"user":"u","item":"i","action":"like","time":null}]}`, false},         // and not null
		{`{"signals":[{"User":"u","item":"i","action":"like","time":1}]}`, false},            // keys match case-insensitively there
		{`{"signals":[{"user":"u","user":"v","item":"i","action":"like","time":1}]}`, false}, // the last wins there
		{`{"signals":[{"user":null,"item":"i","action":"like","time":1}]}`, false},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":1,"meta":{"a":null}}]}`, false},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":1,"meta":{"a":[1]}}]}`, false},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":1,"x":1}]}`, false},
		{`{"signals":[{"user":"u","item":"i","action":"like","time":99999999999999999999}]}`, false},
		{`{"signals":null}`, false},
		{`{"signals":[],"maintain":"none","maintain":"fixed"}`, false},
		{`{"signals":[],"other":1}`, false},
		{`{"signals":[]} {}`, false},
		{`{"signals":[{"user":"\u00e9","item":"\ud83c\udfae","action":"like","time":1}]}`, false},
	}
	for _, tt := range tests {
		if got := recordAsStrict(t, tt.in); got != tt.fast {
			t.Errorf("%s: fast path taken = %v, want %v", tt.in, got, tt.fast)
		}
	}
}

// FuzzDecodeRecordFast: on any input the fast path either declines or
// agrees with the strict path.
func FuzzDecodeRecordFast(f *testing.F) {
	for _, s := range []string{`{"signals":[{"user":"u1","item":"i1","action":"purchase","meta":{"title":"T"},"time":1672531200}],"maintain":"fixed"}`,
		`{"signals":[{"user":"u","item":"i","action":"rate","rating":4,"time":0,"client_id":"c1","meta":{"genre":["a","b"]}}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { recordAsStrict(t, s) })
}

// rankAsStrict checks decodeRankFast against decodeStrict on one input.
func rankAsStrict(t *testing.T, input string) (fast bool) {
	t.Helper()
	got, ok := decodeRankFast([]byte(input))
	if !ok {
		return false
	}
	var want RankInput
	if err := decodeStrict([]byte(input), &want); err != nil {
		t.Fatalf("%s: fast path accepted what decodeStrict refuses: %v", input, err)
	}
	if !reflect.DeepEqual(got, want) && !(len(got.Candidates) == 0 && len(want.Candidates) == 0 &&
		reflect.DeepEqual(got.Instruction, want.Instruction) && got.K == want.K) {
		t.Fatalf("%s:\nfast   %+v\nstrict %+v", input, got, want)
	}
	return true
}

func TestDecodeRankFast(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{`{"candidates":["a","b","c"]}`, true},
		{`{"candidates":["a",{"id":"x","meta":{"title":"T","genre":["g1","g2"]}}],"instruction":"no Halo","k":2}`, true},
		{`{"candidates":[{"id":"x","meta":{}}],"instruction":""}`, true},
		{`{"candidates":[],"k":-1}`, true},
		{`{"candidates":["a"],"instruction":null}`, false}, // null leaves the pointer nil there
		{`{"candidates":["a"],"k":1.5}`, false},
		{`{"candidates":["a"],"K":1}`, false},
		{`{"candidates":["a"],"k":1,"k":2}`, false},
		{`{"candidates":[{"id":"x","meta":{"t":null}}]}`, false},
		{`{"candidates":[{"id":"x","extra":1}]}`, false},
		{`{"candidates":[1]}`, false},
		{`{"candidates":["\ud800"]}`, false},
		{`{"candidates":["a"]} x`, false},
	}
	for _, tt := range tests {
		if got := rankAsStrict(t, tt.in); got != tt.fast {
			t.Errorf("%s: fast path taken = %v, want %v", tt.in, got, tt.fast)
		}
	}
}

// FuzzDecodeRankFast: on any input the fast path either declines or agrees
// with decodeStrict.
func FuzzDecodeRankFast(f *testing.F) {
	for _, s := range []string{`{"candidates":["a","b"],"instruction":"no Halo","k":1}`,
		`{"candidates":[{"id":"x","meta":{"title":"T","genre":["g"]}}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { rankAsStrict(t, s) })
}

// selectAsStrict checks decodeSelectFast against decodeStrict on one input.
func selectAsStrict(t *testing.T, input string) (fast bool) {
	t.Helper()
	got, ok := decodeSelectFast([]byte(input))
	if !ok {
		return false
	}
	var want slate.Request
	if err := decodeStrict([]byte(input), &want); err != nil {
		t.Fatalf("%s: fast path accepted what decodeStrict refuses: %v", input, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\nfast   %+v\nstrict %+v", input, got, want)
	}
	return true
}

func TestDecodeSelectFast(t *testing.T) {
	tests := []struct {
		in   string
		fast bool
	}{
		{`{"query":"When is the pottery class?","budget":2000}`, true},
		{`{"query":"q","date":"2023-05-08","budget":0,"pool":64,"ranker":"bm25","with_pool":true,"explain":false}`, true},
		{`{}`, true},
		{`{"query":"q","explain":true}`, true},
		{`{"query":"q","model":{"kind":"linear"}}`, false}, // a model goes the strict way
		{`{"query":"q","budget":1e3}`, false},
		{`{"query":"q","explain":null}`, false},
		{`{"Query":"q"}`, false},
		{`{"query":"q","query":"r"}`, false},
		{`{"query":1}`, false},
		{`{"query":"q"} {}`, false},
	}
	for _, tt := range tests {
		if got := selectAsStrict(t, tt.in); got != tt.fast {
			t.Errorf("%s: fast path taken = %v, want %v", tt.in, got, tt.fast)
		}
	}
}

// FuzzDecodeSelectFast: on any input the fast path either declines or
// agrees with decodeStrict.
func FuzzDecodeSelectFast(f *testing.F) {
	for _, s := range []string{`{"query":"When is it?","budget":2000}`, `{"query":"q","date":"2023-05-08","pool":64,"ranker":"bm25","with_pool":true,"explain":false}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { selectAsStrict(t, s) })
}
