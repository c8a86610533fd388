package catalog

import (
	"errors"
	"math"
	"os"
	"testing"
)

func loadTiny(t *testing.T) *Catalog {
	t.Helper()
	b, err := os.ReadFile("../../testdata/catalog/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestJSONFixture(t *testing.T) {
	c := loadTiny(t)
	if c.Len() != 5 || c.Dim != 2 || c.SeqDim != 2 || c.Dataset != "tiny" {
		t.Fatalf("catalog %d items dim %d", c.Len(), c.Dim)
	}
	a, _ := c.Lookup("a")
	b, _ := c.Lookup("b")
	e, _ := c.Lookup("e")
	tests := []struct {
		name      string
		got, want float64
	}{
		{"P(b|a)", c.Transition(a, b), 0.75},
		{"P(a|b)", c.Transition(b, a), 0},
		{"sim(a,b)", c.Similarity(a, b), 0.5},
		{"seq(a,b) = <[1,0],[1,0]>", c.SeqScore(a, b), 1},
		{"seq(b,a) = <[0,1],[0,1]>", c.SeqScore(b, a), 1},
		{"seq(a,a)", c.SeqScore(a, a), 0},
		{"bias(e)", float64(c.Bias[e]), float64(float32(-0.1))},
		{"weight", c.Weights["transition"] * c.Scales["transition"], 2},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if c.MetaText(a) != "Space Shooter Deluxe Action Shooter" || c.Title(a) != "Space Shooter Deluxe" {
		t.Errorf("text %q title %q", c.MetaText(a), c.Title(a))
	}
}

func TestBinaryRoundTrip(t *testing.T) {
	c := loadTiny(t)
	b := c.Encode()
	d, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != c.Len() || d.Dim != c.Dim || d.SeqDim != c.SeqDim || d.Dataset != c.Dataset {
		t.Fatal("header differs")
	}
	// int8 quantization per row: error at most max|v|/254.
	for i, v := range c.Factors {
		if math.Abs(float64(v-d.Factors[i])) > 1.0/254+1e-7 {
			t.Errorf("factor %d: %v vs %v", i, v, d.Factors[i])
		}
	}
	for i := range c.IDs {
		if d.IDs[i] != c.IDs[i] || len(d.Trans[i]) != len(c.Trans[i]) || d.Pop[i] != c.Pop[i] {
			t.Fatalf("item %d differs", i)
		}
		for k, nb := range c.Trans[i] {
			if d.Trans[i][k].Item != nb.Item || math.Abs(float64(d.Trans[i][k].Weight-nb.Weight)) > 1e-4 {
				t.Errorf("trans %d/%d: %v vs %v", i, k, d.Trans[i][k], nb)
			}
		}
	}
	if d.Weights["instruction"] != 2 || d.Scales["instruction"] != 0.5 {
		t.Errorf("weights %v scales %v", d.Weights, d.Scales)
	}
	// The encoding is deterministic: re-encoding the decoded catalog gives
	// the same bytes (quantization is idempotent).
	if string(d.Encode()) != string(Decode2(t, d.Encode()).Encode()) {
		t.Error("encoding is not stable")
	}
}

func Decode2(t *testing.T, b []byte) *Catalog {
	c, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDecodeErrors(t *testing.T) {
	good := loadTiny(t).Encode()
	flip := append([]byte(nil), good...)
	flip[len(flip)/2] ^= 1
	newer := append([]byte(Magic), 9)
	tests := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"no magic", []byte("hello world")},
		{"corrupted", flip},
		{"truncated", good[:len(good)-10]},
		{"newer version", newer},
	}
	for _, tt := range tests {
		if _, err := Decode(tt.b); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", tt.name, err)
		}
	}
	for _, js := range []string{
		`{"format":"other","version":1}`,
		`{"format":"recmem.catalog","version":3}`,
		`{"format":"recmem.catalog","version":1,"meta_names":[],"dim":0,"items":[{"id":"a","meta":[],"pop":1},{"id":"a","meta":[],"pop":1}]}`,
		`{"format":"recmem.catalog","version":1,"meta_names":[],"dim":1,"items":[{"id":"a","meta":[],"pop":1}]}`,
		`{"format":"recmem.catalog","version":1,"meta_names":[],"dim":0,"items":[{"id":"a","meta":[],"pop":1,"next":[{"item":"zz","weight":1}]}]}`,
		`{"format":"recmem.catalog","version":1,"bogus":1}`,
	} {
		if _, err := Parse([]byte(js)); !errors.Is(err, ErrFormat) {
			t.Errorf("Parse(%s): err = %v, want ErrFormat", js, err)
		}
	}
}
