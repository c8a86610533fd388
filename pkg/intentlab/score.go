package intentlab

// Scores are the figures of one group of ranked lists (a kind of case, a
// user, a split): the cases and lists in it, the mean share of each list that
// meets its instruction (p10, over the top 10, of the list returned when it
// is shorter), the same with an empty slot counted as a miss when the
// candidates held enough items meeting the case (p10_strict, Strict), the
// share of lists that meet it throughout (perfect), the same for the lists
// ranked without the instruction (baseline), how many lists were relaxed,
// and how many were shorter than they could have been (short_lists). A kind's
// figures carry the dev and held-out splits' beside them.
type Scores struct {
	Cases       int     `json:"cases"`
	Lists       int     `json:"lists"`
	P10         float64 `json:"p10"`
	P10Strict   float64 `json:"p10_strict"`
	Perfect     float64 `json:"perfect"`
	BaselineP10 float64 `json:"baseline_p10"`
	BaselinePer float64 `json:"baseline_perfect"`
	Relaxed     int     `json:"relaxed"`
	Short       int     `json:"short_lists"`
	Dev         *Scores `json:"dev,omitempty"`
	HeldOut     *Scores `json:"heldout,omitempty"`
}

// List is one ranked list as a Tally counts it: its case, the share of it
// that meets the instruction (Share), the strict share (Strict), the share of
// the list ranked without the instruction that does, whether the
// instruction was relaxed, and whether the list had empty slots that
// candidates meeting the case could have filled.
type List struct {
	Case     string
	Share    float64
	Strict   float64
	Baseline float64
	Relaxed  bool
	Short    bool
}

// Tally accumulates lists into Scores. The zero value is empty and ready.
type Tally struct {
	cases                                   map[string]bool
	lists                                   int
	p10, strict, perfect, base, basePerfect float64
	relaxed, short                          int
}

// Add counts one list. O(1).
func (t *Tally) Add(l List) {
	if t.cases == nil {
		t.cases = map[string]bool{}
	}
	t.cases[l.Case] = true
	t.lists++
	t.p10 += l.Share
	t.strict += l.Strict
	t.base += l.Baseline
	if l.Share == 1 {
		t.perfect++
	}
	if l.Baseline == 1 {
		t.basePerfect++
	}
	if l.Relaxed {
		t.relaxed++
	}
	if l.Short {
		t.short++
	}
}

// Lists is the number of lists added.
func (t *Tally) Lists() int { return t.lists }

// Scores are the means of what was added, each rounded to 4 decimals
// (Ratio). An empty Tally scores 0 throughout.
func (t *Tally) Scores() Scores {
	return Scores{
		Cases: len(t.cases), Lists: t.lists,
		P10: Ratio(t.p10, t.lists), P10Strict: Ratio(t.strict, t.lists), Perfect: Ratio(t.perfect, t.lists),
		BaselineP10: Ratio(t.base, t.lists), BaselinePer: Ratio(t.basePerfect, t.lists),
		Relaxed: t.relaxed, Short: t.short,
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

// K is the length of the lists the cases judge (the top 10).
const K = 10

// Strict is the strict p@10 of one list: the number of the listed ids whose
// item meets g, out of K when the candidates hold at least K items meeting
// g, else out of max(len(ids), m) for the m candidates that do; an empty
// slot that a meeting candidate could have filled is a miss. An empty list
// scores 0. short says whether the list had such an empty slot.
// O(len(cands)) evaluations of g.
func Strict(ids, cands []string, items map[string]map[string]string, g *Gold) (strict float64, short bool) {
	m := 0
	for _, id := range cands {
		if m == K {
			break
		}
		if g.Holds(items[id]) {
			m++
		}
	}
	met := 0
	for _, id := range ids {
		if g.Holds(items[id]) {
			met++
		}
	}
	d := max(len(ids), m)
	if d == 0 {
		return 0, false
	}
	return float64(met) / float64(d), len(ids) < m
}
