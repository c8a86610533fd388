package intentlab

// Scores are the figures of one group of ranked lists (a kind of case, a
// user, a split): the cases and lists in it, the mean share of each list that
// meets its instruction (p10, over the top 10), the share of lists that meet
// it throughout (perfect), the same two for the lists ranked without the
// instruction (baseline), and how many lists were relaxed.
type Scores struct {
	Cases       int     `json:"cases"`
	Lists       int     `json:"lists"`
	P10         float64 `json:"p10"`
	Perfect     float64 `json:"perfect"`
	BaselineP10 float64 `json:"baseline_p10"`
	BaselinePer float64 `json:"baseline_perfect"`
	Relaxed     int     `json:"relaxed"`
}

// Tally accumulates lists into Scores. The zero value is empty and ready.
type Tally struct {
	cases                           map[string]bool
	lists                           int
	p10, perfect, base, basePerfect float64
	relaxed                         int
}

// Add counts one list of case id: the share of it that meets the
// instruction, the share of the list ranked without the instruction that
// does, and whether the instruction was relaxed. O(1).
func (t *Tally) Add(id string, share, baseline float64, relaxed bool) {
	if t.cases == nil {
		t.cases = map[string]bool{}
	}
	t.cases[id] = true
	t.lists++
	t.p10 += share
	t.base += baseline
	if share == 1 {
		t.perfect++
	}
	if baseline == 1 {
		t.basePerfect++
	}
	if relaxed {
		t.relaxed++
	}
}

// Lists is the number of lists added.
func (t *Tally) Lists() int { return t.lists }

// Scores are the means of what was added, each rounded to 4 decimals
// (Ratio). An empty Tally scores 0 throughout.
func (t *Tally) Scores() Scores {
	return Scores{
		Cases: len(t.cases), Lists: t.lists,
		P10: Ratio(t.p10, t.lists), Perfect: Ratio(t.perfect, t.lists),
		BaselineP10: Ratio(t.base, t.lists), BaselinePer: Ratio(t.basePerfect, t.lists),
		Relaxed: t.relaxed,
	}
}

// Ratio is sum/n rounded half up to 4 decimals, 0 when n is 0; the one
// rounding of every figure of a Report.
func Ratio(sum float64, n int) float64 {
	return float64(int64(float64(sum/float64(max(n, 1))*10000)+0.5)) / 10000
}

// Share is the fraction of the listed ids whose item (by id in items)
// meets g, with the titles of those that do not, in list order. An empty
// list scores 0. O(len(ids)) evaluations of g.
func Share(ids []string, items map[string]map[string]string, g *Gold) (float64, []string) {
	if len(ids) == 0 {
		return 0, nil
	}
	n := 0
	var bad []string
	for _, id := range ids {
		if g.Holds(items[id]) {
			n++
		} else {
			bad = append(bad, items[id]["title"])
		}
	}
	return float64(n) / float64(len(ids)), bad
}
