package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/recmem/recmem/host"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/slate"
)

// A user's recommendation memory: record signals, read the tiers, export the
// state for the client to keep.
func ExampleClient() {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{}) // finds out/plugin.wasm
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)

	s, err := c.Session(ctx, nil) // a new user; pass a state document to resume one
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close(ctx)
	titles := []string{"Halo 5: Guardians - Xbox One", "Forza Horizon 3 - Xbox One", "Gears of War 4 - Xbox One",
		"Halo Wars 2 - Xbox One", "Sea of Thieves - Xbox One"}
	var signals []host.Signal
	for i, t := range titles {
		signals = append(signals, host.Signal{User: "u1", Item: fmt.Sprint("g", i), Action: "purchase",
			Meta: map[string][]string{"title": {t}}, Time: 1700000000 + int64(i)*86400})
	}
	res, err := s.Record(ctx, signals, "fixed")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("maintenance:", res.Maintenance.Decision)
	m, _ := s.Memory(ctx, 0)
	for _, ch := range m.Chunks {
		fmt.Printf("%s %.1f %s\n", ch.ID, ch.Strength, ch.Text)
	}
	state, _ := s.Export(ctx)
	fmt.Println("state document:", len(state) > 0)
	// Output:
	// maintenance: maintain
	// c1 0.9 Prefers Xbox One
	// state document: true
}

// A user's hand edit is an operation like any other: validated, journaled,
// atomic. An unknown chunk is refused with the field named.
func ExampleSession_ApplyOps() {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	s, _ := c.Session(ctx, nil)
	defer s.Close(ctx)

	strength := 0.8
	res, err := s.ApplyOps(ctx, []memory.Op{{Op: "extract", Category: "genre", Text: "Enjoys racing games", Strength: &strength}}, "user")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Ops[0].Op, res.Ops[0].Chunks, *res.Ops[0].After)

	_, err = s.ApplyOps(ctx, []memory.Op{{Op: "boost", Chunk: "c9"}}, "user")
	var ee *host.ExportError
	fmt.Println(errors.As(err, &ee), err)
	// Output:
	// extract [c1] 0.8
	// true apply_ops: input.ops[0].chunk: unknown chunk "c9"
}

// Agent memory: store dialogue turns, then pick what enters a 200-token
// context for a question, with no LLM call.
func ExampleSession_SelectSlate() {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	s, _ := c.Session(ctx, nil)
	defer s.Close(ctx)

	turns := []slate.Unit{
		{ID: "D1:1", Session: "1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Ana", Text: "I signed up for a pottery class on Tuesdays."},
		{ID: "D1:2", Session: "1", Date: "8 May 2023", Time: "2023-05-08", Speaker: "Ben", Text: "Nice! I am training for a marathon."},
		{ID: "D2:1", Session: "2", Date: "2 June 2023", Time: "2023-06-02", Speaker: "Ana", Text: "My pottery class moved to Thursdays."},
		{ID: "D2:2", Session: "2", Date: "2 June 2023", Time: "2023-06-02", Speaker: "Ben", Text: "The marathon is in October."},
	}
	if _, err := s.AddUnits(ctx, turns); err != nil {
		fmt.Println(err)
		return
	}
	sl, err := s.SelectSlate(ctx, slate.Request{Query: "Which day is Ana's pottery class now?", Date: "2023-06-20", Budget: 40})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range sl.Units {
		fmt.Println(u.Line)
	}
	fmt.Println("tokens:", sl.Tokens <= 40)
	// Output:
	// [8 May 2023] Ana: I signed up for a pottery class on Tuesdays.
	// [2 June 2023] Ana: My pottery class moved to Thursdays.
	// tokens: true
}

// NewClient with every option at its default but the catalog.
func ExampleNewClient() {
	ctx := context.Background()
	catalog, err := os.ReadFile("../testdata/catalog/tiny.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	// WasmPath "": $RECMEM_WASM, else out/plugin.wasm found like bin/recmem does.
	c, err := host.NewClient(ctx, host.ClientOptions{
		Options:   host.Options{WasmPath: "", CacheDir: "", MaxPages: 8192, RecycleBytes: 0, Timeout: 0},
		Instances: 0,       // the cores
		Catalog:   catalog, // optional, for Rank
		MaxState:  0,       // the cap / 100: 5.4 MB
		SealKey:   nil,     // optional, at least 32 bytes: seal the states handed out
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	fmt.Println("state limit:", c.MaxState(), "bytes; sealed:", c.Sealed())
	// Output:
	// state limit: 5368709 bytes; sealed: false
}

// A user's memory kept in binary form (docs/state-binary.md): each session
// exports only what changed, and the next session on the same state starts
// on the instance the last one left warm.
func ExampleSession_ExportDelta() {
	ctx := context.Background()
	c, err := host.NewClient(ctx, host.ClientOptions{Instances: 1}) // Warm: one instance, as many as Instances
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	first, _ := c.Session(ctx, nil)
	var units []slate.Unit
	for i := range 200 {
		units = append(units, slate.Unit{ID: fmt.Sprint("D1:", i), Session: "S1", Speaker: "Ann",
			Text: fmt.Sprintf("Pottery class %d: we glazed %d bowls and fired them on Tuesday.", i, i%7)})
	}
	first.AddUnits(ctx, units)
	state, _ := first.ExportBinary(ctx)
	first.Close(ctx)

	signals := []host.Signal{{User: "u1", Item: "g1", Action: "like", Time: 1700000000}}
	s, _ := c.Session(ctx, state) // warm when state is what the last session left
	s.Record(ctx, signals, "fixed")
	piece, _ := s.ExportDelta(ctx) // a few hundred bytes for a few signals
	s.Close(ctx)
	state = host.AppendState(state, piece)
	fmt.Println("warm:", s.Warm, "delta under a tenth of the state:", len(piece)*10 < len(state))

	again, _ := c.Session(ctx, state)
	m, _ := again.Memory(ctx, 0)
	again.Close(ctx)
	fmt.Println("warm:", again.Warm, "events:", len(m.Events))
	// Output:
	// warm: true delta under a tenth of the state: true
	// warm: true events: 1
}
