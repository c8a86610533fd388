package intentlab

import (
	"fmt"
	"hash/fnv"

	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/rec"
)

// TargetReport is the target-aware check on Games-6k's 1 + 9 protocol: HR@1
// with an instruction naming one facet of the held-out target, and without
// it; Dev and HeldOut hold the same pair (instructed, plain) per split.
type TargetReport struct {
	Users         int        `json:"users"`
	Skipped       int        `json:"skipped_no_facet"`
	HR1Instructed float64    `json:"hr@1_instructed"`
	HR1Plain      float64    `json:"hr@1_plain"`
	Dev           [2]float64 `json:"dev"`
	HeldOut       [2]float64 `json:"heldout"`
	DevUsers      int        `json:"dev_users"`
	HeldOutUsers  int        `json:"heldout_users"`
	Ranker        string     `json:"ranker"`
}

// TargetTemplates are the instructions of the target-aware check by facet,
// written for this check: a user names one facet of what they want next.
var TargetTemplates = map[string][]string{
	"platform": {"something for my %s", "I play on %s", "%s games please", "only %s", "anything on %s", "I'm gaming on the %s these days"},
	"series":   {"more %s please", "I'm in the mood for %s", "%s games", "something from the %s series", "I want to play %s", "got any %s?"},
}

// TargetInstruction is what user asks for when their next item has fields:
// with x the FNV-1a 32 hash of user, its series when it has one and x is
// even or it has no platform, else its platform, in template (x/2) modulo
// the facet's templates. ok is false when the item has neither.
func TargetInstruction(user string, fields map[string]string) (instruction string, ok bool) {
	h := fnv.New32a()
	h.Write([]byte(user))
	x := h.Sum32()
	facet, value := "platform", fields["platform"]
	if s := fields["series"]; s != "" && (value == "" || x%2 == 0) {
		facet, value = "series", s
	}
	if value == "" {
		return "", false
	}
	tpl := TargetTemplates[facet]
	return fmt.Sprintf(tpl[(x/2)%uint32(len(tpl))], value), true
}

// TargetAware runs the protocol's cases of the split (at most o.Users) on
// cat, loaded into the engine behind x. cat.Items is indexed as the cases'
// items are (the data set's order). For each user whose target has a
// platform or series, the history is recorded as purchases one day apart
// and maintained, and the candidates are ranked with TargetInstruction and
// without; a hit is the target first, ties broken against it
// (rec.TargetRank). Cost per user: a replay and two rank calls.
func TargetAware(x engine.Caller, cat Catalog, cases []rec.Case, o Options) (*TargetReport, error) {
	split, err := o.split()
	if err != nil {
		return nil, err
	}
	if err := cat.load(x); err != nil {
		return nil, err
	}
	rep := &TargetReport{Ranker: "demo weights over all Games-6k items, no collaborative factors"}
	var hits [2][2]float64 // [dev, heldout][instructed, plain]
	var n [2]int
	for _, c := range cases {
		h := rec.HeldOut(c.User)
		if !keeps(split, h) {
			continue
		}
		if o.Users > 0 && n[0]+n[1] >= o.Users {
			break
		}
		instr, ok := TargetInstruction(c.User, cat.Items[c.Target].Fields)
		if !ok {
			rep.Skipped++
			continue
		}
		a, b, err := targetHits(x, cat.Items, c, instr)
		if err != nil {
			return nil, err
		}
		s := 0
		if h {
			s = 1
		}
		hits[s][0] += a
		hits[s][1] += b
		n[s]++
		if (n[0]+n[1])%1000 == 0 {
			o.progress(fmt.Sprintf("%d users", n[0]+n[1]))
		}
	}
	rep.Users, rep.DevUsers, rep.HeldOutUsers = n[0]+n[1], n[0], n[1]
	rep.HR1Instructed = Ratio(hits[0][0]+hits[1][0], n[0]+n[1])
	rep.HR1Plain = Ratio(hits[0][1]+hits[1][1], n[0]+n[1])
	rep.Dev = [2]float64{Ratio(hits[0][0], n[0]), Ratio(hits[0][1], n[0])}
	rep.HeldOut = [2]float64{Ratio(hits[1][0], n[1]), Ratio(hits[1][1], n[1])}
	return rep, nil
}

// targetHits replays c's history and ranks its candidates with instr and
// without: 1 for each ranking whose first is the target, else 0.
func targetHits(x engine.Caller, items []Item, c rec.Case, instr string) (with, plain float64, err error) {
	history := make([]memory.Signal, 0, len(c.History))
	for k, it := range c.History {
		history = append(history, signal(items[it], c.User, "purchase", k, true))
	}
	if err := replay(x, history); err != nil {
		return 0, 0, err
	}
	cands := make([]engine.RankCandidate, len(c.Candidates))
	for k, it := range c.Candidates {
		cands[k] = engine.RankCandidate{ID: items[it].ID}
	}
	target := items[c.Target].ID
	if with, err = targetHit(x, cands, &instr, target); err != nil {
		return 0, 0, err
	}
	plain, err = targetHit(x, cands, nil, target)
	return with, plain, err
}

// targetHit ranks cands with instr (none when nil): 1 when target comes
// first (TargetFirst), else 0.
func targetHit(x engine.Caller, cands []engine.RankCandidate, instr *string, target string) (float64, error) {
	o, err := engine.Rank.Call(x, engine.RankInput{Candidates: cands, Instruction: instr})
	if err != nil || !TargetFirst(o, target) {
		return 0, err
	}
	return 1, nil
}

// TargetFirst says whether target is listed in o and every other listed item
// scores strictly less (rec.TargetRank is 0). O(len(o.Ranking)).
func TargetFirst(o engine.RankOutput, target string) bool {
	scores := make([]float64, len(o.Ranking))
	t := -1
	for i, r := range o.Ranking {
		scores[i] = r.Score
		if r.ID == target {
			t = i
		}
	}
	return t >= 0 && rec.TargetRank(scores, t) == 0
}
