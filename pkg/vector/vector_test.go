package vector

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
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

// TestNeighbourListsMatchScan checks that the embedded lists are attached and
// answer exactly as the full scan does, for a sample of words and for k and
// cosine floors inside and outside the lists.
func TestDot64MatchesDot(t *testing.T) {
	tb := Default()
	for i := 0; i+1 < tb.Len(); i += 101 {
		a, b := tb.vec(int32(i)), tb.vec(int32(i+1))
		a64, b64 := make([]float64, len(a)), make([]float64, len(b))
		for j := range a {
			a64[j], b64[j] = float64(a[j]), float64(b[j])
		}
		if Dot64(a64, b64) != Dot(a, b) {
			t.Fatalf("words %d, %d: Dot64 %v, Dot %v", i, i+1, Dot64(a64, b64), Dot(a, b))
		}
	}
}

func TestNeighbourListsMatchScan(t *testing.T) {
	tb := Default()
	if tb.lists == nil || tb.lists.k != 5 || tb.lists.minCos != 0.55 {
		t.Fatal("embedded neighbour lists not attached")
	}
	for i := 0; i < tb.Len(); i += 97 {
		w := tb.ix.word(int32(i))
		for _, c := range []struct {
			k      int
			minCos float64
		}{{5, 0.55}, {3, 0.55}, {5, 0.7}, {1, 0.9}, {6, 0.55}, {5, 0.5}} {
			got := tb.Neighbours(w, c.k, c.minCos)
			want := tb.NeighboursAmong(w, nil, c.k, c.minCos)
			if len(got) != len(want) {
				t.Fatalf("%s k=%d cos=%v: lists %v, scan %v", w, c.k, c.minCos, got, want)
			}
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("%s k=%d cos=%v: lists %v, scan %v", w, c.k, c.minCos, got, want)
				}
			}
		}
	}
}

func TestParseNeighbourLists(t *testing.T) {
	// A table of three words on two axes: a=(1,0), b=(0.8,0.6), c=(0,1).
	// cos(a,b)=0.8, cos(a,c)=0, cos(b,c)=0.6.
	raw := []byte("RMWV\x01\x02\x03\x00\x00\x00\x05\x00\x00\x00a\nb\nc")
	raw = append(raw, 127, 0, 100, 75, 0, 127)
	tb, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tb.NeighbourLists(2, 0.5, TableHash(raw))
	if err != nil {
		t.Fatal(err)
	}
	// Lengths 1, 2, 1; lists a:[b], b:[a c], c:[b] -> ranks 1, 0, 2, 1.
	want := append([]byte("RMNB\x01\x02\x03\x00\x00\x00"), b[10:26]...)
	want = append(want, 1, 2, 1, 1, 0, 2, 1, 0, 0, 0, 0)
	if string(b) != string(want) {
		t.Fatalf("encoded % x\nwant    % x", b, want)
	}
	nl, err := parseNeighbourLists(b, 3, TableHash(raw))
	if err != nil {
		t.Fatal(err)
	}
	tb.lists = nl
	for _, c := range []struct {
		w      string
		k      int
		minCos float64
		want   string
	}{{"a", 2, 0.5, "b"}, {"b", 2, 0.5, "a c"}, {"b", 1, 0.5, "a"}, {"b", 2, 0.7, "a"}, {"c", 2, 0.7, ""}, {"c", 3, 0, "b a"}} {
		got := strings.Join(tb.Neighbours(c.w, c.k, c.minCos), " ")
		if got != c.want {
			t.Errorf("Neighbours(%s, %d, %v) = %q, want %q", c.w, c.k, c.minCos, got, c.want)
		}
	}
	for _, bad := range [][]byte{b[:20], append([]byte("RMNX"), b[4:]...), b[:len(b)-1]} {
		if _, err := parseNeighbourLists(bad, 3, TableHash(raw)); err == nil {
			t.Errorf("accepted % x", bad)
		}
	}
	if _, err := parseNeighbourLists(b, 3, TableHash(raw)+1); err == nil {
		t.Error("lists of another table accepted")
	}
}

func TestDotByHand(t *testing.T) {
	for _, c := range []struct {
		a, b []float32
		want float64
	}{
		{nil, nil, 0},
		{[]float32{2}, []float32{3}, 6},
		{[]float32{1, 2, 3, 4, 5}, []float32{5, 4, 3, 2, 1}, 35},
		{[]float32{0.5, -1, 0.25, 2, 1, 1, 1, 1}, []float32{2, 1, 4, 0.5, 1, 2, 3, -6}, 2}, // 1-1+1+1+1+2+3-6
	} {
		if got := Dot(c.a, c.b); got != c.want {
			t.Errorf("Dot(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		a64, b64 := make([]float64, len(c.a)), make([]float64, len(c.b))
		for i := range c.a {
			a64[i], b64[i] = float64(c.a[i]), float64(c.b[i])
		}
		if got := Dot64(a64, b64); got != c.want {
			t.Errorf("Dot64(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestAddRowsMatchesLoop holds AddRows to the loop it replaces, bit for bit,
// at 32 components (the register path) and at 5.
func TestAddRowsMatchesLoop(t *testing.T) {
	for _, dim := range []int{32, 5} {
		rows := make([]float64, 4*dim)
		for i := range rows {
			rows[i] = float64(i%7)/3 - float64(i%5)*0.1 // inexact sums
		}
		ids := []int32{2, 0, 3, 2, 1}
		got := make([]float64, dim)
		AddRows(got, rows, ids)
		want := make([]float64, dim)
		for _, id := range ids {
			for j := range dim {
				want[j] += rows[int(id)*dim+j]
			}
		}
		for j := range dim {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("dim %d, component %d: %v, want %v", dim, j, got[j], want[j])
			}
		}
	}
}

// TestSourceGivesWord checks that a word's source gives Word's vector: a
// table word, a plural found by its singular, and a hashed word.
func TestSourceGivesWord(t *testing.T) {
	tab := Default()
	for _, w := range []string{"pottery", "mugs", "zzqxv"} {
		want, inTable := tab.Word(w)
		r, exact, ok := tab.Source(w)
		if ok != inTable {
			t.Fatalf("%s: in table %v, source %v", w, inTable, ok)
		}
		var got []float32
		if ok {
			got = tab.RankVector(r)
			if exact != (tab.Weight(w) == RankWeight(r)) {
				t.Errorf("%s: exact %v but weights %v and %v", w, exact, tab.Weight(w), RankWeight(r))
			}
		} else {
			got = FromCounts(HashedCounts(w, tab.Dim()))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the source's vector differs from Word's", w)
		}
	}
	if _, exact, ok := tab.Source("mugs"); !ok || exact {
		t.Error(`"mugs" should come from "mug"`)
	}
}

// TestParseVersion2ByHand reads a two-word table with 4-bit codes: word
// "ab" coded (8, 15) with steps (0.5, 0.1) is (0.25, 0.75) before it is
// made unit (0.3162..., 0.9486...); "cd" coded (0, 7) is (-3.75, -0.05).
func TestParseVersion2ByHand(t *testing.T) {
	b := []byte("RMWV\x02\x02\x02\x00\x00\x00\x05\x00\x00\x00ab\ncd")
	for _, s := range []float32{0.5, 0.1} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
	}
	b = append(b, 8|15<<4, 0|7<<4)
	tb, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w    string
		x, y float64
	}{{"ab", 0.25, 0.75}, {"cd", -3.75, -0.05}} {
		v, ok := tb.Word(c.w)
		n := math.Hypot(c.x, c.y)
		if !ok || math.Abs(float64(v[0])-c.x/n) > 1e-6 || math.Abs(float64(v[1])-c.y/n) > 1e-6 {
			t.Errorf("%s: %v, want (%v, %v)", c.w, v, c.x/n, c.y/n)
		}
	}
	lazy, err := parseLazy(b, tb.common)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"ab", "cd"} {
		a, _ := tb.Word(w)
		l, _ := lazy.Word(w)
		if a[0] != l[0] || a[1] != l[1] {
			t.Errorf("%s: lazy %v, eager %v", w, l, a)
		}
	}
	if _, err := Parse(b[:len(b)-1]); err == nil {
		t.Error("a truncated version 2 table parsed")
	}
}
