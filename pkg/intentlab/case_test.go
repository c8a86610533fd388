package intentlab

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGold(t *testing.T) {
	halo := map[string]string{"title": "Halo 3 - Xbox 360", "platform": "Xbox 360", "kind": "game"}
	pad := map[string]string{"title": "Xbox 360 Wireless Controller", "platform": "Xbox 360", "kind": "accessory"}
	ac := map[string]string{"title": "Assassin's Creed II - PlayStation 3", "platform": "PlayStation 3", "kind": "game"}
	tests := []struct {
		gold string
		want [3]bool // halo, pad, ac
	}{
		{`{"title": "halo"}`, [3]bool{true, false, false}},
		{`{"not": {"title": "halo"}}`, [3]bool{false, true, true}},
		{`{"title": ["controller", "assassin s creed"]}`, [3]bool{false, true, true}},
		{`{"title": "hal"}`, [3]bool{false, false, false}}, // whole words only
		{`{"platform": "xbox 360"}`, [3]bool{true, true, false}},
		{`{"all": [{"platform": "Xbox 360"}, {"not": {"kind": "accessory"}}]}`, [3]bool{true, false, false}},
		{`{"any": [{"kind": "accessory"}, {"platform": "PlayStation 3"}]}`, [3]bool{false, true, true}},
	}
	for _, tt := range tests {
		var g Gold
		if err := json.Unmarshal([]byte(tt.gold), &g); err != nil {
			t.Fatalf("%s: %v", tt.gold, err)
		}
		got := [3]bool{g.Holds(halo), g.Holds(pad), g.Holds(ac)}
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.gold, got, tt.want)
		}
	}
}

func TestReadCasesErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"id":"a","kind":"negation","instruction":"no x"}`, "line 1: id, instruction and gold are required"},
		{`{"id":"a","kind":"mood","instruction":"x","gold":{"title":"x"}}`, `line 1: kind: "mood" is not one of`},
		{"{\"id\":\"a\",\"kind\":\"only\",\"instruction\":\"x\",\"gold\":{\"title\":\"x\"}}\n{\"id\":\"a\",\"kind\":\"only\",\"instruction\":\"y\",\"gold\":{\"title\":\"y\"}}", `line 2: id "a" repeated`},
		{`{"id":"a","kind":"only","instruction":"x","gold":{"title":"x","platform":"y"}}`, "want exactly one key"},
		{`{"id":"a","kind":"only","instruction":"x","gold":{"title":"x"},"extra":1}`, `unknown field "extra"`},
	} {
		_, err := ReadCases([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.want)
		}
	}
}
