package rec

import "testing"

func TestHeldOut(t *testing.T) {
	// FNV-1a 32 of "neg-halo-1" is 0x67d3fff4 (1,741,946,868), modulo 5 is 3:
	// not held out; the split is fixed by the ids alone.
	if HeldOut("neg-halo-1") {
		t.Error("neg-halo-1 is held out")
	}
	n := 0
	for i := range 1000 {
		if HeldOut("case-" + string(rune('a'+i%26)) + string(rune('a'+i/26))) {
			n++
		}
	}
	if n < 150 || n > 250 {
		t.Errorf("%d of 1000 held out, want about a fifth", n)
	}
}
