package catalog

import (
	"os"
	"testing"
)

// FuzzParse: the catalog decoders (binary and JSON) never panic and never
// accept a catalog that fails its own checks; an accepted binary catalog
// re-encodes to a catalog that decodes again.
func FuzzParse(f *testing.F) {
	js, err := os.ReadFile("../../testdata/catalog/tiny.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(js)
	c, err := Parse(js)
	if err != nil {
		f.Fatal(err)
	}
	bin := c.Encode()
	f.Add(bin)
	f.Add(bin[:len(bin)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		if _, err := Parse(c.Encode()); err != nil {
			t.Fatalf("an accepted catalog does not survive its own encoding: %v", err)
		}
	})
}
