package intentlab

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestCatalogJSON(t *testing.T) {
	c := Catalog{
		Items: []Item{
			{ID: "7", Pop: 3, Fields: map[string]string{"title": "Halo 3", "platform": "Xbox 360", "series": "Halo"}},
			{ID: "8", Pop: 1, Fields: map[string]string{"title": "Gran Turismo"}},
		},
		Spec:    RankerSpec{Comment: "not copied", MetaNames: []string{"title", "platform", "series"}, Weights: map[string]json.RawMessage{"popularity": json.RawMessage(`{"weight":1}`)}},
		Intent:  json.RawMessage(`{"aliases":{}}`),
		Dataset: "d",
	}
	got, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":"recmem.catalog","version":1,"dataset":"d","meta_names":["title","platform","series"],"dim":0,` +
		`"items":[{"id":"7","meta":["Halo 3","Xbox 360","Halo"],"pop":3},{"id":"8","meta":["Gran Turismo","",""],"pop":1}],` +
		`"weights":{"popularity":{"weight":1}},"intent":{"aliases":{}}}`
	if string(got) != want {
		t.Errorf("JSON()\n got %s\nwant %s", got, want)
	}
}

func TestPopularAndCandidates(t *testing.T) {
	items := []Item{{ID: "10", Pop: 2}, {ID: "9", Pop: 2}, {ID: "100", Pop: 5}, {ID: "2", Pop: 1}}
	// The most popular first; "9" before "10" at a tie, as numbers.
	order := popular(items)
	var got []string
	for _, c := range candidates(order, map[string]bool{"10": true}, PageCandidates) {
		got = append(got, c.ID)
	}
	if want := []string{"100", "9", "2"}; !slices.Equal(got, want) {
		t.Errorf("candidates = %q, want %q", got, want)
	}
	if items[0].ID != "10" {
		t.Error("popular reordered its input")
	}
}
