package rec

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/memory"
)

// Control measures whether the person's edits of the memory steer the
// recommendations, over many users and edits (docs/rec.md, "Edits that
// steer"). For each test user, the memory is built from the history as the
// run builds it, a pool of the user's .random items (the first PoolSize not
// in the history or the target) is ranked, and then, each from that same
// memory:
//
//   - delete: the "likes" chunk that pulls the top TopK its way the most
//     is deleted: of those with at least two items of the top about them,
//     the one whose share of the top is the most above the share of the top
//     a memory built from the history without the events about it gives
//     (its evidence's pull; then the strongest). The share of the top TopK
//     about it should fall by half or more, and not below that of the
//     memory without its events (that would be an "avoids");
//   - strength: that chunk's strength is set to 0.1, 0.5 and 1 in turn; the
//     share should never fall as the strength rises;
//   - avoid: "avoids X" is added, X the facet value (not a title word) the
//     most items of the top TopK are about, when the pool holds TopK items
//     not about X; none should remain;
//   - like: "likes Y" is added, Y the facet value the pool holds most of
//     among those with at most one item in the top TopK and no chunk; its
//     share should rise.
//
// The edits are apply_ops calls with trigger "user", as the page makes them.
type Control struct {
	Data *dataset.RecBole
	// Build builds the user's memory on the caller (Replay.build).
	Build func(c engine.Caller, k Case) error
}

// ControlCase is one user's measurement: the shares of the top TopK about
// the edited thing before and after each edit (-1 when the edit did not
// apply to this user).
type ControlCase struct {
	User                      string
	DeleteBefore, DeleteAfter float64
	DeletePool                float64 // the share of the whole pool about it
	// DeleteWithout is the share of the top of a memory built from the
	// history without the events about it: what no evidence of it gives.
	DeleteWithout           float64
	Strengths               []float64 // share at 0.1, 0.5, 1 (nil: not measured)
	AvoidBefore, AvoidAfter float64
	LikeBefore, LikeAfter   float64
	Deleted, Avoided, Liked string
}

// Measure runs c's edits for one case on caller ca. O(3 rankings of the
// pool + 6 edits and rankings + a memory build and a ranking per liked
// chunk with two items of the top).
func (ctl Control) Measure(ca engine.Caller, k Case) (ControlCase, error) {
	out := ControlCase{User: k.User, DeleteBefore: -1, DeleteAfter: -1, DeletePool: -1, DeleteWithout: -1, AvoidBefore: -1, AvoidAfter: -1, LikeBefore: -1, LikeAfter: -1}
	pool := ctl.pool(k)
	if len(pool) < 2*TopK {
		return out, nil
	}
	if err := ctl.Build(ca, k); err != nil {
		return out, err
	}
	doc, err := engine.ExportState.Call(ca, engine.ExportStateInput{})
	if err != nil {
		return out, err
	}
	saved, err := json.Marshal(doc)
	if err != nil {
		return out, err
	}
	restore := func() error {
		_, err := engine.ImportState.Call(ca, engine.Raw(saved))
		return err
	}
	keys := make([][]memory.ItemKey, len(pool))
	for i, it := range pool {
		keys[i] = memory.ItemKeys(metaOf(ctl.Data, it), nil)
	}
	top, err := ctl.top(ca, pool)
	if err != nil {
		return out, err
	}
	mem, err := engine.GetMemory.Call(ca, engine.GetMemoryInput{JournalLimit: 1})
	if err != nil {
		return out, err
	}
	share := func(top []int, cat string, ks []string) float64 {
		n := 0
		for _, i := range top {
			if aboutAny(keys[i], cat, ks) {
				n++
			}
		}
		return float64(n) / float64(len(top))
	}
	now := mem.Clock
	// delete and strength: the liked chunk that pulls the top its way the
	// most: its share of the top beyond the share of the top the same pool
	// gets from a memory built from the history without the events about
	// it (what its evidence adds; the items a whole catalog rates well,
	// "titles from the 1980s" on MovieLens, are there without it), at
	// least two items of the top about it; then the strongest.
	all := make([]int, len(pool))
	for i := range all {
		all[i] = i
	}
	best, bestPull, bestWithout := -1, 0.0, 0.0
	for i, c := range mem.Chunks {
		on := share(top, c.Category, chunkKeys(c))
		if c.Polarity != "likes" || on*TopK < 1.5 {
			continue
		}
		t, err := ctl.topWithout(ca, k, pool, c.Category, chunkKeys(c))
		if err != nil {
			return out, err
		}
		without := share(t, c.Category, chunkKeys(c))
		pull := on - without
		if pull <= 0 {
			continue
		}
		if best < 0 || pull > bestPull || pull == bestPull && c.Strength > mem.Chunks[best].Strength {
			best, bestPull, bestWithout = i, pull, without
		}
	}
	if best >= 0 {
		if err := restore(); err != nil {
			return out, err
		}
	}
	if best >= 0 {
		c := mem.Chunks[best]
		ks := chunkKeys(c)
		out.Deleted, out.DeleteBefore = c.Text, share(top, c.Category, ks)
		out.DeletePool = share(all, c.Category, ks)
		out.DeleteWithout = bestWithout
		if _, err := engine.ApplyOps.Call(ca, engine.ApplyOpsInput{Now: &now, Ops: []memory.Op{{Op: "delete", Chunk: c.ID}}}); err != nil {
			return out, err
		}
		after, err := ctl.top(ca, pool)
		if err != nil {
			return out, err
		}
		out.DeleteAfter = share(after, c.Category, ks)
		for _, s := range []float64{0.1, 0.5, 1} {
			if err := restore(); err != nil {
				return out, err
			}
			if _, err := engine.ApplyOps.Call(ca, engine.ApplyOpsInput{Now: &now, Ops: []memory.Op{{Op: "edit", Chunk: c.ID, Strength: &s}}}); err != nil {
				return out, err
			}
			t, err := ctl.top(ca, pool)
			if err != nil {
				return out, err
			}
			out.Strengths = append(out.Strengths, share(t, c.Category, ks))
		}
	}
	// avoid: the facet value the top holds most of, when the pool has
	// TopK items not about it (else some must stay).
	if x, ok := mostCommon(keys, top, nil); ok && len(pool)-count(keys, x) >= TopK {
		if err := restore(); err != nil {
			return out, err
		}
		out.Avoided, out.AvoidBefore = x.Key, share(top, x.Category, []string{x.Key})
		if _, err := engine.ApplyOps.Call(ca, engine.ApplyOpsInput{Now: &now, Ops: []memory.Op{{Op: "add", Text: "avoids " + x.Key, Category: x.Category, Key: x.Key}}}); err != nil {
			return out, err
		}
		after, err := ctl.top(ca, pool)
		if err != nil {
			return out, err
		}
		out.AvoidAfter = share(after, x.Category, []string{x.Key})
	}
	// like: the facet value the pool holds most of, little of it on top.
	held := func(k memory.ItemKey) bool {
		if share(top, k.Category, []string{k.Key})*TopK > 1.5 {
			return true
		}
		return slices.ContainsFunc(mem.Chunks, func(c memory.Chunk) bool { return c.Category == k.Category && slices.Contains(chunkKeys(c), k.Key) })
	}
	if y, ok := mostCommon(keys, all, held); ok {
		if err := restore(); err != nil {
			return out, err
		}
		out.Liked, out.LikeBefore = y.Key, share(top, y.Category, []string{y.Key})
		if _, err := engine.ApplyOps.Call(ca, engine.ApplyOpsInput{Now: &now, Ops: []memory.Op{{Op: "add", Text: "likes " + y.Key, Category: y.Category, Key: y.Key}}}); err != nil {
			return out, err
		}
		after, err := ctl.top(ca, pool)
		if err != nil {
			return out, err
		}
		out.LikeAfter = share(after, y.Category, []string{y.Key})
	}
	return out, nil
}

// topWithout builds, on ca, the memory of k's history without the events
// about (cat, one of ks), as if the person had never shown that taste, and
// returns the top TopK of the pool it ranks (an empty memory when every
// event is about it). The caller restores its own memory after. O(one
// build and one ranking).
func (ctl Control) topWithout(ca engine.Caller, k Case, pool []int, cat string, ks []string) ([]int, error) {
	kk := k
	kk.History, kk.Ratings, kk.Times = nil, nil, nil
	for t, it := range k.History {
		if aboutAny(memory.ItemKeys(metaOf(ctl.Data, it), nil), cat, ks) {
			continue
		}
		kk.History = append(kk.History, it)
		if k.Ratings != nil {
			kk.Ratings = append(kk.Ratings, k.Ratings[t])
		}
		if k.Times != nil {
			kk.Times = append(kk.Times, k.Times[t])
		}
	}
	if len(kk.History) == 0 {
		if _, err := engine.Reset.Call(ca, engine.ResetInput{}); err != nil {
			return nil, err
		}
	} else if err := ctl.Build(ca, kk); err != nil {
		return nil, err
	}
	return ctl.top(ca, pool)
}

// pool is the items the control ranks: the first PoolSize of the user's
// .random line that are neither in the history nor the target.
func (ctl Control) pool(k Case) []int {
	seen := map[int]bool{k.Target: true}
	for _, it := range k.History {
		seen[it] = true
	}
	var out []int
	for _, it := range ctl.Data.Random[k.User] {
		if len(out) == PoolSize {
			break
		}
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

// top ranks the pool on ca and returns the indices (into the pool) of the
// top TopK, in ranking order.
func (ctl Control) top(ca engine.Caller, pool []int) ([]int, error) {
	cands := make([]engine.RankCandidate, len(pool))
	at := make(map[string]int, len(pool))
	for i, it := range pool {
		cands[i] = engine.RankCandidate{ID: ctl.Data.Items[it].ID}
		at[cands[i].ID] = i
	}
	out, err := engine.Rank.Call(ca, engine.RankInput{Candidates: cands, K: TopK})
	if err != nil {
		return nil, err
	}
	top := make([]int, len(out.Ranking))
	for i, r := range out.Ranking {
		top[i] = at[r.ID]
	}
	return top, nil
}

// metaOf is an item's metadata as a signal carries it.
func metaOf(d *dataset.RecBole, it int) map[string][]string {
	item := d.Items[it]
	meta := make(map[string][]string, len(item.Meta))
	for k, v := range item.Meta {
		meta[k] = []string{v}
	}
	return meta
}

// count is how many items are about k.
func count(keys [][]memory.ItemKey, k memory.ItemKey) int {
	n := 0
	for _, ks := range keys {
		if slices.Contains(ks, k) {
			n++
		}
	}
	return n
}

func chunkKeys(c memory.Chunk) []string { return append([]string{c.Key}, c.Aliases...) }

func aboutAny(keys []memory.ItemKey, cat string, ks []string) bool {
	return slices.ContainsFunc(keys, func(k memory.ItemKey) bool { return k.Category == cat && slices.Contains(ks, k.Key) })
}

// mostCommon returns the facet value (not a title topic) that the most of
// the items at idx are about, ties to the first met, skipping those skip
// says; ok is false when none is about at least two items.
func mostCommon(keys [][]memory.ItemKey, idx []int, skip func(memory.ItemKey) bool) (memory.ItemKey, bool) {
	count := map[memory.ItemKey]int{}
	var order []memory.ItemKey
	for _, i := range idx {
		for _, k := range keys[i] {
			if k.Category == "topic" {
				continue
			}
			if count[k] == 0 {
				order = append(order, k)
			}
			count[k]++
		}
	}
	var best memory.ItemKey
	n := 1
	for _, k := range order {
		if count[k] > n && (skip == nil || !skip(k)) {
			best, n = k, count[k]
		}
	}
	return best, n > 1
}

// ControlReport is what eval rec reports as "control": each edit's figures
// over the users it applied to, overall and on the held-out fifth.
type ControlReport struct {
	Users    int             `json:"users"`
	Delete   DeleteFigures   `json:"delete"`
	Strength StrengthFigures `json:"strength"`
	Avoid    AvoidFigures    `json:"avoid"`
	Like     LikeFigures     `json:"like"`
	HeldOut  *ControlReport  `json:"heldout,omitempty"`
}

// DeleteFigures: the mean share of the top TopK about the deleted
// preference before and after, over Users users, and its relative fall
// (1 - after/before; the target is 0.5 or more). Pool is the mean share of
// the whole pool about it, and ExcessFall the fall of the share above it
// (1 - (after - pool) / (before - pool)). Without is the mean share of the
// top a memory built from the history without the events about it gives
// (what no evidence of it gives: a deletion that goes below it turns the
// list against the preference, an "avoids" the person did not say), and
// PullFall the fall of the share above that (1 - (after - without) /
// (before - without)): how much of its evidence's pull went.
type DeleteFigures struct {
	Users      int     `json:"users"`
	Before     float64 `json:"share_before"`
	After      float64 `json:"share_after"`
	Fall       float64 `json:"fall"`
	Pool       float64 `json:"share_pool"`
	ExcessFall float64 `json:"excess_fall"`
	Without    float64 `json:"share_without"`
	PullFall   float64 `json:"pull_fall"`
}

// StrengthFigures: the mean share at strengths 0.1, 0.5 and 1 of the same
// preference, and the share of users for whom it never fell as the strength
// rose.
type StrengthFigures struct {
	Users    int       `json:"users"`
	Shares   []float64 `json:"shares"`
	Monotone float64   `json:"monotone"`
}

// AvoidFigures: the mean share of the top TopK about X before and after
// "avoids X", and the share of users whose top holds none of it after (the
// target is 1).
type AvoidFigures struct {
	Users   int     `json:"users"`
	Before  float64 `json:"share_before"`
	After   float64 `json:"share_after"`
	Removed float64 `json:"removed"`
}

// LikeFigures: the mean share of the top TopK about Y before and after
// "likes Y", the mean rise, and how many users' share rose.
type LikeFigures struct {
	Users  int     `json:"users"`
	Before float64 `json:"share_before"`
	After  float64 `json:"share_after"`
	Rise   float64 `json:"rise"`
	Rose   int     `json:"users_rose"`
}

// NewControlReport sums the cases, and the held-out fifth's apart.
func NewControlReport(cs []ControlCase) ControlReport {
	r := summarize(cs)
	var ho []ControlCase
	for _, c := range cs {
		if HeldOut(c.User) {
			ho = append(ho, c)
		}
	}
	h := summarize(ho)
	r.HeldOut = &h
	return r
}

func summarize(cs []ControlCase) ControlReport {
	r := ControlReport{Users: len(cs), Strength: StrengthFigures{Shares: []float64{0, 0, 0}}}
	for _, c := range cs {
		if c.DeleteBefore >= 0 {
			r.Delete.Users++
			r.Delete.Before += c.DeleteBefore
			r.Delete.After += c.DeleteAfter
			r.Delete.Pool += c.DeletePool
			r.Delete.Without += c.DeleteWithout
		}
		if c.AvoidBefore >= 0 {
			r.Avoid.Users++
			r.Avoid.Before += c.AvoidBefore
			r.Avoid.After += c.AvoidAfter
			if c.AvoidAfter == 0 {
				r.Avoid.Removed++
			}
		}
		if c.LikeBefore >= 0 {
			r.Like.Users++
			r.Like.Before += c.LikeBefore
			r.Like.After += c.LikeAfter
			if c.LikeAfter > c.LikeBefore {
				r.Like.Rose++
			}
		}
		if len(c.Strengths) == 3 {
			r.Strength.Users++
			for i, s := range c.Strengths {
				r.Strength.Shares[i] += s
			}
			if c.Strengths[0] <= c.Strengths[1] && c.Strengths[1] <= c.Strengths[2] {
				r.Strength.Monotone++
			}
		}
	}
	if n := float64(r.Delete.Users); n > 0 {
		r.Delete.Before /= n
		r.Delete.After /= n
		r.Delete.Pool /= n
		r.Delete.Without /= n
	}
	if r.Delete.Before > 0 {
		r.Delete.Fall = 1 - r.Delete.After/r.Delete.Before
	}
	if r.Delete.Before > r.Delete.Pool {
		r.Delete.ExcessFall = 1 - (r.Delete.After-r.Delete.Pool)/(r.Delete.Before-r.Delete.Pool)
	}
	if r.Delete.Before > r.Delete.Without {
		r.Delete.PullFall = 1 - (r.Delete.After-r.Delete.Without)/(r.Delete.Before-r.Delete.Without)
	}
	if n := float64(r.Avoid.Users); n > 0 {
		r.Avoid.Before /= n
		r.Avoid.After /= n
		r.Avoid.Removed /= n
	}
	if n := float64(r.Like.Users); n > 0 {
		r.Like.Before /= n
		r.Like.After /= n
		r.Like.Rise = r.Like.After - r.Like.Before
	}
	if n := float64(r.Strength.Users); n > 0 {
		for i := range r.Strength.Shares {
			r.Strength.Shares[i] /= n
		}
		r.Strength.Monotone /= n
	}
	return r
}

// RunControl measures the control of every case (Control.Measure) on
// workers callers from open, each loading catalog once; results in case
// order. progress (may be nil) hears every ProgressEvery users.
func RunControl(ctl Control, cases []Case, catalog []byte, open Opener, workers int, progress func(string)) (ControlReport, error) {
	out := make([]ControlCase, len(cases))
	err := eachCase(len(cases), catalog, open, workers, progress, "control: ", func(c engine.Caller, i int) error {
		var err error
		if out[i], err = ctl.Measure(c, cases[i]); err != nil {
			return fmt.Errorf("user %s: control: %w", cases[i].User, err)
		}
		return nil
	})
	if err != nil {
		return ControlReport{}, err
	}
	return NewControlReport(out), nil
}
