package workload

import (
	"encoding/json"
	"fmt"

	"github.com/recmem/recmem/pkg/catalog"
)

// CatalogPath is where the benchmarks find the Games-6k catalog, relative to
// a package directory two levels below the repository root.
const CatalogPath = "../../web/catalog/games-6k.catalog"

// RankMemory returns the record inputs that give a user n purchases of
// catalog items (one a day, every fifth maintained by the fixed scheduler),
// the memory the rank benchmarks rank with.
func RankMemory(cat *catalog.Catalog, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		it := (i * 37) % cat.Len()
		out[i] = fmt.Appendf(nil, `{"signals":[{"user":"u1","item":%q,"action":"purchase","meta":{"title":%q},"time":%d}],"maintain":"fixed"}`,
			cat.IDs[it], cat.Title(it), 1672531200+i*86400)
	}
	return out
}

// Rank10 is the i-th rank input: ten catalog items, spread over the
// catalog and different for consecutive i.
func Rank10(cat *catalog.Catalog, i int) []byte { return RankN(cat, i, 10) }

// RankN is the i-th rank input of n candidates: catalog items spread over
// the catalog, different for consecutive i (Rank10 is RankN with n = 10).
func RankN(cat *catalog.Catalog, i, n int) []byte {
	ids := make([]string, n)
	for j := range ids {
		ids[j] = cat.IDs[((i*n+j)*13+5)%cat.Len()]
	}
	b, _ := json.Marshal(map[string]any{"candidates": ids})
	return b
}
