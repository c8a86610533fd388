package rec

import (
	"reflect"
	"testing"

	"github.com/recmem/recmem/pkg/intent"
)

func TestInferFacet(t *testing.T) {
	titles := []string{"Super Racing Kart", "Soccer Stars 2", "Turbo Drive", "Puzzle Quest", "Racing Wheel Pro", "Rocket League"}
	concepts := []intent.Concept{{Values: []string{"Racing"}, Words: []string{"racing", "kart"}},
		{Values: []string{"Sports"}, Words: []string{"soccer"}}}
	names := []string{"Racing", "Sports"}
	// Items 2 and 5 share every user with the racing seeds 0 and 4.
	hist := [][]int{{0, 2, 4}, {0, 2, 5}, {4, 2, 5}, {1, 3}, {0, 4, 5}}
	seeds := InferFacet(titles, hist, names, concepts, InferConfig{})
	want := [][]string{{"Racing"}, {"Sports"}, nil, nil, {"Racing"}, nil}
	if !reflect.DeepEqual(seeds.Values, want) || !reflect.DeepEqual(seeds.Seeds, []int{2, 1}) {
		t.Errorf("seeds: %q %v", seeds.Values, seeds.Seeds)
	}
	// Item 2's neighbours are 0, 4 (racing) and 5: cosines c(2,0)=2/√(3·3),
	// c(2,4)=2/√(3·3), c(2,5)=2/√(3·3): share 2/3 ≥ 0.5.
	prop := InferFacet(titles, hist, names, concepts, InferConfig{Propagate: true, MinNeighbors: 2, MinShare: 0.5})
	if got := prop.Values[2]; !reflect.DeepEqual(got, []string{"Racing"}) {
		t.Errorf("propagated to item 2: %q", got)
	}
	if got := prop.Values[3]; got != nil {
		t.Errorf("item 3 (one neighbour, a sports seed) got %q", got)
	}
}
