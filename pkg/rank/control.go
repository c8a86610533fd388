package rank

import (
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/memory"
)

// What the user's own edits do to a ranking (docs/rec.md, "Edits that
// steer"), and the variety of a list:
//
//   - A deleted preference (memory.Tombstone): the events that were its
//     evidence stop pulling that way. No feature of taste reads them, for
//     any candidate, so the list is the one the user would get had they
//     never shown that taste (not one turned against it: that would be an
//     "avoids" they did not say); a candidate about it says so.
//   - A stated "avoids" at full strength (memory.Chunk.Stated, strength 1:
//     "avoids Nintendo", "never show me Halo"): the candidates it names are
//     ranked after every other, unless the instruction asks for them. A
//     stated liking at full strength ("likes Zelda") ranks what it names
//     before every other, within the variety's caps; below full strength
//     either is a preference like another, as the learned weights read it.
//   - Variety: at most SeriesCap items of one series, and of one kind that
//     is not the catalog's main kind (accessories, collectibles, when most
//     items are games), and one edition of one title, before the others,
//     unless the instruction names the series, title or kind. The rest
//     follow, in score order.
//
// Each is a score term that shifts an item below every item it must
// follow (the spread of the scores + 1, as the instruction's tiers do), so
// the score stays monotone with the order, and each says why in the
// explanation.

// Tombstone is a preference the user deleted, as the ranker reads it: what
// it was about (its category and keys), its text, and the events that were
// its evidence: for a liking, indices into User.Events; for an avoidance,
// into User.Disliked.
type Tombstone struct {
	Category string
	Keys     []string
	Text     string
	Events   []int
	Disliked []int
}

// DefaultSeriesCap is how many items of one series a list puts before the
// others when Ranker.SeriesCap is 0.
const DefaultSeriesCap = 3

// mainKind is the kind most of the catalog's items are (the most frequent
// value of its "kind" column, ties to the first), "" when it has none.
// O(items).
func mainKind(cat *catalog.Catalog) string {
	col := slices.Index(cat.MetaNames, "kind")
	if col < 0 {
		return ""
	}
	count := map[string]int{}
	best := ""
	for _, m := range cat.Meta {
		if k := strings.ToLower(strings.TrimSpace(m[col])); k != "" {
			if count[k]++; best == "" || count[k] > count[best] {
				best = k
			}
		}
	}
	return best
}

// about reports whether an item with keys is about (category, one of ks).
func about(keys []memory.ItemKey, category string, ks []string) bool {
	for _, k := range keys {
		if k.Category == category && slices.Contains(ks, k.Key) {
			return true
		}
	}
	return false
}

// silenced returns which of u.Events and u.Disliked (by index) are the
// evidence of a deleted preference (nil maps when none). O(tombstones ·
// events).
func silenced(u User) (events, disliked map[int]bool) {
	mark := func(m *map[int]bool, at []int) {
		for _, e := range at {
			if *m == nil {
				*m = map[int]bool{}
			}
			(*m)[e] = true
		}
	}
	for _, t := range u.Tombstones {
		mark(&events, t.Events)
		mark(&disliked, t.Disliked)
	}
	return events, disliked
}

// deletedNote is what a candidate with keys says about the deleted
// preferences it is about ("" when none): that their evidence is not read.
// It moves no score (the features already leave the evidence out).
// O(tombstones · keys).
func deletedNote(u *User, keys []memory.ItemKey) string {
	var names []string
	n := 0
	for _, t := range u.Tombstones {
		if len(t.Events)+len(t.Disliked) > 0 && about(keys, t.Category, t.Keys) {
			names = append(names, "\""+t.Text+"\"")
			n += len(t.Events) + len(t.Disliked)
		}
	}
	if names == nil {
		return ""
	}
	it := "it"
	if len(names) > 1 {
		it = "them"
	}
	what := "the event that showed " + it + " is"
	if n > 1 {
		what = "the " + strconv.Itoa(n) + " events that showed " + it + " are"
	}
	return "the user deleted " + strings.Join(names, " and ") + ": " + what + " not read"
}

// noteDeleted adds to the explanation of each candidate about a deleted
// preference that the evidence of it is not read (deletedNote), a child of
// value 0. O(candidates · tombstones · keys).
func (r *Ranker) noteDeleted(u User, req Request, out []Ranked) {
	for k, c := range req.Candidates {
		ci, ok := r.cat.Lookup(c.ID)
		if !ok {
			ci = -1
		}
		if why := deletedNote(&u, r.keysOf(u.Categories, c, ci)); why != "" {
			out[k].Explanation.Children = append(out[k].Explanation.Children, Explanation{Message: why})
		}
	}
}

// statedBy returns the text of the chunk the user stated at full strength
// (sign 1: a liking, at 1; sign -1: an avoidance, at -1) that names an item
// with keys, or "".
func statedBy(u *User, keys []memory.ItemKey, sign float64) string {
	for _, c := range u.Chunks {
		if c.Stated && c.Strength*sign >= 1 && about(keys, c.Category, c.Keys) {
			return c.Text
		}
	}
	return ""
}

// lift raises the items marked in up above every other item, as shift
// lowers them. O(items).
func lift(out []Ranked, up []string) { move(out, up, 1) }

// shift lowers the items marked in down below every other item: their
// score drops by the spread of the scores + 1, with an explanation child
// saying why. O(items).
func shift(out []Ranked, down []string) { move(out, down, -1) }

// move shifts the marked items' scores by sign × (the spread of the scores
// + 1), with an explanation child saying why. O(items).
func move(out []Ranked, down []string, sign float64) {
	if !slices.ContainsFunc(down, func(s string) bool { return s != "" }) {
		return
	}
	lo, hi := 0.0, 0.0
	for k := range out {
		if k == 0 || out[k].Score < lo {
			lo = out[k].Score
		}
		if k == 0 || out[k].Score > hi {
			hi = out[k].Score
		}
	}
	gap := round6(hi - lo + 1)
	for k, why := range down {
		if why == "" {
			continue
		}
		out[k].Explanation.Children = append(out[k].Explanation.Children, Explanation{Value: round6(sign * gap), Message: why})
		out[k].Explanation.Value = round6(out[k].Explanation.Value + sign*gap)
		out[k].Score = out[k].Explanation.Value
	}
}

// asked reports whether the instruction names the item's series, title or
// kind (a preference or an "only" about a series or kind, or a title phrase,
// that the item meets): a list the user asks to be of one series may be.
func (r *Ranker) asked(in *intent.Intent, it *intent.Item) bool {
	if in == nil {
		return false
	}
	for _, cs := range [][]intent.Clause{in.Prefer, in.Only} {
		for _, c := range cs {
			if (c.Facet == "series" || c.Facet == "title" || c.Facet == "kind") && r.linker().Meets(c, it) {
				return true
			}
		}
	}
	return false
}

// variety marks the items a list puts after the others: beyond the cap of
// items of one series or minor kind, or a second edition of one title, in
// the order the list would have without it (order: indices of out, best
// first). An item the instruction asks for is never marked. Only the head
// of the order that fills req.K places is read (all of it when K is 0):
// an item below it stays below whatever is marked. O(K + marked) groups
// (groupOf).
func (r *Ranker) variety(req Request, out []Ranked, order []int) []string {
	limit := r.SeriesCap
	if limit == 0 {
		limit = DefaultSeriesCap
	}
	down := make([]string, len(out))
	if limit < 0 {
		return down
	}
	var items []intent.Item
	if req.Intent != nil && len(req.Intent.Prefer)+len(req.Intent.Only) > 0 {
		items = r.matchItems(req.Candidates)
	}
	series, titles, kinds := map[string]int{}, map[string]int{}, map[string]int{}
	placed := 0
	for _, k := range order {
		if req.K > 0 && placed == req.K {
			break
		}
		g := r.groupOf(req.Candidates[k])
		if items != nil && r.asked(req.Intent, &items[k]) {
			placed++
			continue
		}
		minor := g.kind != "" && g.kind != r.mainKind
		switch {
		case g.core != "" && titles[g.core] >= 1:
			down[k] = "another edition of a title already in the list: shown after the others"
		case g.series != "" && series[g.series] >= limit:
			down[k] = "the list already holds " + strconv.Itoa(limit) + " of its series (" + g.series + "): shown after the others"
		case minor && kinds[g.kind] >= limit:
			down[k] = "the list already holds " + strconv.Itoa(limit) + " of its kind (" + g.kind + "): shown after the others"
		}
		if down[k] != "" {
			continue
		}
		placed++
		if g.core != "" {
			titles[g.core]++
		}
		if g.series != "" {
			series[g.series]++
		}
		if minor {
			kinds[g.kind]++
		}
	}
	return down
}

// itemGroups is what variety groups an item by: its series, its title
// without edition and platform (memory.SeriesKey, memory.TitleCore), and
// its kind (a "kind" metadata field).
type itemGroups struct {
	series, core, kind string
}

// groupOf returns a candidate's groups: from the catalog's metadata and its
// own. An item with no series of its own whose title begins with a series
// the catalog names ("Halo Reach", the catalog's "Halo") is of that series.
// O(size of its metadata).
func (r *Ranker) groupOf(c Candidate) itemGroups {
	ci, ok := r.cat.Lookup(c.ID)
	var g itemGroups
	switch {
	case ok && len(c.Meta) == 0:
		g = groupsOf(r.cat.MetaMap(ci), r.itemKeysIfBuilt(ci))
	case ok:
		m := r.cat.MetaMap(ci)
		for f, v := range c.Meta {
			m[f] = append(m[f], v...)
		}
		g = groupsOf(m, nil)
	default:
		g = groupsOf(c.Meta, nil)
	}
	if g.series == "" && g.core != "" {
		g.series = r.seriesPrefix(g.core)
	}
	return g
}

// seriesPrefix returns the longest series the catalog's series column
// names that a title's key begins with, word for word, or "". O(words of
// the title).
func (r *Ranker) seriesPrefix(title string) string {
	r.seriesOnce.Do(func() {
		r.seriesNames = map[string]bool{}
		if col := slices.Index(r.cat.MetaNames, "series"); col >= 0 {
			for _, m := range r.cat.Meta {
				if k := memory.SeriesOf(memory.ItemKeys(map[string][]string{"series": {m[col]}}, nil)); k != "" {
					r.seriesNames[k] = true
				}
			}
		}
	})
	ws := strings.Fields(title)
	for n := min(len(ws), 5); n >= 1; n-- {
		if k := strings.Join(ws[:n], " "); r.seriesNames[k] {
			return k
		}
	}
	return ""
}

// itemKeysIfBuilt returns catalog item i's keys when they are built, else
// nil (the caller computes what it needs itself).
func (r *Ranker) itemKeysIfBuilt(i int) []memory.ItemKey {
	if !r.keysBuilt.Load() {
		return nil
	}
	return r.itemKeys(i)
}

// groupsOf returns an item's groups from its metadata and, when known, the
// keys ItemKeys gives it (nil: computed here).
func groupsOf(meta map[string][]string, keys []memory.ItemKey) itemGroups {
	if keys == nil {
		keys = memory.ItemKeys(meta, nil)
	}
	g := itemGroups{series: memory.SeriesOf(keys)}
	if v := meta["kind"]; len(v) > 0 {
		g.kind = strings.ToLower(strings.TrimSpace(v[0]))
	}
	for _, f := range []string{"title", "name"} {
		if v := meta[f]; len(v) > 0 {
			g.core = memory.TitleCore(strings.Join(v, " "))
			break
		}
	}
	return g
}

// steer applies, before the instruction's soft parts, what the user's
// memory asks of the list's order: variety first, then the stated
// avoidances below it (see the top of this file). O(items log items).
func (r *Ranker) steer(u User, req Request, out []Ranked) {
	var items []intent.Item
	tiers := make([]int, len(out))
	if in := req.Intent; in != nil && len(in.Prefer)+len(in.Avoid)+len(in.Only) > 0 {
		items = r.matchItems(req.Candidates)
		for k := range out {
			tiers[k] = r.tier(in, &items[k])
		}
	}
	sunk, lifted := make([]string, len(out)), make([]string, len(out))
	walls := slices.ContainsFunc(u.Chunks, func(c Chunk) bool { return c.Stated && (c.Strength <= -1 || c.Strength >= 1) })
	for k, c := range req.Candidates {
		if !walls || tiers[k] > 0 {
			continue
		}
		ci, ok := r.cat.Lookup(c.ID)
		if !ok {
			ci = -1
		}
		keys := r.keysOf(u.Categories, c, ci)
		if g := r.groupOf(c); g.series != "" && memory.SeriesOf(keys) == "" {
			keys = append(slices.Clip(keys), memory.ItemKey{Category: "series", Key: g.series})
		}
		if by := statedBy(&u, keys, -1); by != "" {
			sunk[k] = "the user said \"" + by + "\": shown after the others"
		} else if by := statedBy(&u, keys, 1); by != "" {
			lifted[k] = "the user said \"" + by + "\": shown first"
		}
	}
	order := make([]int, len(out))
	for k := range order {
		order[k] = k
	}
	first := func(a, b string) int { // what is marked comes first
		switch {
		case (a == "") == (b == ""):
			return 0
		case a != "":
			return -1
		}
		return 1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case tiers[a] != tiers[b]:
			return tiers[b] - tiers[a]
		case (sunk[a] == "") != (sunk[b] == ""):
			return -first(sunk[a], sunk[b])
		case (lifted[a] == "") != (lifted[b] == ""):
			return first(lifted[a], lifted[b])
		case out[a].Score > out[b].Score:
			return -1
		case out[a].Score < out[b].Score:
			return 1
		}
		return 0
	})
	// Each shift outweighs the ones before it: what the user likes comes
	// first, variety holds over it, what the user avoids goes last (and the
	// instruction's tiers, added after, outweigh all three).
	lift(out, lifted)
	shift(out, r.variety(req, out, order))
	shift(out, sunk)
}

// Diversity is the intra-list diversity of a list of catalog items: the
// mean over its pairs of 1 - the cosine of their word-vector embeddings
// (0: all alike; unknown items are left out). O(n² · dim).
func (r *Ranker) Diversity(ids []string) float64 {
	var vs [][]float32
	for _, id := range ids {
		if i, ok := r.cat.Lookup(id); ok {
			if v := r.itemVec(i); len(v) > 0 {
				vs = append(vs, v)
			}
		}
	}
	sum, n := 0.0, 0
	for a := range vs {
		for b := a + 1; b < len(vs); b++ {
			sum += 1 - float64(dot32(vs[a], vs[b]))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// dot32 is the dot product of two unit vectors.
func dot32(a, b []float32) float32 {
	var s float32
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}
