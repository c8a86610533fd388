package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallFlagsAnywhere: flags work before and after the input argument, as
// the README writes them, and a second input is refused.
func TestCallFlagsAnywhere(t *testing.T) {
	state := filepath.Join(t.TempDir(), "me.json")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := doMain(append([]string{"call"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	rec := `{"signals":[{"user":"u","item":"a","action":"like","time":1}],"maintain":"none"}`
	if code, _, e := run("record", rec, "--native", "--save", state); code != 0 {
		t.Fatalf("flags after the input: exit %d: %s", code, e)
	}
	code, out, e := run("get_memory", "--native", "--state", state)
	if code != 0 || !strings.Contains(out, `"item":"a"`) {
		t.Fatalf("state saved by flags after the input not found: exit %d: %s %s", code, out, e)
	}
	if code, _, e := run("record", rec, rec, "--native"); code != 2 || !strings.Contains(e, "give the input once") {
		t.Fatalf("two inputs: exit %d: %s", code, e)
	}
}
