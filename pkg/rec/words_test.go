package rec

import (
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/memory"
)

// TestMemoryReadsWell builds the memories of a sample of real users (every
// 25th of Games-6k's and of MovieLens 100K's test users, retrospectively, as
// eval rec does) and reads their chunks and profiles as a person would:
//
//   - a chunk names what it is about as the items' metadata writes it (the
//     label is in one of its events' titles or metadata values, case and
//     apostrophes kept), with no doubled article or word;
//   - one chunk per name: no two chunks of one category where one's key is
//     a run of the other's and both stand on the same events (two Assassin's
//     Creed games make "Assassin's Creed", not "Assassins" and "Creed");
//   - the profile is sentences: each starts with a capital and ends with a
//     period, with no figure in it and no doubled word.
func TestMemoryReadsWell(t *testing.T) {
	sets := []struct{ dir, name string }{{"../../../shared/data/games-6k", "Games-6k"}}
	if ml := movieLensDir(t); ml != "" {
		sets = append(sets, struct{ dir, name string }{ml, "ml-100k"})
	}
	// A strength written out ("(0.9)", "0.75", "+0.1"), not a name's number
	// ("Disney Infinity 3.0").
	figure := regexp.MustCompile(`\(\s*[+-]?\d|[+-]0\.\d|\b0\.\d`)
	for _, set := range sets {
		if _, err := os.Stat(set.dir); err != nil {
			t.Logf("%s not present: skipped", set.name)
			continue
		}
		d, err := dataset.LoadRecBole(set.dir, set.name)
		if err != nil {
			t.Fatal(err)
		}
		cases, _ := Cases(d.Test, d.Random, 0)
		users, chunks := 0, 0
		for i := 0; i < len(cases); i += 25 {
			c := cases[i]
			m, err := Retrospective(d, c, DefaultEventCap)
			if err != nil {
				t.Fatal(err)
			}
			users++
			chunks += len(m.Chunks)
			where := fmt.Sprintf("%s user %s", set.name, c.User)
			for _, ch := range m.Chunks {
				if doubledWord(ch.Text) {
					t.Errorf("%s: a doubled word in %q", where, ch.Text)
				}
				if !labelFromEvents(m, ch) {
					t.Errorf("%s: %q names nothing its events write that way", where, ch.Text)
				}
				for _, o := range m.Chunks {
					if o.ID != ch.ID && o.Category == ch.Category && len(o.Key) > len(ch.Key) &&
						strings.Contains(" "+o.Key+" ", " "+ch.Key+" ") && sameEvents(o, ch) {
						t.Errorf("%s: %q and %q are one name", where, ch.Text, o.Text)
					}
				}
			}
			p := m.Profile.Text
			for _, s := range strings.SplitAfter(p, ". ") {
				s = strings.TrimSpace(s)
				if s == "" {
					continue
				}
				if r := s[0]; !(r >= 'A' && r <= 'Z') && !strings.HasPrefix(s, "\"") {
					t.Errorf("%s: a sentence starts in lowercase: %q", where, s)
				}
				if !strings.HasSuffix(s, ".") {
					t.Errorf("%s: a sentence does not end with a period: %q", where, s)
				}
			}
			if figure.MatchString(p) || doubledWord(p) {
				t.Errorf("%s: the profile holds a figure or a doubled word: %q", where, p)
			}
			if i == 0 {
				t.Logf("%s: %q", where, p)
			}
		}
		t.Logf("%s: %d users, %d chunks read", set.name, users, chunks)
		if users == 0 || chunks == 0 {
			t.Errorf("%s: nothing to read", set.name)
		}
	}
}

// labelFromEvents reports whether the label a chunk's text names is written
// so in a title or metadata value of an event in memory (a chunk whose
// events have all left memory, or whose text the user wrote, is not held
// to it).
func labelFromEvents(m *memory.State, c memory.Chunk) bool {
	if c.Stated || c.Category == "era" {
		return true
	}
	var metas []string
	for _, e := range m.Events {
		for _, vs := range e.Meta {
			for _, v := range vs {
				metas = append(metas, html.UnescapeString(v))
			}
		}
	}
	if len(metas) == 0 {
		return true
	}
	label := c.Text
	for _, prefix := range []string{"Enjoys the ", "Enjoys ", "Prefers ", "Interested in ", "Not interested in ", "Avoids the ", "Avoids ", "Likes the ", "Enjoys work by "} {
		if rest, ok := strings.CutPrefix(c.Text, prefix); ok {
			label = rest
			break
		}
	}
	label = strings.TrimSuffix(strings.TrimSuffix(label, " series"), " brand")
	seen := false
	for _, id := range c.Events {
		for _, e := range m.Events {
			if e.ID == id {
				seen = true
			}
		}
	}
	for _, v := range metas {
		if strings.Contains(v, label) {
			return true
		}
	}
	// A label capitalized from a lowercase title word ("Racing" of "racing").
	for _, v := range metas {
		if strings.Contains(strings.ToLower(v), strings.ToLower(label)) {
			return true
		}
	}
	return !seen
}

func sameEvents(a, b memory.Chunk) bool {
	return strings.Join(a.Events, ",") == strings.Join(b.Events, ",")
}

// movieLensDir converts MovieLens 100K from ../shared once per test run
// into a temporary folder, or returns "" when it is absent.
func movieLensDir(t *testing.T) string {
	src := "../../../shared/data/ml-100k"
	if _, err := os.Stat(src); err != nil {
		return ""
	}
	out := t.TempDir()
	if err := dataset.ConvertMovieLens(src, out, "ml-100k", dataset.MovieLensConfig{}); err != nil {
		t.Fatalf("converting MovieLens: %v", err)
	}
	return out
}

// doubledWord reports whether s says a word twice in a row ("the The").
func doubledWord(s string) bool {
	ws := strings.Fields(strings.ToLower(s))
	for i := 1; i < len(ws); i++ {
		if strings.Trim(ws[i], ".,;") == strings.Trim(ws[i-1], ".,;") {
			return true
		}
	}
	return false
}
