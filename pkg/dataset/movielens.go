package dataset

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MovieLens 100K (GroupLens; Harper and Konstan 2015) in its original files:
// u.data ("user \t item \t rating \t unix time"), u.item ("id|title
// (year)|release date|video date|url|19 genre flags", Latin-1) and u.genre
// ("name|index"). Its licence forbids redistribution, so recmem reads it
// where it lies and writes what it derives only to a directory the caller
// names, outside the repository.
//
// ConvertMovieLens turns it into the RecBole atomic files LoadRecBole reads,
// under this protocol (docs/rec.md, "MovieLens 100K"):
//
//   - Each user's ratings are ordered by time, then by item id.
//   - A rating of 4 or 5 is positive, 1 or 2 negative, 3 neutral: a 3 is a
//     watched film the user neither liked nor disliked. It is recorded as a
//     signal (ranking context that moves no preference) and kept in the
//     collaborative training data, but it is never a target.
//   - Leave one out on the last positive: the test target is the user's last
//     rating of 4 or 5, the test history every rating before it; the
//     validation target is the last positive before the test target, its
//     history every rating before that. Ratings after the test target (all
//     of 3 or less, by construction) are the future and are left out.
//   - Negatives: for each user, MovieLensConfig.Negatives items drawn
//     uniformly without replacement from the items the user never rated (at
//     any time), by a PCG seeded with (Seed, FNV-1a 64 of the user id),
//     written once to NAME.random. The evaluation takes the first 9.
type MovieLensConfig struct {
	// Negatives is how many never-rated items each .random line lists.
	// Default 100.
	Negatives int
	// Seed is the sampler's PCG seed. Default 1.
	Seed uint64
}

// Rating is one MovieLens rating.
type Rating struct {
	User   string
	Item   string
	Rating int
	Time   int64
}

// MovieItem is one MovieLens film: its title without the year, its year and
// its genres in u.genre order ("unknown" is left out).
type MovieItem struct {
	ID     string
	Title  string
	Year   string
	Genres []string
}

// MovieLens is the content of an ML-100K directory.
type MovieLens struct {
	Items   []MovieItem
	Ratings []Rating
}

// IsMovieLens reports whether dir holds the original ML-100K files.
func IsMovieLens(dir string) bool {
	for _, f := range []string{"u.data", "u.item", "u.genre"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

// ErrMovieLens is wrapped by errors about malformed ML-100K files.
var ErrMovieLens = errors.New("dataset: bad MovieLens file")

// ReadMovieLens reads dir/u.genre, u.item and u.data. O(bytes).
func ReadMovieLens(dir string) (*MovieLens, error) {
	var genres []string
	if err := eachLine(filepath.Join(dir, "u.genre"), func(n int, s string) error {
		name, idx, ok := strings.Cut(s, "|")
		k, err := strconv.Atoi(idx)
		if !ok || err != nil || k != len(genres) {
			return fmt.Errorf("line %d: want name|%d, got %q", n, len(genres), s)
		}
		genres = append(genres, name)
		return nil
	}); err != nil {
		return nil, err
	}
	m := &MovieLens{}
	known := map[string]bool{}
	if err := eachLine(filepath.Join(dir, "u.item"), func(n int, s string) error {
		f := strings.Split(latin1(s), "|")
		if len(f) != 5+len(genres) {
			return fmt.Errorf("line %d: %d fields, want %d", n, len(f), 5+len(genres))
		}
		it := MovieItem{ID: f[0], Title: strings.TrimSpace(f[1])}
		if it.ID == "" || known[it.ID] {
			return fmt.Errorf("line %d: empty or repeated item id %q", n, it.ID)
		}
		known[it.ID] = true
		it.Title, it.Year = splitYear(it.Title)
		if d := f[2]; it.Year == "" && len(d) >= 4 {
			it.Year = d[len(d)-4:]
		}
		for g, flag := range f[5:] {
			if flag == "1" && genres[g] != "unknown" {
				it.Genres = append(it.Genres, genres[g])
			}
		}
		m.Items = append(m.Items, it)
		return nil
	}); err != nil {
		return nil, err
	}
	if err := eachLine(filepath.Join(dir, "u.data"), func(n int, s string) error {
		f := strings.Split(s, "\t")
		if len(f) != 4 {
			return fmt.Errorf("line %d: %d fields, want user, item, rating, time", n, len(f))
		}
		r, err1 := strconv.Atoi(f[2])
		t, err2 := strconv.ParseInt(f[3], 10, 64)
		switch {
		case err1 != nil || r < 1 || r > 5:
			return fmt.Errorf("line %d: rating %q is not 1 to 5", n, f[2])
		case err2 != nil || t < 0:
			return fmt.Errorf("line %d: time %q is not a unix time", n, f[3])
		case !known[f[1]]:
			return fmt.Errorf("line %d: item %q is not in u.item", n, f[1])
		}
		m.Ratings = append(m.Ratings, Rating{User: f[0], Item: f[1], Rating: r, Time: t})
		return nil
	}); err != nil {
		return nil, err
	}
	return m, nil
}

// eachLine calls fn on every non-empty line of path (numbered from 1).
func eachLine(path string, fn func(int, string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		if s := strings.TrimRight(sc.Text(), "\r"); s != "" {
			if err := fn(n, s); err != nil {
				return fmt.Errorf("%s: %w: %w", path, ErrMovieLens, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// latin1 decodes ISO-8859-1, in which every byte is the code point of the
// same value.
func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// splitYear splits "Toy Story (1995)" into "Toy Story" and "1995".
func splitYear(t string) (string, string) {
	if n := len(t); n >= 7 && t[n-1] == ')' && t[n-6] == '(' {
		if y := t[n-5 : n-1]; strings.Trim(y, "0123456789") == "" {
			return strings.TrimSpace(t[:n-6]), y
		}
	}
	return t, ""
}

// split is one user's leave-one-out cut: ratings in order and the indices
// of the validation and test targets (-1 when missing).
type split struct {
	user        string
	ratings     []Rating
	valid, test int
}

func (m *MovieLens) splits() []split {
	by := map[string][]Rating{}
	var users []string
	for _, r := range m.Ratings {
		if _, ok := by[r.User]; !ok {
			users = append(users, r.User)
		}
		by[r.User] = append(by[r.User], r)
	}
	slices.SortFunc(users, compareIDs)
	out := make([]split, 0, len(users))
	for _, u := range users {
		rs := by[u]
		slices.SortStableFunc(rs, func(a, b Rating) int {
			return cmp.Or(cmp.Compare(a.Time, b.Time), compareIDs(a.Item, b.Item))
		})
		s := split{user: u, ratings: rs, valid: -1, test: -1}
		for i := len(rs) - 1; i >= 0; i-- {
			if rs[i].Rating >= 4 {
				if s.test < 0 {
					s.test = i
				} else {
					s.valid = i
					break
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// compareIDs orders numeric ids by value, others as strings.
func compareIDs(a, b string) int {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 == nil && err2 == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(a, b)
}

// ConvertMovieLens reads the ML-100K files in src and writes dst/NAME.item,
// NAME.test.inter, NAME.valid.inter and NAME.random (see MovieLensConfig for
// the protocol). The same input and config give the same bytes. Users
// without a positive rating have no test line; users with one have no
// validation line. O(ratings log ratings + users · items).
func ConvertMovieLens(src, dst, name string, cfg MovieLensConfig) error {
	m, err := ReadMovieLens(src)
	if err != nil {
		return err
	}
	return m.WriteRecBole(dst, name, cfg)
}

// WriteRecBole writes m as RecBole atomic files (see ConvertMovieLens).
func (m *MovieLens) WriteRecBole(dst, name string, cfg MovieLensConfig) error {
	if cfg.Negatives == 0 {
		cfg.Negatives = 100
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Negatives < 9 {
		return fmt.Errorf("dataset: negatives: at least 9 are needed for 1 + 9 candidates, got %d", cfg.Negatives)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	var item strings.Builder
	item.WriteString("item_id:token\ttitle:token_seq\tyear:float\tgenre:token_seq\n")
	for _, it := range m.Items {
		fmt.Fprintf(&item, "%s\t%s\t%s\t%s\n", it.ID, clean(it.Title), it.Year, strings.Join(it.Genres, " "))
	}
	const head = "user_id:token\titem_id_list:token_seq\trating_list:float_seq\ttimestamp_list:float_seq\titem_id:token\trating:float\ttimestamp:float\n"
	var test, valid, random strings.Builder
	test.WriteString(head)
	valid.WriteString(head)
	for _, s := range m.splits() {
		if s.test < 0 {
			continue
		}
		writeCut(&test, s.user, s.ratings, s.test)
		if s.valid >= 0 {
			writeCut(&valid, s.user, s.ratings, s.valid)
		}
		neg, err := m.negatives(s, cfg)
		if err != nil {
			return err
		}
		fmt.Fprintf(&random, "%s\t%s\n", s.user, strings.Join(neg, " "))
	}
	for ext, b := range map[string]*strings.Builder{".item": &item, ".test.inter": &test, ".valid.inter": &valid, ".random": &random} {
		if err := writeAtomic(filepath.Join(dst, name+ext), b.String()); err != nil {
			return err
		}
	}
	return nil
}

// clean keeps a field on one line of one column.
func clean(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\t' || r == '\n' || r == '\r' }), " ")
}

// writeCut writes one .inter line: the ratings before t as the history and
// rating t as the target.
func writeCut(b *strings.Builder, user string, rs []Rating, t int) {
	ids, ratings, times := make([]string, t), make([]string, t), make([]string, t)
	for i, r := range rs[:t] {
		ids[i], ratings[i], times[i] = r.Item, strconv.Itoa(r.Rating), strconv.FormatInt(r.Time, 10)
	}
	fmt.Fprintf(b, "%s\t%s\t%s\t%s\t%s\t%d\t%d\n", user, strings.Join(ids, " "), strings.Join(ratings, " "),
		strings.Join(times, " "), rs[t].Item, rs[t].Rating, rs[t].Time)
}

// negatives draws cfg.Negatives items the user never rated, uniformly
// without replacement (a partial Fisher-Yates shuffle of the never-rated
// items in u.item order), with a PCG seeded by (cfg.Seed, FNV-1a 64 of the
// user id): the draw of one user does not depend on any other.
func (m *MovieLens) negatives(s split, cfg MovieLensConfig) ([]string, error) {
	rated := make(map[string]bool, len(s.ratings))
	for _, r := range s.ratings {
		rated[r.Item] = true
	}
	pool := make([]string, 0, len(m.Items))
	for _, it := range m.Items {
		if !rated[it.ID] {
			pool = append(pool, it.ID)
		}
	}
	if len(pool) < cfg.Negatives {
		return nil, fmt.Errorf("dataset: user %s rated all but %d items, fewer than the %d negatives asked", s.user, len(pool), cfg.Negatives)
	}
	h := fnv.New64a()
	h.Write([]byte(s.user))
	rng := rand.New(rand.NewPCG(cfg.Seed, h.Sum64()))
	for i := range cfg.Negatives {
		j := i + rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:cfg.Negatives], nil
}

// writeAtomic writes path through a temporary file and a rename, so that a
// reader never sees half a file.
func writeAtomic(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}
