package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// writeML writes a hand-made ML-100K directory: 3 genres, 6 films, 2 users.
func writeML(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"u.genre": "unknown|0\nAction|1\nDrama|2\n\n",
		"u.item": "1|Heat (1995)|01-Jan-1995||url|0|1|1\n2|Up (2009)|01-Jan-2009||url|0|0|1\n" +
			"3|Caf\xe9 (1990)|01-Jan-1990||url|0|0|1\n4|unknown|||url|1|0|0\n5|Ran (1985)|01-Jan-1985||url|0|1|0\n" +
			"6|Big (1988)|01-Jan-1988||url|0|0|0\n",
		// user 7: 1 (5, t=10), 2 (2, t=20), 3 (4, t=30), 4 (3, t=40), 5 (5, t=30, after 3 by id), 6 (1, t=50)
		// user 8: a single positive, so a test line and no validation line.
		"u.data": "7\t1\t5\t10\n7\t2\t2\t20\n7\t5\t5\t30\n7\t3\t4\t30\n7\t4\t3\t40\n7\t6\t1\t50\n8\t2\t4\t5\n8\t1\t1\t6\n",
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestConvertMovieLens(t *testing.T) {
	src, dst := writeML(t), t.TempDir()
	if !IsMovieLens(src) || IsMovieLens(dst) {
		t.Fatal("IsMovieLens")
	}
	cfg := MovieLensConfig{Negatives: 9, Seed: 3}
	if err := ConvertMovieLens(src, dst, "ml", MovieLensConfig{Negatives: 3}); err == nil {
		t.Error("3 negatives accepted")
	}
	// 6 items, user 7 rated them all: too few never-rated items for 9.
	if err := ConvertMovieLens(src, dst, "ml", cfg); err == nil || !strings.Contains(err.Error(), "user 7") {
		t.Fatalf("want an error naming user 7, got %v", err)
	}
	m, err := ReadMovieLens(src)
	if err != nil {
		t.Fatal(err)
	}
	// Latin-1 decoded; year from the title; "unknown" genre left out.
	if it := m.Items[2]; it.Title != "Café" || it.Year != "1990" || !slices.Equal(it.Genres, []string{"Drama"}) {
		t.Errorf("item 3: %+v", it)
	}
	if it := m.Items[3]; it.Title != "unknown" || it.Year != "" || len(it.Genres) != 0 {
		t.Errorf("item 4: %+v", it)
	}
	for i := 7; i <= 20; i++ { // enough never-rated items for 9 negatives
		m.Items = append(m.Items, MovieItem{ID: strconv.Itoa(i), Title: "Film", Genres: []string{"Action"}})
	}
	if err := m.WriteRecBole(dst, "ml", cfg); err != nil {
		t.Fatal(err)
	}
	d, err := LoadRecBole(dst, "ml")
	if err != nil {
		t.Fatal(err)
	}
	id := func(i int) string { return d.Items[i].ID }
	ids := func(is []int) string {
		var s []string
		for _, i := range is {
			s = append(s, id(i))
		}
		return strings.Join(s, " ")
	}
	// User 7 in time order (ties by id): 1:5 2:2 3:4 5:5 4:3 6:1. Last
	// positive: 5 (test), the one before: 3 (validation). The 4 and 6 after
	// the target are the future.
	u7 := d.Test[0]
	if u7.User != "7" || id(u7.Target) != "5" || ids(u7.History) != "1 2 3" || !slices.Equal(u7.Ratings, []int{5, 2, 4}) || !slices.Equal(u7.Times, []int64{10, 20, 30}) {
		t.Errorf("user 7 test %+v", u7)
	}
	if v := d.Valid[0]; v.User != "7" || id(v.Target) != "3" || ids(v.History) != "1 2" {
		t.Errorf("user 7 valid %+v", v)
	}
	if !u7.Negative(1) || u7.Negative(0) {
		t.Error("Negative")
	}
	if len(d.Test) != 2 || len(d.Valid) != 1 || d.Test[1].User != "8" || len(d.Test[1].History) != 0 {
		t.Errorf("users: test %+v valid %d", d.Test, len(d.Valid))
	}
	heat, _ := d.Lookup("1")
	if got := d.Items[heat].Meta; got["genre"] != "Action|Drama" || got["year"] != "1995" || got["title"] != "Heat" {
		t.Errorf("item 1 meta %v", got)
	}
	// Negatives: 9 distinct items the user never rated, the same on a rerun.
	r := d.Random["7"]
	seen := map[string]bool{}
	for _, i := range r {
		if n, _ := strconv.Atoi(id(i)); n <= 6 || seen[id(i)] {
			t.Errorf("user 7 negative %s was rated or repeated", id(i))
		}
		seen[id(i)] = true
	}
	if len(r) != 9 {
		t.Errorf("%d negatives", len(r))
	}
	before, _ := os.ReadFile(filepath.Join(dst, "ml.random"))
	if err := m.WriteRecBole(dst, "ml", cfg); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dst, "ml.random"))
	if string(before) != string(after) {
		t.Error("the sampler is not deterministic")
	}
	if err := m.WriteRecBole(dst, "ml", MovieLensConfig{Negatives: 9, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	other, _ := os.ReadFile(filepath.Join(dst, "ml.random"))
	if string(other) == string(before) {
		t.Error("the seed changes nothing")
	}
}

func TestReadMovieLensErrors(t *testing.T) {
	for name, bad := range map[string][2]string{
		"rating": {"u.data", "7\t1\t6\t10\n"},
		"item":   {"u.data", "7\t99\t4\t10\n"},
		"fields": {"u.item", "1|Heat (1995)|x\n"},
		"genre":  {"u.genre", "Action|1\n"},
	} {
		dir := writeML(t)
		os.WriteFile(filepath.Join(dir, bad[0]), []byte(bad[1]), 0o644)
		if _, err := ReadMovieLens(dir); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%s: want an error naming %s, got %v", name, bad[0], err)
		}
	}
}

// TestMovieLens100K pins the protocol on the real data when it is present.
func TestMovieLens100K(t *testing.T) {
	src := "../../../shared/data/ml-100k"
	if !IsMovieLens(src) {
		t.Skipf("%s is absent: MovieLens 100K is read from ../shared, never shipped", src)
	}
	dst := t.TempDir()
	if err := ConvertMovieLens(src, dst, "ml-100k", MovieLensConfig{}); err != nil {
		t.Fatal(err)
	}
	d, err := LoadRecBole(dst, "ml-100k")
	if err != nil {
		t.Fatal(err)
	}
	// 943 users, one of whom has no rating of 4 or 5.
	if len(d.Items) != 1682 || len(d.Test) != 942 || len(d.Valid) != 942 || len(d.Random) != 942 {
		t.Errorf("items %d test %d valid %d random %d", len(d.Items), len(d.Test), len(d.Valid), len(d.Random))
	}
	neg := 0
	for _, s := range d.Test {
		if len(d.Random[s.User]) != 100 {
			t.Fatalf("user %s: %d negatives", s.User, len(d.Random[s.User]))
		}
		for k := range s.History {
			if s.Negative(k) {
				neg++
			}
		}
	}
	if neg < 10000 {
		t.Errorf("only %d negative ratings in the test histories", neg)
	}
}
