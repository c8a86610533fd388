// Package workload holds the inputs that recmem's benchmarks feed to every
// host (native, the Go host on the .wasm, Node), so their timings compare the
// same work.
package workload

import "fmt"

// titles are product titles in the shape of Amazon Games-6k's, cycled so that
// extraction, boosts and full categories all happen.
var titles = []string{
	"NBA 2K13 - Sony PSP", "NBA 2K15 - Xbox 360", "WWE 2K15 - Xbox 360",
	"Need for Speed Rivals - Xbox 360", "Batman: Arkham Origins - Xbox 360",
	"Grand Theft Auto V - PlayStation 4", "Madden NFL 17 - Xbox One",
	"Watch Dogs 2 - Xbox One", "Super Mario Odyssey - Nintendo Switch",
	"The Legend of Zelda: Breath of the Wild - Nintendo Switch",
	"Final Fantasy X/X-2 HD Remaster - PlayStation 4", "Halo 5: Guardians - Xbox One",
}

// RecordSignal returns the record input for the i-th signal of a stream: one
// purchase a day with a title, maintained by the fixed scheduler (every fifth
// signal runs extraction).
func RecordSignal(i int) []byte {
	return fmt.Appendf(nil, `{"signals":[{"user":"u1","item":"i%d","action":"purchase","meta":{"title":%q},"time":%d}],"maintain":"fixed"}`,
		i%97, titles[i%len(titles)], 1672531200+i*86400)
}
