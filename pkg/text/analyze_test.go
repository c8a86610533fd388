package text

import (
	"reflect"
	"testing"
)

func TestAnalyze(t *testing.T) {
	cases := []struct {
		in   string
		want []string // words as Norm, marks as themselves
	}{
		{"", nil},
		{"No Pokémon games!", []string{"no", "pokemon", "game", "."}},
		{"Assassin's Creed, Halo", []string{"assassin", "creed", ",", "halo"}},
		{"isn't it? don't", []string{"is", "not", "it", ".", "do", "not"}},
		{"Final Fantasy X", []string{"final", "fantasy", "10"}},
		{"the 1970s and '80s", []string{"the", "1970s", "and", "80s"}},
		{"pas de films d'horreur", []string{"pas", "de", "film", "d", "horreur"}},
		{"Straße ŒUVRE Æon", []string{"strasse", "oeuvre", "aeon"}},
		{"under $29.99 or 1,000 coins", []string{"under", "$", "29.99", "or", "1000", "coin"}},
		{"a 7-year-old", []string{"a", "7", "year", "old"}},
		{"¿películas de terror?", []string{".", "pelicula", "de", "terror", "."}},
		{"e\u0301te\u0301", []string{"ete"}}, // combining accents
		{"bad\xffbyte", []string{"bad", "byte"}},
		{"stories, bus, class, is", []string{"story", ",", "bus", ",", "class", ",", "is"}},
	}
	for _, c := range cases {
		var got []string
		for _, tk := range Analyze(c.in) {
			switch tk.Mark {
			case 0:
				got = append(got, tk.Norm)
			case '$':
				got = append(got, tk.Orig)
			default:
				got = append(got, string(tk.Mark))
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Analyze(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"PlayStation 4":   "playstation 4",
		"Pokémon  Reds":   "pokemon red",
		"Children's":      "children",
		"Sci-Fi":          "sci fi",
		"  ":              "",
		"Final Fantasy X": "final fantasy 10",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkAnalyzeTitle is the analyzer on a catalog title, the linker's
// load-time work per item (an ASCII lower-case word costs no copy).
func BenchmarkAnalyzeTitle(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Analyze("The Legend of Zelda: Breath of the Wild - Nintendo Switch")
	}
}
