package memory

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSignalUnmarshalJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     Signal
		err      string
	}{
		{"meta string becomes one value", `{"user":"u","item":"i","action":"like","meta":{"title":"Halo"},"time":5}`,
			Signal{User: "u", Item: "i", Action: "like", Meta: map[string][]string{"title": {"Halo"}}, Time: 5}, ""},
		{"meta array and client id", `{"user":"u","item":"i","action":"rate","rating":4,"meta":{"genre":["a","b"]},"time":0,"client_id":"c1"}`,
			Signal{User: "u", Item: "i", Action: "rate", Rating: 4, Meta: map[string][]string{"genre": {"a", "b"}}, ClientID: "c1"}, ""},
		{"time is required", `{"user":"u","item":"i","action":"like"}`, Signal{}, "time: required"},
		{"meta null", `{"user":"u","item":"i","action":"like","meta":{"a":null},"time":1}`, Signal{}, "meta.a: must be a string or an array of strings"},
		{"meta number, first field in order", `{"user":"u","item":"i","action":"like","meta":{"z":1,"b":2},"time":1}`, Signal{}, "meta.b: must be a string or an array of strings"},
		{"unknown field", `{"user":"u","item":"i","action":"like","time":1,"x":1}`, Signal{}, `json: unknown field "x"`},
	}
	for _, tt := range tests {
		var got Signal
		err := json.Unmarshal([]byte(tt.in), &got)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
		// What Marshal writes reads back the same.
		b, _ := json.Marshal(got)
		var back Signal
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("%s: round trip %s gives %+v, %v", tt.name, b, back, err)
		}
	}
}
