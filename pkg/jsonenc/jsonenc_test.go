package jsonenc

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

func TestAppendStringByHand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain text", `"plain text"`},
		{`say "hi"\`, `"say \"hi\"\\"`},
		{"a\nb\tc\rd\be\ff", `"a\nb\tc\rd\be\ff"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"<b>&", `"\u003cb\u003e\u0026"`},
		{"caf\xe9", `"caf\ufffd"`},
		{"line\u2028para\u2029", `"line\u2028para\u2029"`},
		{"émoji 🎮", `"émoji 🎮"`},
	}
	for _, tt := range tests {
		if got := string(AppendString(nil, tt.in)); got != tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestAppendFloatByHand(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {1, "1"}, {-2.5, "-2.5"}, {0.1, "0.1"},
		{1e-6, "0.000001"}, {9.99e-7, "9.99e-7"}, {1e21, "1e+21"}, {123456789, "123456789"},
		{1e20, "100000000000000000000"}, {-1.5e-10, "-1.5e-10"}, {0.030488, "0.030488"}, {-0.000001, "-0.000001"},
		{123.000001, "123.000001"}, {2.5e-5, "0.000025"}, {1e-7, "1e-7"},
	}
	for _, tt := range tests {
		got, err := AppendFloat(nil, tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("AppendFloat(%v) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	tenth := 0.1 // not a constant: 0.1 + 0.2 is then rounded in float64
	if got, _ := AppendFloat(nil, tenth+0.2); string(got) != "0.30000000000000004" {
		t.Errorf("AppendFloat(0.1+0.2) = %s", got)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := AppendFloat(nil, f); err != ErrNonFinite {
			t.Errorf("AppendFloat(%v): err %v, want ErrNonFinite", f, err)
		}
	}
	// Every multiple of 1e-6 in a range (the fast path) agrees with
	// encoding/json.
	for k := int64(-3000000); k <= 3000000; k += 997 {
		f := float64(k) / 1e6
		got, _ := AppendFloat(nil, f)
		want, _ := json.Marshal(f)
		if string(got) != string(want) {
			t.Fatalf("%d: %s, want %s", k, got, want)
		}
	}
}

func TestAppendFloatMap(t *testing.T) {
	m := map[string]float64{"b": 0.5, "a<": -1e-7, "ä": 2}
	got, err := AppendFloatMap(nil, m)
	want, _ := json.Marshal(m)
	if err != nil || string(got) != string(want) {
		t.Errorf("AppendFloatMap = %s, %v; want %s", got, err, want)
	}
	if _, err := AppendFloatMap(nil, map[string]float64{"x": math.NaN()}); err != ErrNonFinite {
		t.Errorf("NaN in a map: err %v", err)
	}
}

// TestAgainstEncodingJSON holds both functions to encoding/json's bytes on
// many random values: strings of random bytes (invalid UTF-8, controls, HTML
// characters, line separators) and floats of random bit patterns.
func TestAgainstEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", " ", "\"", "\\", "<", ">", "&", "\n", "\x01", "\x7f", "é", "\u2028", "\u2029", "🎮", "\xff", "\xe2\x80", "\xc3"}
	for i := 0; i < 20000; i++ {
		var s string
		for k := r.IntN(12); k > 0; k-- {
			s += alphabet[r.IntN(len(alphabet))]
		}
		if i%3 == 0 { // long plain runs around the odd characters
			for k := r.IntN(6); k > 0; k-- {
				s += "The quick brown fox jumps"[:r.IntN(26)] + alphabet[r.IntN(len(alphabet))]
			}
		}
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		for _, x := range []float64{f, float64(r.IntN(2000000)-1000000) / 1e6, float64(r.IntN(24000000)-12000000) / 1e6,
			float64(r.IntN(2000)-1000) / 1e3, r.NormFloat64() * math.Pow(10, float64(r.IntN(50)-25))} {
			want, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := AppendFloat(nil, x); string(got) != string(want) {
				t.Fatalf("AppendFloat(%v) = %s, encoding/json %s", x, got, want)
			}
		}
	}
}

// FuzzAppendString: any string encodes as encoding/json encodes it.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a<b>", "\xff\u2028", "\"\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}

// TestAppendFields holds AppendFields to AppendFloat member by member.
func TestAppendFields(t *testing.T) {
	keys := [][]byte{[]byte(`"a":`), []byte(`"b<":`), []byte(`"c":`), []byte(`"d":`), []byte(`"e":`), []byte(`"f":`)}
	vals := []float64{0.5, -9.999999, 12.25, math.Copysign(0, -1), 1e-7, 3}
	got, err := AppendFields([]byte("{"), keys, vals)
	want := `{"a":0.5,"b<":-9.999999,"c":12.25,"d":-0,"e":1e-7,"f":3`
	if err != nil || string(got) != want {
		t.Errorf("AppendFields = %s, %v; want %s", got, err, want)
	}
	if _, err := AppendFields(nil, keys[:1], []float64{math.Inf(1)}); err != ErrNonFinite {
		t.Errorf("an infinity: err %v", err)
	}
}

func TestReadsAlike(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`{"a":"plain","b":["x"]}`, true},
		{"{\n\t\"a\": \"x\"\r\n}", true}, // white space between tokens
		{`{"a":"\u00e9 \u0026 \u003c"}`, true},
		{`{"a":"\\u00e9"}`, true},
		{`{"a":"\ud83c\udfae"}`, false},
		{`{"a":"\uDBFF"}`, false},
		{`{"a":"\u00"}`, true},         // invalid, but not for ReadsAlike to say (the parser refuses it)
		{"{\"a\":\"x\ty\"}", false},    // a raw tab inside a string
		{"{\"a\":\"\x00\\b\"}", false}, // a raw NUL beside an escape
		{"{\"a\\\"\n\":1}", false},     // an escaped quote keeps the string open
	} {
		if got := ReadsAlike([]byte(c.in)); got != c.want {
			t.Errorf("ReadsAlike(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
