package text

import (
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"Caroline's LGBTQ group, 8 May 2023", []string{"caroline", "s", "lgbtq", "group", "8", "may", "2023"}},
		{"Ünïcode ÉTÉ", []string{"ünïcode", "été"}},
		{"bad\xffbyte\xc3", []string{"bad", "byte"}},
	}
	for _, c := range cases {
		if got := Words(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStem(t *testing.T) {
	cases := map[string]string{
		"paint": "paint", "paints": "paint", "painted": "paint", "painting": "paint",
		"bake": "bak", "baked": "bak", "baking": "bak",
		"running": "run", "classes": "class", "class": "class", "bus": "bus",
		"stories": "story", "quickly": "quick", "agreed": "agreed", "cat": "cat",
		"2023s": "2023s", "falling": "fall",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerms(t *testing.T) {
	got := Terms("When did Melanie paint a sunrise? She's painting sunrises!")
	want := []string{"melani", "paint", "sunris", "paint", "sunris"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func FuzzTerms(f *testing.F) {
	f.Add("Hello wörld\xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Terms(s) {
			if w == "" {
				t.Fatal("empty term")
			}
		}
	})
}
