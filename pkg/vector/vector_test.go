package vector

import (
	"math"
	"testing"
)

func TestDefaultTable(t *testing.T) {
	tb := Default()
	if tb.Len() < 10000 || tb.Dim() < 16 {
		t.Fatalf("table has %d words of %d dims", tb.Len(), tb.Dim())
	}
	if r, ok := tb.Rank("the"); !ok || r != 0 {
		t.Fatalf("rank(the) = %d, %v", r, ok)
	}
	for _, w := range []string{"cat", "dog", "painting", "zzqxv"} {
		v, _ := tb.Word(w)
		if n := Dot(v, v); math.Abs(n-1) > 1e-5 {
			t.Errorf("|%s|² = %v", w, n)
		}
	}
	cat, _ := tb.Word("cat")
	dog, _ := tb.Word("dog")
	tax, _ := tb.Word("taxes")
	if Dot(cat, dog) <= Dot(cat, tax) {
		t.Errorf("cos(cat,dog)=%.3f not above cos(cat,taxes)=%.3f", Dot(cat, dog), Dot(cat, tax))
	}
}

func TestHashedIsDeterministicAndUnit(t *testing.T) {
	a, b := Hashed("caroline", 32), Hashed("caroline", 32)
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("hashed vectors differ")
		}
	}
	if n := Dot(a, a); math.Abs(n-1) > 1e-6 {
		t.Fatalf("norm² %v", n)
	}
	if Dot(a, Hashed("carolines", 32)) <= Dot(a, Hashed("xylophone", 32)) {
		t.Error("spelling variant not closer than an unrelated word")
	}
	_ = Hashed("", 8) // must not panic
	_ = Hashed("é", 8)
}

func TestSentence(t *testing.T) {
	tb := Default()
	pets := tb.Sentence([]string{"my", "cat", "and", "dog"})
	kitten := tb.Sentence([]string{"a", "kitten", "and", "a", "puppy"})
	money := tb.Sentence([]string{"tax", "rates", "and", "the", "budget"})
	if Dot(pets, kitten) <= Dot(pets, money) {
		t.Errorf("pets·kitten %.3f <= pets·money %.3f", Dot(pets, kitten), Dot(pets, money))
	}
	if z := tb.Sentence(nil); Dot(z, z) != 0 {
		t.Error("empty sentence is not zero")
	}
}

func TestParseRejectsBadTables(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("RMWV"), append([]byte("RMWV\x01\x02\x01\x00\x00\x00\x01\x00\x00\x00a"), 1)} {
		if _, err := Parse(b); err == nil {
			t.Errorf("Parse(%q) succeeded", b)
		}
	}
	if _, err := Parse(append([]byte("RMWV\x01\x02\x01\x00\x00\x00\x01\x00\x00\x00a"), 1, 2)); err != nil {
		t.Errorf("minimal table: %v", err)
	}
}

func TestMaxSim(t *testing.T) {
	x := []float32{1, 0}
	y := []float32{0, 1}
	got := MaxSim([][]float32{x, y}, [][]float32{x}, []float64{3, 1})
	if want := (3*1.0 + 1*0.0) / 4; got != want {
		t.Errorf("MaxSim = %v, want %v", got, want)
	}
}

func TestNeighbours(t *testing.T) {
	tb := Default()
	ns := tb.Neighbours("pottery", 5, 0.3)
	if len(ns) == 0 || len(ns) > 5 {
		t.Fatalf("neighbours(pottery) = %v", ns)
	}
	v, _ := tb.Word("pottery")
	prev := 2.0
	for _, n := range ns {
		w, _ := tb.Word(n)
		c := Dot(v, w)
		if n == "pottery" || c < 0.3 || c > prev {
			t.Fatalf("neighbours(pottery) = %v: %s has cos %.3f", ns, n, c)
		}
		prev = c
	}
	if ns := tb.Neighbours("zzqxvj", 5, 0); ns != nil {
		t.Fatalf("unknown word has neighbours %v", ns)
	}
}
