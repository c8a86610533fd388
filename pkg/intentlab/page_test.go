package intentlab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadPageCatalog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cat := write("games-demo.json", `{"source":"x","items":[{"id":"7","title":"Halo 3","platform":"Xbox 360","kind":"game","format":"","series":"Halo","popularity":3}]}`)
	write("games-ranker.json", `{"comment":"c","meta_names":["title","series"],"weights":{"popularity":{"weight":1}}}`)
	write("games-intent.json", `{"aliases":{}}`)
	empty := write("empty.json", `{"items":[]}`)
	badSpec := write("bad-spec.json", `{"meta_names":`)

	c, err := ReadPageCatalog(cat, "", "")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := c.JSON()
	want := `{"format":"recmem.catalog","version":1,"dataset":"games-demo","meta_names":["title","series"],"dim":0,` +
		`"items":[{"id":"7","meta":["Halo 3","Halo"],"pop":3}],"weights":{"popularity":{"weight":1}},"intent":{"aliases":{}}}`
	if string(got) != want {
		t.Errorf("JSON()\n got %s\nwant %s", got, want)
	}

	for _, tt := range []struct {
		cat, spec, table, want string
	}{
		{empty, "", "", "empty.json: no items"},
		{filepath.Join(dir, "missing.json"), "", "", "missing.json"},
		{cat, badSpec, "", "ranker spec: unexpected end of JSON input"},
		{cat, "", filepath.Join(dir, "no-table.json"), "intent table: "},
	} {
		if _, err := ReadPageCatalog(tt.cat, tt.spec, tt.table); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadPageCatalog(%s, %q, %q) = %v, want an error with %q", filepath.Base(tt.cat), tt.spec, tt.table, err, tt.want)
		}
	}
}

// TestReadPageCatalogCommitted reads the page's own files.
func TestReadPageCatalogCommitted(t *testing.T) {
	c, err := ReadPageCatalog("../../web/catalog/games-demo.json", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Items) != 3000 || len(c.Spec.MetaNames) == 0 || len(c.Intent) == 0 {
		t.Errorf("%d items, meta names %v, intent %d bytes", len(c.Items), c.Spec.MetaNames, len(c.Intent))
	}
}
