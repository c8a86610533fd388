package rank

import (
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
)

// TestGroundSkipsImplied: a stated preference is grounded in what its words
// name, never in what the table implies for a request naming no kind.
func TestGroundSkipsImplied(t *testing.T) {
	cat, err := catalog.Parse([]byte(`{"format":"recmem.catalog","version":2,"meta_names":["title","platform","kind"],"dim":0,
	 "items":[{"id":"a","meta":["Zelda","Nintendo Switch","game"],"pop":1},{"id":"b","meta":["Mario","Nintendo Wii U","game"],"pop":1},
	          {"id":"c","meta":["Halo","Xbox One","game"],"pop":1}],
	 "intent":{"aliases":{"platform":{"Nintendo":["Nintendo Switch","Nintendo Wii U"]}},"implies_default":{"facet":"kind","value":"game"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	facet, values, ok := New(cat).Ground("Nintendo")
	if !ok || facet != "platform" || !reflect.DeepEqual(values, []string{"Nintendo Switch", "Nintendo Wii U"}) {
		t.Errorf("Ground(Nintendo) = %q %q %v, want the platforms", facet, values, ok)
	}
	if _, _, ok := New(cat).Ground("before 2010"); ok {
		t.Error("a number range is not a stated preference")
	}
}
