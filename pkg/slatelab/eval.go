package slatelab

import (
	"fmt"
	"slices"
	"sort"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/vector"
)

// Metrics summarize slates over a set of questions. A question is complete
// when its slate (or pool) holds all of its evidence.
type Metrics struct {
	Questions   int     `json:"questions"`
	QuestionsK2 int     `json:"questions_k2"` // questions whose evidence spans ≥ 2 sessions
	RSlate      float64 `json:"r_slate"`      // fraction of questions whose slate is complete
	RSlateK2    float64 `json:"r_slate_k2"`   // the same over questions whose evidence spans ≥ 2 sessions
	RSlateK3    float64 `json:"r_slate_k3"`   // ... ≥ 3 sessions
	Recall      float64 `json:"recall"`       // mean fraction of the evidence in the slate
	RPool       float64 `json:"r_pool"`       // fraction of questions whose pool is complete
	MeanTokens  float64 `json:"mean_tokens"`
	P50Ms       float64 `json:"p50_select_ms"`
}

// Tally accumulates per-question outcomes into Metrics.
type Tally struct {
	n, n2, n3          int
	full, full2, full3 int
	recall, tokens     float64
	pool               int
	ms                 []float64
}

// Outcome is one question's result.
type Outcome struct {
	Kappa    int             // sessions spanned by the evidence
	Evidence []string        // gold unit IDs
	Slate    []string        // chosen unit IDs
	Pool     map[string]bool // pooled unit IDs (nil: not measured)
	Tokens   int
	Ms       float64 // selection latency (0: not measured)
}

// Add records one question.
func (t *Tally) Add(o Outcome) {
	in := map[string]bool{}
	for _, id := range o.Slate {
		in[id] = true
	}
	hit, poolHit := 0, 0
	for _, e := range o.Evidence {
		if in[e] {
			hit++
		}
		if o.Pool[e] {
			poolHit++
		}
	}
	full := hit == len(o.Evidence)
	t.n++
	if full {
		t.full++
	}
	if o.Kappa >= 2 {
		t.n2++
		if full {
			t.full2++
		}
	}
	if o.Kappa >= 3 {
		t.n3++
		if full {
			t.full3++
		}
	}
	if poolHit == len(o.Evidence) {
		t.pool++
	}
	t.recall += float64(hit) / float64(len(o.Evidence))
	t.tokens += float64(o.Tokens)
	if o.Ms > 0 {
		t.ms = append(t.ms, o.Ms)
	}
}

// Metrics returns the summary, each value rounded to 1e-4 (latency to 1e-3).
func (t *Tally) Metrics() Metrics {
	frac := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return round(float64(a)/float64(b), 1e4)
	}
	m := Metrics{Questions: t.n, QuestionsK2: t.n2, RSlate: frac(t.full, t.n), RSlateK2: frac(t.full2, t.n2), RSlateK3: frac(t.full3, t.n3),
		RPool: frac(t.pool, t.n)}
	if t.n > 0 {
		m.Recall = round(t.recall/float64(t.n), 1e4)
		m.MeanTokens = round(t.tokens/float64(t.n), 10)
	}
	if len(t.ms) > 0 {
		s := append([]float64(nil), t.ms...)
		sort.Float64s(s)
		m.P50Ms = round(s[len(s)/2], 1e3)
	}
	return m
}

func round(x, k float64) float64 { return float64(int64(x*k+0.5)) / k }

// Pooled is a conversation's eligible questions with their candidate pools,
// computed once and reused by every fold and every ablation.
type Pooled struct {
	Conv     int
	Category string
	Kappa    int
	Group    Group
	Gold     []string
}

// PoolAll computes the candidate pools of every eligible question.
func PoolAll(convs []dataset.Conversation, pool int, table *vector.Table) ([]Pooled, error) {
	return poolWhere(convs, pool, table, dataset.Question.Eligible)
}

// PoolAdversarial computes the candidate pools of LoCoMo's adversarial
// questions (Adversarial), which are reported by category but never train a
// model nor count in the headline figures.
func PoolAdversarial(convs []dataset.Conversation, pool int, table *vector.Table) ([]Pooled, error) {
	return poolWhere(convs, pool, table, Adversarial)
}

func poolWhere(convs []dataset.Conversation, pool int, table *vector.Table, keep func(dataset.Question) bool) ([]Pooled, error) {
	if table == nil {
		table = vector.Default()
	}
	var out []Pooled
	for ci, c := range convs {
		s := slate.NewStoreWithTable(table)
		if err := s.Add(c.Units()); err != nil {
			return nil, fmt.Errorf("slate: conversation %s: %w", c.ID, err)
		}
		for _, q := range c.Questions {
			if !keep(q) {
				continue
			}
			cs, err := s.Candidates(q.Text, q.Date, pool)
			if err != nil {
				return nil, fmt.Errorf("slate: conversation %s, question %q: %w", c.ID, q.Text, err)
			}
			gold := map[string]bool{}
			for _, e := range q.Evidence {
				gold[e] = true
			}
			out = append(out, Pooled{Conv: ci, Category: q.Category, Kappa: c.Sessions(q), Group: Group{Cands: cs, Gold: gold}, Gold: q.Evidence})
		}
	}
	return out, nil
}

// CrossValidateFolds trains on all folds of conversations but one
// (conversation i is in fold i mod k) and fills the held-out fold's slates at
// each budget; with k the number of conversations it is
// leave-one-conversation-out. It returns one Metrics per budget.
func CrossValidateFolds(ps []Pooled, k int, train func([]Group) (*slate.Model, error), budgets []int) ([]Metrics, error) {
	cv, err := CrossValidate(ps, nil, k, train, budgets)
	if err != nil {
		return nil, err
	}
	return cv.Metrics, nil
}

// CV is a cross-validation's outcome: per budget, the metrics over the
// pooled questions and the tallies by category (the extra questions, such
// as the adversarial ones, counted only there).
type CV struct {
	Metrics    []Metrics
	Categories []Categories
}

// CrossValidate is CrossValidateFolds with the tallies by category; extra
// questions are ranked by their fold's model and tallied only by category,
// never trained on. Cost: k trainings, and a fill per question and budget.
func CrossValidate(ps, extra []Pooled, k int, train func([]Group) (*slate.Model, error), budgets []int) (CV, error) {
	return CrossValidateWhere(ps, extra, k, train, budgets, nil)
}

// Split is which conversations a cross-validation reports: every one, the
// development ones (even positions in the file: conversation 0, 2, ...),
// on which features and settings are chosen, or the held-out ones (odd
// positions), looked at once at the end. Every fold's model still trains
// on all the other conversations.
type Split string

// The splits.
const (
	SplitAll     Split = ""
	SplitDev     Split = "dev"
	SplitHeldOut Split = "held-out"
)

// ParseSplit reads a split's name ("", "all", "dev" or "held-out").
func ParseSplit(s string) (Split, error) {
	switch s {
	case "", "all":
		return SplitAll, nil
	case "dev", "held-out":
		return Split(s), nil
	}
	return "", fmt.Errorf("split: want all, dev or held-out, got %q", s)
}

// Has reports whether conversation conv (its position in the file) is in
// the split.
func (s Split) Has(conv int) bool {
	switch s {
	case SplitDev:
		return conv%2 == 0
	case SplitHeldOut:
		return conv%2 == 1
	}
	return true
}

// CrossValidateWhere is CrossValidate reporting only the conversations
// for which report returns true (nil: all); a fold none of whose
// conversations is reported is not trained.
func CrossValidateWhere(ps, extra []Pooled, k int, train func([]Group) (*slate.Model, error), budgets []int, report func(conv int) bool) (CV, error) {
	if report == nil {
		report = func(int) bool { return true }
	}
	tallies := make([]Tally, len(budgets))
	cats := make([]Categories, len(budgets))
	for i := range cats {
		cats[i] = Categories{}
	}
	for held := 0; held < k; held++ {
		any := false
		for _, p := range ps {
			any = any || (p.Conv%k == held && report(p.Conv))
		}
		if !any {
			continue
		}
		var groups []Group
		for _, p := range ps {
			if p.Conv%k != held {
				groups = append(groups, p.Group)
			}
		}
		m, err := train(groups)
		if err != nil {
			return CV{}, err
		}
		for i, p := range append(slices.Clip(ps), extra...) {
			if p.Conv%k != held || !report(p.Conv) {
				continue
			}
			pool := map[string]bool{}
			xs := make([][]float64, len(p.Group.Cands))
			keys := make([]int, len(p.Group.Cands))
			for i, c := range p.Group.Cands {
				xs[i], keys[i] = c.X, c.Key
				pool[c.ID] = true
			}
			scores := m.ScoreAll(xs, keys)
			for bi, b := range budgets {
				ids, used := slate.Fill(p.Group.Cands, scores, b)
				o := Outcome{Kappa: p.Kappa, Evidence: p.Gold, Slate: ids, Pool: pool, Tokens: used}
				if i < len(ps) {
					tallies[bi].Add(o)
				}
				cats[bi].Add(p.Category, o)
			}
		}
	}
	out := CV{Metrics: make([]Metrics, len(budgets)), Categories: cats}
	for i := range tallies {
		out.Metrics[i] = tallies[i].Metrics()
	}
	return out, nil
}
