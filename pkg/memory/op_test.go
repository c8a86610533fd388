package memory

import "testing"

func TestOpNamesCoverOpFields(t *testing.T) {
	if len(OpNames) != len(opFields) {
		t.Fatalf("OpNames has %d ops, opFields %d", len(OpNames), len(opFields))
	}
	for _, n := range OpNames {
		if _, ok := opFields[n]; !ok {
			t.Errorf("op %q has no opFields entry", n)
		}
	}
}
