package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
)

func init() {
	commands["demo"] = command{
		summary: "walk through one user's memory evolving over real data (Games-6k), no LLM",
		run:     runDemo,
	}
}

// demoDay is the spacing of the walk-through's signals: one purchase a day,
// from 2023-01-01 (time is an input; the module never reads a clock).
const (
	demoStart = 1672531200
	demoDay   = 86400
)

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "../shared/data/games-6k", "RecBole data `DIR`")
	name := fs.String("dataset", "Games-6k", "data set `NAME` (files NAME.item, NAME.test.inter)")
	user := fs.String("user", "", "user id to follow (default: the first user with at least --min-history items)")
	minHistory := fs.Int("min-history", 30, "smallest history for the default user")
	scheduler := fs.String("scheduler", "fixed", "maintenance scheduler: fixed (every B signals) or planner")
	native := fs.Bool("native", false, "run pkg/ natively instead of the .wasm module")
	wasm := fs.String("wasm", "", "path of plugin.wasm (default: found automatically)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *scheduler != "fixed" && *scheduler != "planner" {
		fmt.Fprintf(stderr, "recmem demo: --scheduler must be fixed or planner, got %q\n", *scheduler)
		return 2
	}
	d, err := dataset.LoadRecBole(*data, *name)
	if err != nil {
		fmt.Fprintln(stderr, "recmem demo:", err)
		return 1
	}
	seq, ok := pickUser(d, *user, *minHistory)
	if !ok {
		fmt.Fprintf(stderr, "recmem demo: no user %q with a history in %s\n", *user, *name)
		return 1
	}
	ctx := context.Background()
	c, done, err := openCaller(ctx, *native, *wasm)
	if err != nil {
		fmt.Fprintln(stderr, "recmem demo:", err)
		return 1
	}
	defer done()

	host := "the .wasm module through the Go host"
	if *native {
		host = "pkg/ natively"
	}
	fmt.Fprintf(stdout, "recmem demo: user %s of %s, %d purchases streamed one a day, %s scheduler, run by %s.\n",
		seq.User, *name, len(seq.History), *scheduler, host)
	fmt.Fprintln(stdout, "Each purchase is a signal with the item's metadata; memory maintenance runs when the scheduler says so.")
	ops := map[string]int{}
	for i, it := range seq.History {
		item := d.Items[it]
		meta := map[string][]string{}
		for k, v := range item.Meta {
			meta[k] = []string{v}
		}
		sig := memory.Signal{User: seq.User, Item: item.ID, Action: "purchase", Meta: meta, Time: int64(demoStart + i*demoDay)}
		res, err := engine.Record.Call(c, engine.RecordInput{Signals: []memory.Signal{sig}, Maintain: *scheduler})
		if err != nil {
			fmt.Fprintln(stderr, "recmem demo: record:", err)
			return 1
		}
		entries := append(res.Fifo, res.Maintenance.Ops...)
		fmt.Fprintf(stdout, "\nday %2d  purchase %q\n", i+1, item.Meta["title"])
		if len(entries) == 0 {
			fmt.Fprintf(stdout, "        wait: %s\n", res.Maintenance.Reason)
			continue
		}
		for _, e := range entries {
			ops[e.Op]++
			fmt.Fprintf(stdout, "        %-10s %s\n", e.Op, e.Reason)
		}
	}
	m, err := engine.GetMemory.Call(c, engine.GetMemoryInput{JournalLimit: 1})
	if err != nil {
		fmt.Fprintln(stderr, "recmem demo: get_memory:", err)
		return 1
	}
	printTiers(stdout, m.Events, m.Chunks, m.Profile)
	fmt.Fprintf(stdout, "\nLifecycle operations over the walk-through: %s\n", opsLine(ops))
	fmt.Fprintln(stdout, "Export the whole memory with `recmem call export_state`; every change above is in its journal.")
	return 0
}

// pickUser returns the named user's test sequence, or the first one with at
// least min items of history.
func pickUser(d *dataset.RecBole, user string, min int) (dataset.Sequence, bool) {
	for _, s := range d.Test {
		if (user != "" && s.User == user) || (user == "" && len(s.History) >= min) {
			return s, true
		}
	}
	return dataset.Sequence{}, false
}

func printTiers(w io.Writer, events []memory.Event, chunks []memory.Chunk, p memory.Profile) {
	pending := 0
	for _, e := range events {
		if e.Pending {
			pending++
		}
	}
	fmt.Fprintf(w, "\n== Event memory: %d events (%d pending), newest last\n", len(events), pending)
	for _, e := range events {
		flag := " "
		if e.Pending {
			flag = "*"
		}
		fmt.Fprintf(w, "  %s %-5s %-9s %s\n", flag, e.ID, e.Action, strings.Join(e.Meta["title"], " "))
	}
	sorted := append([]memory.Chunk(nil), chunks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Category != sorted[j].Category {
			return sorted[i].Category < sorted[j].Category
		}
		return sorted[i].Strength > sorted[j].Strength
	})
	fmt.Fprintf(w, "\n== Preference memory: %d chunks\n", len(chunks))
	for _, c := range sorted {
		bar := strings.Repeat("#", int(c.Strength*10+0.5))
		fmt.Fprintf(w, "  %-5s %-10s %-10s %.2f evidence %-3d %s\n", c.ID, c.Category, bar, c.Strength, c.Evidence, c.Text)
	}
	fmt.Fprintf(w, "\n== Profile memory (version %d)\n  %s\n", p.Version, p.Text)
}

func opsLine(ops map[string]int) string {
	total := 0
	for _, n := range ops {
		total += n
	}
	if total == 0 {
		return "none"
	}
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		return ops[names[i]] > ops[names[j]] || (ops[names[i]] == ops[names[j]] && names[i] < names[j])
	})
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %d (%.0f%%)", k, ops[k], 100*float64(ops[k])/float64(total))
	}
	return strings.Join(parts, ", ")
}
