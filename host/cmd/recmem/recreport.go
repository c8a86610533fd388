package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	hostllm "github.com/recmem/recmem/host/llm"
	"github.com/recmem/recmem/pkg/llm"
	"github.com/recmem/recmem/pkg/rec"
)

// evalReport is the JSON output of eval rec.
type evalReport struct {
	Dataset   string  `json:"dataset"`
	Users     int     `json:"users"`
	HR1       float64 `json:"hr@1"`
	HR5       float64 `json:"hr@5"`
	NDCG5     float64 `json:"ndcg@5"`
	NDCG10    float64 `json:"ndcg@10"`
	Mode      string  `json:"mode"`
	Scheduler string  `json:"scheduler"`
	LLMCalls  float64 `json:"llm_calls_per_user"`
	LLMTokens float64 `json:"llm_tokens_per_user"`
	// LLM is the cost per user of each LLM step (the paper's Figure 4);
	// LLMEndpoint names the endpoint or replay file, never a key.
	LLM         map[string]hostllm.PerUser `json:"llm,omitempty"`
	LLMEndpoint string                     `json:"llm_endpoint,omitempty"`
	// LLMOutcomes says, per step, how many answers were used and why the
	// others fell back.
	LLMOutcomes   map[string]rec.StepOutcomes `json:"llm_outcomes,omitempty"`
	Skip          int                         `json:"skip,omitempty"`
	Ops           map[string]int              `json:"ops"`
	OpsShare      map[string]float64          `json:"ops_share"`
	OpsPerUser    map[string]float64          `json:"ops_per_user"`
	Baselines     map[string]rec.Scores       `json:"baselines"`
	Skipped       int                         `json:"skipped_users"`
	Ties          string                      `json:"ties"`
	Runtime       string                      `json:"runtime"`
	Seconds       float64                     `json:"seconds"`
	CatalogBytes  int                         `json:"catalog_bytes"`
	EventCapacity int                         `json:"event_cap"`
	// Responsiveness is the mean drop of a genre's share in the top 10
	// when the user's low ratings on it are streamed in (rec.Probe);
	// ResponsivenessDetail says over whom and from what.
	Responsiveness       float64            `json:"responsiveness"`
	ResponsivenessDetail rec.Responsiveness `json:"responsiveness_detail"`
	// Split is recmem's figures on the four fifths of users used while
	// building it and on the held-out fifth (rec.HeldOut); BaselineSplits
	// the same for each baseline.
	Split          rec.Split            `json:"split"`
	BaselineSplits map[string]rec.Split `json:"baseline_splits"`
	// Peers names the files the outside models' scores came from.
	Peers     []string           `json:"peers,omitempty"`
	ValidFit  *rec.Scores        `json:"validation_fit,omitempty"`
	Weights   map[string]float64 `json:"weights,omitempty"`
	Factorial []rec.TierResult   `json:"factorial,omitempty"`
	// Control is what the person's edits do to the recommendations
	// (rec.Control); Diversity what the cap on one series does
	// (rec.Diversity).
	Control   *rec.ControlReport   `json:"control,omitempty"`
	Diversity *rec.DiversityReport `json:"diversity,omitempty"`
	// ByHistoryLength is the run's figures by the users' history length
	// against the event list's capacity (fits, longer, over_3x).
	ByHistoryLength []rec.LengthScores `json:"by_history_length"`
	// WithProfile counts the users ranked with a profile.
	WithProfile int `json:"users_with_profile"`
	// MemoryQuality judges the memories the users were ranked with, apart
	// from any ranking metric (llm.MemoryQuality): chunks grounded in the
	// events they cite, profile sentences a chunk or an event supports,
	// duplicates, placeholder and title copies.
	MemoryQuality llm.QualityReport `json:"memory_quality"`
}

// newEvalReport is the report of a run of f on cases, before any figure.
func newEvalReport(f *evalRecFlags, dataset string, cases []rec.Case, skipped, catBytes int) evalReport {
	r := evalReport{Dataset: dataset, Users: len(cases), Mode: f.mode, Scheduler: f.sched, Skipped: skipped,
		Ties: "broken against the target (an equal score ranks above it)", Ops: map[string]int{}, OpsShare: map[string]float64{}, OpsPerUser: map[string]float64{},
		Baselines: map[string]rec.Scores{"random": rec.Expected(cases)}, BaselineSplits: map[string]rec.Split{},
		CatalogBytes: catBytes, EventCapacity: f.eventCap, Runtime: "wasm", Skip: f.skip}
	if f.native {
		r.Runtime = "native"
	}
	return r
}

// setRun fills the figures of the replay.
func (r *evalReport) setRun(cases []rec.Case, res rec.RunResult) {
	s := res.Scores()
	r.HR1, r.HR5, r.NDCG5, r.NDCG10 = s.HR1, s.HR5, s.NDCG5, s.NDCG10
	r.Split = rec.SplitOf(cases, res.Ranks)
	r.ByHistoryLength = rec.ByHistoryLength(cases, res.Ranks, r.EventCapacity)
	r.Responsiveness, r.ResponsivenessDetail = res.Responsiveness.Drop, res.Responsiveness
	r.WithProfile = res.WithProfile
	r.MemoryQuality = res.Quality.Report()
	r.Ops, r.OpsShare, r.OpsPerUser = res.Ops, res.OpsShare(), res.OpsPerUser()
}

// setLLM fills the LLM's costs per user and its answers' outcomes, when an
// LLM was configured.
func (r *evalReport) setLLM(s *llmSetup, spec string, outcomes rec.Outcomes, users int) {
	if s.meter == nil {
		return
	}
	r.LLM = s.meter.PerUser(users)
	// Sum integers, then divide: a float sum over a map would depend on its
	// iteration order.
	per, _ := s.meter.Totals()
	calls, tokens := 0, 0
	for _, u := range per {
		calls += u.Calls
		tokens += u.InputTokens + u.OutputTokens
	}
	r.LLMCalls = float64(calls) / float64(max(1, users))
	r.LLMTokens = float64(tokens) / float64(max(1, users))
	r.LLMEndpoint = spec
	r.LLMOutcomes = outcomes.Report()
}

func printReport(w io.Writer, r evalReport) {
	fmt.Fprintf(w, "%s: %d users (%d skipped: target in their random list), 1 + 9 candidates, %s mode, %s scheduler, %s\n",
		r.Dataset, r.Users, r.Skipped, r.Mode, r.Scheduler, r.Runtime)
	fmt.Fprintf(w, "ties %s\n\n", r.Ties)
	names := printScores(w, r)
	fmt.Fprintf(w, "\nHR@1 on the %d users used while building / the %d held out:", r.Split.DevUsers, r.Split.HeldOutUsers)
	for _, n := range append(names[1:], "recmem") {
		sp, ok := r.BaselineSplits[n]
		if n == "recmem" {
			sp, ok = r.Split, true
		}
		if ok {
			fmt.Fprintf(w, " %s %.4f/%.4f", n, sp.Dev.HR1, sp.HeldOut.HR1)
		}
	}
	fmt.Fprintln(w)
	if d := r.ResponsivenessDetail; d.Users > 0 {
		fmt.Fprintf(w, "responsiveness %.4f: over %d users with %d+ low ratings on a genre, its share of the top %d went from %.4f to %.4f (fell for %d, rose for %d)\n",
			r.Responsiveness, d.Users, rec.MinLow, rec.TopK, d.Before, d.After, d.Fell, d.Rose)
	} else {
		fmt.Fprintln(w, "responsiveness: no user has low ratings on a genre (not measured)")
	}
	printLengths(w, r.ByHistoryLength, r.EventCapacity)
	printControl(w, r.Control)
	printDiversity(w, r.Diversity)
	if len(r.Factorial) > 0 {
		fmt.Fprintf(w, "\ntier study (weights learned per combination; test, then held-out fifth; HR@1 by history length, dev/held-out):\n%-28s %7s %8s %10s %10s", "tiers", "HR@1", "NDCG@10", "HR@1 h/o", "valid HR@1")
		for _, g := range rec.LengthGroups {
			fmt.Fprintf(w, " %15s", g)
		}
		fmt.Fprintln(w)
		for _, t := range r.Factorial {
			fmt.Fprintf(w, "%-28s %7.4f %8.4f %10.4f %10.4f", t.Name(), t.Test.HR1, t.Test.NDCG10, t.Split.HeldOut.HR1, t.Valid.HR1)
			for _, g := range t.ByHistoryLength {
				fmt.Fprintf(w, " %15s", fmt.Sprintf("%.3f/%.3f", g.Split.Dev.HR1, g.Split.HeldOut.HR1))
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "\n%d of %d users ranked with a profile\n", r.WithProfile, r.Users)
	fmt.Fprintf(w, "LLM calls per user %.1f, tokens per user %.0f\n", r.LLMCalls, r.LLMTokens)
	for _, step := range slices.Sorted(maps.Keys(r.LLM)) {
		x := r.LLM[step]
		fmt.Fprintf(w, "  %-10s %.2f calls, %.0f input + %.0f output tokens per user\n", step, x.Calls, x.InputTokens, x.OutputTokens)
	}
	ops := slices.Collect(maps.Keys(r.Ops))
	slices.SortFunc(ops, func(a, b string) int { return cmp.Or(r.Ops[b]-r.Ops[a], strings.Compare(a, b)) })
	var parts []string
	for _, op := range ops {
		parts = append(parts, fmt.Sprintf("%s %d (%.0f%%)", op, r.Ops[op], 100*r.OpsShare[op]))
	}
	fmt.Fprintf(w, "lifecycle ops: %s\n", strings.Join(parts, ", "))
	printOutcomes(w, r.LLMOutcomes)
	printQuality(w, r.MemoryQuality)
	fmt.Fprintf(w, "%.1fs\n", r.Seconds)
}

// printControl writes what the person's edits did, overall / held out.
func printControl(w io.Writer, c *rec.ControlReport) {
	if c == nil {
		return
	}
	h := c.HeldOut
	fmt.Fprintf(w, "control (share of the top %d about the edited thing, all users / held out):\n", rec.TopK)
	fmt.Fprintf(w, "  delete a liked preference: %.3f -> %.3f, fall %.3f / %.3f (%d users); the pool holds %.3f of it, the pull above that fell %.3f / %.3f; a memory without its events %.3f, the pull above that fell %.3f / %.3f\n",
		c.Delete.Before, c.Delete.After, c.Delete.Fall, h.Delete.Fall, c.Delete.Users, c.Delete.Pool, c.Delete.ExcessFall, h.Delete.ExcessFall, c.Delete.Without, c.Delete.PullFall, h.Delete.PullFall)
	fmt.Fprintf(w, "  its strength at 0.1, 0.5, 1: %.3f, %.3f, %.3f; never fell for %.3f / %.3f of %d users\n", c.Strength.Shares[0], c.Strength.Shares[1], c.Strength.Shares[2], c.Strength.Monotone, h.Strength.Monotone, c.Strength.Users)
	fmt.Fprintf(w, "  add \"avoids X\": %.3f -> %.3f, removed for %.3f / %.3f (%d users)\n", c.Avoid.Before, c.Avoid.After, c.Avoid.Removed, h.Avoid.Removed, c.Avoid.Users)
	fmt.Fprintf(w, "  add \"likes Y\": %.3f -> %.3f, rise %.3f / %.3f, rose for %d of %d users\n", c.Like.Before, c.Like.After, c.Like.Rise, h.Like.Rise, c.Like.Rose, c.Like.Users)
}

// printDiversity writes what the cap on one series did, overall / held out.
func printDiversity(w io.Writer, d *rec.DiversityReport) {
	if d == nil {
		return
	}
	h := d.HeldOut
	row := func(name string, f, g rec.DiversityFigures) {
		fmt.Fprintf(w, "  %-11s HR@1 %.4f / %.4f, NDCG@10 %.4f / %.4f; top %d of the random pool: most of one series %.2f, over %d for %.3f of users, intra-list diversity %.3f; of the %d most popular: %.2f, %.3f, %.3f\n",
			name, f.HR1, g.HR1, f.NDCG10, g.NDCG10, rec.TopK, f.Pool.MaxSeries, d.Cap, f.Pool.OverCap, f.Pool.ILD,
			rec.PopularPool, f.Popular.MaxSeries, f.Popular.OverCap, f.Popular.ILD)
	}
	fmt.Fprintf(w, "diversity (natively, %d users; all / held out):\n", d.Users)
	row("with cap", d.With, h.With)
	row("without", d.Without, h.Without)
}

// printLengths writes the run's HR@1 by history length.
func printLengths(w io.Writer, gs []rec.LengthScores, cap int) {
	var parts []string
	for _, g := range gs {
		parts = append(parts, fmt.Sprintf("%s %.4f (%d users; %.4f/%.4f)", g.Group, g.HR1, g.Users, g.Split.Dev.HR1, g.Split.HeldOut.HR1))
	}
	fmt.Fprintf(w, "HR@1 by history length against the event list (%d; fits, up to 3x longer, more; dev/held-out): %s\n", cap, strings.Join(parts, ", "))
}

// printScores writes the table of the rankers' scores: the random, pop,
// itemknn and bpr baselines, the peers in name order, then recmem. It
// returns the rankers' names, recmem left out.
func printScores(w io.Writer, r evalReport) []string {
	fmt.Fprintf(w, "%-12s %7s %7s %8s %8s\n", "ranker", "HR@1", "HR@5", "NDCG@5", "NDCG@10")
	row := func(n string, s rec.Scores) {
		fmt.Fprintf(w, "%-12s %7.4f %7.4f %8.4f %8.4f\n", n, s.HR1, s.HR5, s.NDCG5, s.NDCG10)
	}
	names := []string{"random", "pop", "itemknn", "bpr"}
	for _, n := range slices.Sorted(maps.Keys(r.Baselines)) {
		if !slices.Contains(names, n) {
			names = append(names, n) // the peers read with --peers
		}
	}
	for _, n := range names {
		row(n, r.Baselines[n])
	}
	row("recmem", rec.Scores{HR1: r.HR1, HR5: r.HR5, NDCG5: r.NDCG5, NDCG10: r.NDCG10})
	return names
}

// printOutcomes writes the valid share per step and the fallback reasons,
// most frequent first.
func printOutcomes(w io.Writer, r map[string]rec.StepOutcomes) {
	if len(r) == 0 {
		return
	}
	fmt.Fprintln(w, "LLM answers used (parsed and valid) per step:")
	for _, step := range slices.Sorted(maps.Keys(r)) {
		x := r[step]
		fmt.Fprintf(w, "  %-10s %d of %d (%.1f%%)\n", step, x.Accepted, x.Asked, 100*x.Valid)
		reasons := slices.Collect(maps.Keys(x.Fallback))
		sort.Slice(reasons, func(i, j int) bool {
			a, b := x.Fallback[reasons[i]], x.Fallback[reasons[j]]
			return a > b || a == b && reasons[i] < reasons[j]
		})
		for _, why := range reasons {
			fmt.Fprintf(w, "    %5d fallback: %s\n", x.Fallback[why], strings.ReplaceAll(why, "\n", " "))
		}
		if len(x.Rejections) > 0 {
			var parts []string
			for _, c := range slices.Sorted(maps.Keys(x.Rejections)) {
				parts = append(parts, fmt.Sprintf("%s %d", c, x.Rejections[c]))
			}
			fmt.Fprintf(w, "    rejections by check: %s\n", strings.Join(parts, ", "))
		}
	}
}

// printQuality writes the memory-quality line.
func printQuality(w io.Writer, q llm.QualityReport) {
	fmt.Fprintf(w, "memory quality: %.1f chunks per user, %.1f%% grounded in their events (%d unverifiable), profile faithfulness %.1f%% (%d of %d sentences), %d duplicates, %d placeholder copies, %d title copies, %d verbatim profiles\n",
		q.ChunksPerUser, 100*q.GroundedShare, q.Unverifiable, 100*q.Faithfulness, q.Supported, q.Sentences, q.Duplicates, q.Placeholders, q.TitleCopies, q.Verbatim)
}
