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
	b, _ := json.Marshal(map[string]any{"candidates": rankIDs(cat, i, n)})
	return b
}

// rankIDs are the candidates of the i-th rank input of n: item (i·n + j)·13
// + 5 of the catalog, modulo its size, for j < n (distinct while n is at
// most the catalog's size, which 13 does not divide).
func rankIDs(cat *catalog.Catalog, i, n int) []string {
	ids := make([]string, n)
	for j := range ids {
		ids[j] = cat.IDs[((i*n+j)*13+5)%cat.Len()]
	}
	return ids
}

// RankSizes are the candidate counts the rank benchmarks time, with and
// without an instruction.
var RankSizes = []int{20, 200, 1000}

// Instructions are what the rank benchmarks ask, in turn, of a catalog of
// games like the page's demo catalog: exclusions, a platform, a kind, a
// series and their mixes, each the sort of thing a shopper types.
var Instructions = []string{
	"nothing with Call of Duty in it, please",
	"games for the PlayStation 4",
	"I only want accessories for my Xbox 360",
	"Zelda or Mario, but not for the Wii",
	"no shooters and no horror",
	"something digital for the PS3, not a sports game",
	"racing games",
	"skip anything from the Halo series",
}

// RankInstructed is RankN with the i-th instruction of Instructions
// (cycled): the i-th rank input of n candidates with an instruction.
func RankInstructed(cat *catalog.Catalog, i, n int) []byte {
	b, _ := json.Marshal(map[string]any{"candidates": rankIDs(cat, i, n), "instruction": Instructions[i%len(Instructions)]})
	return b
}
