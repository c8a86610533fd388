package catalog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"
)

// films is a JSON catalog of three films whose genres are lists and whose
// year is a number, one of each way of writing them.
const films = `{"format":"recmem.catalog","version":2,"dataset":"films","meta_names":["title","genre","year"],"dim":0,
 "items":[{"id":"1","meta":["Alien",["Horror","Sci-Fi"],1979],"pop":3},
          {"id":"2","meta":["Airplane!","Comedy","1980"],"pop":2},
          {"id":"3","meta":["Heat",[],""],"pop":1}],
 "intent":{"aliases":{"genre":{"scary":["Horror"]}}}}`

func TestFacetsInferredFromValues(t *testing.T) {
	c, err := Parse([]byte(films))
	if err != nil {
		t.Fatal(err)
	}
	want := []Facet{{Name: "title", Type: TypeText}, {Name: "genre", Type: TypeList},
		{Name: "year", Type: TypeNumber, Unit: "year", Min: 1979, Max: 1980}}
	if !reflect.DeepEqual(c.Facets, want) {
		t.Fatalf("facets %+v, want %+v", c.Facets, want)
	}
	if got := c.Values(0, 1); !reflect.DeepEqual(got, []string{"Horror", "Sci-Fi"}) {
		t.Errorf("Values(alien, genre) = %q", got)
	}
	if got := c.MetaMap(0); !reflect.DeepEqual(got, map[string][]string{"title": {"Alien"}, "genre": {"Horror", "Sci-Fi"}, "year": {"1979"}}) {
		t.Errorf("MetaMap(alien) = %q", got)
	}
	if v, ok := c.Number(1, 2); !ok || v != 1980 {
		t.Errorf("Number(airplane, year) = %v %v", v, ok)
	}
	if _, ok := c.Number(2, 2); ok {
		t.Error("Heat has no year")
	}
	if got := c.MetaMap(2); len(got) != 1 {
		t.Errorf("MetaMap(heat) = %q, want the title only", got)
	}
}

func TestBinaryCarriesFacetsAndTable(t *testing.T) {
	c, err := Parse([]byte(films))
	if err != nil {
		t.Fatal(err)
	}
	c.Facets[1].Inferred = true
	d, err := Decode(c.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Facets, c.Facets) {
		t.Errorf("facets %+v, want %+v", d.Facets, c.Facets)
	}
	if d.Intent == nil || !reflect.DeepEqual(d.Intent.Aliases, map[string]map[string][]string{"genre": {"scary": {"Horror"}}}) {
		t.Errorf("intent table %+v", d.Intent)
	}
	if string(d.Encode()) != string(c.Encode()) {
		t.Error("binary form not stable")
	}
}

// TestBinaryVersion1 reads a version-1 file: no facet section, no table; its
// facets are inferred.
func TestBinaryVersion1(t *testing.T) {
	c, err := Parse([]byte(films))
	if err != nil {
		t.Fatal(err)
	}
	c.Intent = nil
	b := c.Encode()
	// Cut the version-2 tail: 3 facets (type, unit, flag) and an empty table.
	tail := 0
	for _, f := range c.Facets {
		tail += 1 + len(f.Type) + 1 + len(f.Unit) + 1
	}
	tail++
	body := append([]byte(nil), b[:len(b)-4-tail]...)
	body[len(Magic)] = 1
	v1 := binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
	d, err := Decode(v1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Facets, c.Facets) || d.Intent != nil {
		t.Errorf("version 1: facets %+v table %v", d.Facets, d.Intent)
	}
}

func TestFacetErrors(t *testing.T) {
	for _, tt := range []struct{ js, want string }{
		{`"facets":[{"name":"title","type":"text"},{"name":"genre","type":"tags"},{"name":"year","type":"number"}]`, "facets[1].type"},
		{`"facets":[{"name":"title","type":"text"},{"name":"genre","type":"list"}]`, "2 declared for 3"},
		{`"facets":[{"name":"title","type":"text"},{"name":"genre","type":"number"},{"name":"year","type":"number"}]`, "items[0].meta.genre"},
		{`"facets":[{"name":"title","type":"list"},{"name":"genre","type":"list"},{"name":"year","type":"number"}]`, "the title is text"},
		{`"facets":[{"name":"title","type":"text"},{"name":"genre","type":"list","unit":"year"},{"name":"year","type":"number"}]`, "facets[1].unit"},
		{`"facets":[{"name":"name","type":"text"},{"name":"genre","type":"list"},{"name":"year","type":"number"}]`, "facets[0]: name"},
	} {
		js := strings.Replace(films, `"dim":0,`, `"dim":0,`+tt.js+`,`, 1)
		_, err := Parse([]byte(js))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want ErrFormat naming %q", tt.want, err, tt.want)
		}
	}
	bad := strings.Replace(films, `["Horror","Sci-Fi"]`, `["Horror|Gore"]`, 1)
	if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "separator") || !strings.Contains(err.Error(), "items[0].meta.genre") {
		t.Errorf("a list element holding the separator: err = %v", err)
	}
	nested := strings.Replace(films, `["Horror","Sci-Fi"]`, `[["Horror"]]`, 1)
	if _, err := Parse([]byte(nested)); err == nil || !strings.Contains(err.Error(), "items[0].meta.genre: want a string") {
		t.Errorf("a list inside a list: err = %v", err)
	}
}

func TestUnitOf(t *testing.T) {
	for name, want := range map[string]string{"year": "year", "release_year": "year", "price_usd": "price",
		"avg_rating": "rating", "runtime": "minutes", "min-age": "age", "weight": "", "popularity": ""} {
		if got := UnitOf(name); got != want {
			t.Errorf("UnitOf(%q) = %q, want %q", name, got, want)
		}
	}
}
