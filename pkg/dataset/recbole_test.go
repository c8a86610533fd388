package dataset

import (
	"strings"
	"testing"
)

const tinyDir = "../../testdata/catalog/tiny"

func TestReadTableHeader(t *testing.T) {
	tab, err := ReadTable(strings.NewReader("item_id:token\ttitle:token_seq\nx\tA game\ny\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Columns) != 2 || tab.Columns[1] != (Column{"title", "token_seq"}) {
		t.Fatalf("columns %+v", tab.Columns)
	}
	if tab.Rows[1][1] != "" || tab.Index("title") != 1 || tab.Index("nope") != -1 {
		t.Fatalf("rows %q", tab.Rows)
	}
	for _, bad := range []string{"", "item_id\n", "item_id:blob\n", "a:token\nx\ty\n"} {
		if _, err := ReadTable(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadTable(%q) accepted", bad)
		}
	}
}

func TestLoadRecBoleTiny(t *testing.T) {
	d, err := LoadRecBole(tinyDir, "Tiny")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.MetaNames, ","); got != "title,category,price" {
		t.Errorf("meta names %q", got)
	}
	// six listed items plus "g", which only the .inter file names.
	if len(d.Items) != 7 {
		t.Fatalf("%d items", len(d.Items))
	}
	a, _ := d.Lookup("a")
	if d.Items[a].Meta["category"] != "Action|Shooter" || d.Items[a].Meta["title"] != "Space Shooter Deluxe" {
		t.Errorf("item a meta %v", d.Items[a].Meta)
	}
	if len(d.Test) != 5 || len(d.Valid) != 5 || len(d.Random) != 4 {
		t.Fatalf("test %d valid %d random %d", len(d.Test), len(d.Valid), len(d.Random))
	}
	s := d.Test[0]
	if s.User != "u1" || len(s.History) != 3 || d.Items[s.History[2]].ID != "c" || d.Items[s.Target].ID != "d" {
		t.Errorf("first sequence %+v", s)
	}
	if r := d.Random["u1"]; len(r) != 5 || d.Items[r[0]].ID != "b" {
		t.Errorf("random u1 %v", r)
	}
}
