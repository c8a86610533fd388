package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Item is one catalogue item: its RecBole token and its metadata, one entry
// per non-id column of the .item file (for Games-6k just "title").
type Item struct {
	ID   string
	Meta map[string]string
}

// Sequence is one line of a sequential .inter file: a user's history, oldest
// first, and the held-out next item. Items are dense indices into
// RecBole.Items.
type Sequence struct {
	User    string
	History []int
	Target  int
}

// RecBole is a sequential-recommendation data set in RecBole atomic format:
// NAME.item, NAME.test.inter, NAME.valid.inter and NAME.random (user id then
// space-separated candidate item ids).
type RecBole struct {
	Name      string
	Items     []Item
	MetaNames []string // metadata columns of the .item file, in header order
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
		}
	}
	for _, row := range t.Rows {
		k := d.intern(row[id])
		for i, c := range t.Columns {
			if i != id && row[i] != "" {
				d.Items[k].Meta[c.Name] = row[i]
			}
		}
	}
	return nil
}

func (d *RecBole) readInter(path string, optional bool) ([]Sequence, error) {
	t, err := readFile(path, optional)
	if t == nil || err != nil {
		return nil, err
	}
	u, h, it := t.Index("user_id"), t.Index("item_id_list"), t.Index("item_id")
	if u < 0 || h < 0 || it < 0 {
		return nil, fmt.Errorf("%s: %w: need user_id, item_id_list and item_id columns", path, ErrHeader)
	}
	seqs := make([]Sequence, 0, len(t.Rows))
	for _, row := range t.Rows {
		s := Sequence{User: row[u], Target: d.intern(row[it])}
		for _, tok := range strings.Fields(row[h]) {
			s.History = append(s.History, d.intern(tok))
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
