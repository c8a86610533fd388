package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/rec"
)

func init() {
	commands["llm fit-rank"] = command{
		summary: "fit the weight of a model's ranking as evidence on recorded tuning users: recmem llm fit-rank --data DIR --dataset NAME --catalog FILE --llm replay:FILE",
		run:     runLLMFitRank,
	}
}

// fitRow is one weight's figures on the tuning users.
type fitRow struct {
	Weight float64 `json:"weight"`
	HR1    float64 `json:"hr@1"`
	NDCG10 float64 `json:"ndcg@10"`
}

// fitReport is the JSON output of llm fit-rank.
type fitReport struct {
	Recording string   `json:"recording"`
	Skip      int      `json:"skip"`
	Users     int      `json:"users"`
	Rows      []fitRow `json:"rows"`
	// Weight is the chosen one: the best HR@1, then the best NDCG@10,
	// then the smallest weight (0 when the model never helps).
	Weight float64 `json:"weight"`
}

// runLLMFitRank replays a recording of π_rank (rank only, retrospective,
// fixed scheduler) on the tuning users with each weight of a grid and
// chooses one, so that a model's ranking counts only as much as it helped
// there (docs/llm.md, "Ranking as evidence"). Natively: the recording holds
// the answers, so no model runs. Cost: one replay of the users per weight.
func runLLMFitRank(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("llm fit-rank", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "directory of the RecBole atomic files (required)")
	name := fs.String("dataset", "", "data set name (required)")
	catFile := fs.String("catalog", "", "the catalog the recording was made against (required)")
	spec := fs.String("llm", "", "the recording, as replay:FILE (required)")
	skip := fs.Int("skip", 3000, "the tuning users start after the first `N` users with a candidate list")
	users := fs.Int("users", 30, "how many tuning users")
	grid := fs.String("weights", "0,0.125,0.25,0.5,1,2,4,8", "the weights to try, comma-separated, each 0 or more")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var weights []float64
	for _, w := range strings.Split(*grid, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || !(x >= 0) {
			fmt.Fprintf(stderr, "recmem llm fit-rank: --weights: %q is not a number 0 or more\n", w)
			return 2
		}
		weights = append(weights, x)
	}
	if *data == "" || *name == "" || *catFile == "" || !strings.HasPrefix(*spec, "replay:") || fs.NArg() > 0 || *users <= 0 || *skip < 0 {
		fmt.Fprintln(stderr, "usage: recmem llm fit-rank --data DIR --dataset NAME --catalog FILE --llm replay:FILE [--skip 3000] [--users 40] [--weights 0,0.5,1,...] [--json]")
		return 2
	}
	say := progressTo(stderr, time.Now())
	d, err := loadData(*data, *name, "", say)
	if err != nil {
		fmt.Fprintln(stderr, "recmem llm fit-rank:", err)
		return 1
	}
	cat, err := os.ReadFile(*catFile)
	if err != nil {
		fmt.Fprintln(stderr, "recmem llm fit-rank:", err)
		return 1
	}
	all, _ := rec.Cases(d.Test, d.Random, 0)
	cases := all[min(*skip, len(all)):]
	cases = cases[:min(*users, len(cases))]
	rep := fitReport{Recording: strings.TrimPrefix(*spec, "replay:"), Skip: *skip, Users: len(cases)}
	best := -1
	for _, w := range weights {
		lf := llmFlags{spec: *spec, steps: "rank", stepsSet: true, rankWeight: w, weightSet: true}
		set, err := lf.open()
		if err != nil {
			fmt.Fprintln(stderr, "recmem llm fit-rank:", err)
			return 1
		}
		open := func() (engine.Caller, func(), error) { return openCallerLLM(context.Background(), true, "", set) }
		replay := rec.Replay{Data: d, Mode: rec.ModeRetrospective, Scheduler: "fixed", EventCap: rec.DefaultEventCap}
		res, err := replay.Run(cases, nil, cat, open, 1, nil)
		set.close()
		if err != nil {
			fmt.Fprintln(stderr, "recmem llm fit-rank:", err)
			return 1
		}
		for _, o := range res.LLM {
			for why := range o.Fallback {
				if strings.Contains(why, "not in the recording") {
					fmt.Fprintf(stderr, "recmem llm fit-rank: a request is missing from the recording: %s\n", why)
					return 1
				}
			}
		}
		s := res.Scores()
		row := fitRow{Weight: w, HR1: s.HR1, NDCG10: s.NDCG10}
		rep.Rows = append(rep.Rows, row)
		if b := best; b < 0 || row.HR1 > rep.Rows[b].HR1 || row.HR1 == rep.Rows[b].HR1 && (row.NDCG10 > rep.Rows[b].NDCG10 ||
			row.NDCG10 == rep.Rows[b].NDCG10 && row.Weight < rep.Rows[b].Weight) {
			best = len(rep.Rows) - 1
		}
		say(fmt.Sprintf("weight %g: HR@1 %.4f, NDCG@10 %.4f", w, s.HR1, s.NDCG10))
	}
	rep.Weight = rep.Rows[best].Weight
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "%s on %d tuning users (after the first %d):\n", rep.Recording, rep.Users, rep.Skip)
	for _, r := range rep.Rows {
		fmt.Fprintf(stdout, "  weight %-6g HR@1 %.4f  NDCG@10 %.4f\n", r.Weight, r.HR1, r.NDCG10)
	}
	fmt.Fprintf(stdout, "chosen weight: %g\n", rep.Weight)
	return 0
}
