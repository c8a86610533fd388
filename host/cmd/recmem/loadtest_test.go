package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestLoadtestSmall runs the stateless API's load test at a small size: the
// mixed workload at 1, 2 and 8 clients, with no errors and no lost updates.
func TestLoadtestSmall(t *testing.T) {
	var out, errb bytes.Buffer
	code := doMain([]string{"loadtest", "--requests", "32", "--clients", "1,2,8", "--json", "--wasm", testModule(t)}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var got struct {
		Levels []loadLevel `json:"levels"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Levels) != 3 {
		t.Fatalf("%d levels", len(got.Levels))
	}
	for _, lv := range got.Levels {
		if lv.Requests != 32 || lv.Errors != 0 || lv.LostUpdates != 0 || lv.RPS <= 0 || lv.P50ms <= 0 {
			t.Errorf("level %+v", lv)
		}
	}
}
