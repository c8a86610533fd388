package text

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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

// wordsReference is Words as first written, rune by rune: the fast path
// must give exactly its words.
func wordsReference(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			flush()
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		flush()
	}
	flush()
	return out
}

func TestWordsMatchesReference(t *testing.T) {
	for _, s := range []string{"", "Hello, World!", "Caroline's LGBTQ+ support-group in 2023", "café Über ÉTÉ", "naïve coöp e\u0301",
		"a\xffb\xc3", "ǅungla İstanbul ΣΑΣ", "x\u2028y\u00a0z", "1st 2nd ３４", "\xe2\x80", "ab\u0301cd"} {
		if got, want := Words(s), wordsReference(s); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, reference %q", s, got, want)
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"Hello, World!", "café Über", "a\xffb", "İ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Words(s), wordsReference(s); !slices.Equal(got, want) {
			t.Fatalf("Words(%q) = %q, reference %q", s, got, want)
		}
	})
}

func TestKeywords(t *testing.T) {
	got := Keywords("The Legend of Zelda: Ocarina of Time 3D - Nintendo 3DS, a GAME")
	want := []string{"legend", "zelda", "ocarina", "time", "3d", "nintendo", "3ds"}
	if !slices.Equal(got, want) {
		t.Fatalf("Keywords = %q, want %q", got, want)
	}
}
