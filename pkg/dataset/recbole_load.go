package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Item is one catalogue item: its RecBole token and its metadata, one entry
// per non-id column of the .item file (for Games-6k just "title"). A
// token_seq column is a list of tokens in RecBole ("Action Adventure"), except
// the free-text ones (title, name, description, summary, review, text), whose
// tokens are words: a list's value joins its tokens with "|"
// ("Action|Adventure"), the list separator the memory reads (memory's item
// features), and text keeps its spaces.
type Item struct {
	ID   string
	Meta map[string]string
}

// Sequence is one line of a sequential .inter file: a user's history, oldest
// first, and the held-out next item. Items are dense indices into
// RecBole.Items. Ratings and Times are aligned with History when the file
// has rating_list and timestamp_list columns (MovieLens), else nil.
type Sequence struct {
	User    string
	History []int
	Target  int
	Ratings []int
	Times   []int64
}

// Negative reports whether history entry k is a negative rating (1 or 2).
func (s Sequence) Negative(k int) bool {
	return s.Ratings != nil && s.Ratings[k] > 0 && s.Ratings[k] <= 2
}

// RecBole is a sequential-recommendation data set in RecBole atomic format:
// NAME.item, NAME.test.inter, NAME.valid.inter and NAME.random (user id then
// space-separated candidate item ids).
type RecBole struct {
	Name      string
	Items     []Item
	MetaNames []string // metadata columns of the .item file, in header order
	// MetaTypes are their RecBole types (token, token_seq, float,
	// float_seq), aligned with MetaNames; ListColumn says which
	// token_seq columns are lists.
	MetaTypes []string
	Test      []Sequence
	Valid     []Sequence
	Random    map[string][]int // user -> listed random items, in file order
	index     map[string]int
}

// Lookup returns the dense index of an item token.
func (d *RecBole) Lookup(id string) (int, bool) {
	i, ok := d.index[id]
	return i, ok
}

// intern returns the index of id, adding an item without metadata if the
// .item file did not list it.
func (d *RecBole) intern(id string) int {
	if i, ok := d.index[id]; ok {
		return i
	}
	d.index[id] = len(d.Items)
	d.Items = append(d.Items, Item{ID: id, Meta: map[string]string{}})
	return len(d.Items) - 1
}

// LoadRecBole reads dir/name.{item,test.inter,valid.inter,random}. The .item
// file is optional (items then have no metadata) and so is .valid.inter.
// O(bytes).
func LoadRecBole(dir, name string) (*RecBole, error) {
	d := &RecBole{Name: name, index: map[string]int{}, Random: map[string][]int{}}
	base := filepath.Join(dir, name)
	if t, err := readFile(base+".item", true); err != nil {
		return nil, err
	} else if t != nil {
		if err := d.addItems(t); err != nil {
			return nil, fmt.Errorf("%s.item: %w", base, err)
		}
	}
	var err error
	if d.Test, err = d.readInter(base+".test.inter", false); err != nil {
		return nil, err
	}
	if d.Valid, err = d.readInter(base+".valid.inter", true); err != nil {
		return nil, err
	}
	if err := d.readRandom(base + ".random"); err != nil {
		return nil, err
	}
	return d, nil
}

func readFile(path string, optional bool) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		if optional && os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	t, err := ReadTable(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func (d *RecBole) addItems(t *Table) error {
	id := t.Index("item_id")
	if id < 0 {
		return fmt.Errorf("%w: no item_id column", ErrHeader)
	}
	for i, c := range t.Columns {
		if i != id {
			d.MetaNames = append(d.MetaNames, c.Name)
			d.MetaTypes = append(d.MetaTypes, c.Type)
		}
	}
	for _, row := range t.Rows {
		k := d.intern(row[id])
		for i, c := range t.Columns {
			v := row[i]
			if ListColumn(c.Name, c.Type) {
				v = strings.Join(strings.Fields(v), "|")
			}
			if i != id && v != "" {
				d.Items[k].Meta[c.Name] = v
			}
		}
	}
	return nil
}

// ListColumn reports whether a column of the .item file holds a list of
// tokens: a token_seq column other than the free-text ones.
func ListColumn(name, typ string) bool { return typ == "token_seq" && !textColumns[name] }

// textColumns are the token_seq columns that hold words, not a list.
var textColumns = map[string]bool{"title": true, "name": true, "description": true, "summary": true, "review": true, "text": true}

func (d *RecBole) readInter(path string, optional bool) ([]Sequence, error) {
	t, err := readFile(path, optional)
	if t == nil || err != nil {
		return nil, err
	}
	u, h, it := t.Index("user_id"), t.Index("item_id_list"), t.Index("item_id")
	if u < 0 || h < 0 || it < 0 {
		return nil, fmt.Errorf("%s: %w: need user_id, item_id_list and item_id columns", path, ErrHeader)
	}
	rl, tl := t.Index("rating_list"), t.Index("timestamp_list")
	seqs := make([]Sequence, 0, len(t.Rows))
	for n, row := range t.Rows {
		s := Sequence{User: row[u], Target: d.intern(row[it])}
		for _, tok := range strings.Fields(row[h]) {
			s.History = append(s.History, d.intern(tok))
		}
		if rl >= 0 {
			for k, tok := range strings.Fields(row[rl]) {
				r, err := strconv.ParseFloat(tok, 64)
				if err != nil || r != math.Trunc(r) || r < 1 || r > 5 {
					return nil, fmt.Errorf("%s: row %d: rating_list[%d]: want a whole rating from 1 to 5, got %q", path, n+1, k, tok)
				}
				s.Ratings = append(s.Ratings, int(r))
			}
			if len(s.Ratings) != len(s.History) {
				return nil, fmt.Errorf("%s: row %d: rating_list has %d entries, item_id_list %d", path, n+1, len(s.Ratings), len(s.History))
			}
		}
		if tl >= 0 {
			for k, tok := range strings.Fields(row[tl]) {
				x, err := strconv.ParseFloat(tok, 64)
				if err != nil || x < 0 || x > 1e15 {
					return nil, fmt.Errorf("%s: row %d: timestamp_list[%d]: want a unix time, got %q", path, n+1, k, tok)
				}
				s.Times = append(s.Times, int64(x))
			}
			if len(s.Times) != len(s.History) {
				return nil, fmt.Errorf("%s: row %d: timestamp_list has %d entries, item_id_list %d", path, n+1, len(s.Times), len(s.History))
			}
		}
		seqs = append(seqs, s)
	}
	return seqs, nil
}

// readRandom reads "user \t id id id ..." lines; a header line is allowed
// (recognised by a colon in its first field).
func (d *RecBole) readRandom(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		user, rest, ok := strings.Cut(line, "\t")
		if !ok {
			return fmt.Errorf("%s: line %d: want user<TAB>items", path, n+1)
		}
		if n == 0 && strings.Contains(user, ":") {
			continue
		}
		var ids []int
		for _, tok := range strings.Fields(rest) {
			ids = append(ids, d.intern(tok))
		}
		d.Random[user] = ids
	}
	return nil
}
