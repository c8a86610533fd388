package slatelab

import (
	"sort"

	"github.com/recmem/recmem/pkg/slate"
)

// Row is one line of a cross-validation table: a model's name and its
// metrics at each budget.
type Row struct {
	Name    string    `json:"name"`
	Metrics []Metrics `json:"metrics"`
}

// Ablation cross-validates (k folds by conversation, at each budget) linear
// models trained with o on each of slate.FeatureGroups alone ("only G")
// and on every feature but that group ("without G"), groups in name order.
// progress, when set, is told each group before its two runs. It costs
// 2 × groups × k trainings.
func Ablation(ps []Pooled, k int, o TrainOptions, budgets []int, progress func(group string)) ([]Row, error) {
	run := func(feats []string) ([]Metrics, error) {
		oo := o
		oo.Features = feats
		return CrossValidateFolds(ps, k, func(g []Group) (*slate.Model, error) { return Train(g, oo) }, budgets)
	}
	groups := make([]string, 0, len(slate.FeatureGroups))
	for g := range slate.FeatureGroups {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var rows []Row
	for _, g := range groups {
		if progress != nil {
			progress(g)
		}
		only, err := run(slate.FeatureGroups[g])
		if err != nil {
			return nil, err
		}
		drop := map[string]bool{}
		for _, f := range slate.FeatureGroups[g] {
			drop[f] = true
		}
		var rest []string
		for _, f := range slate.FeatureNames {
			if !drop[f] {
				rest = append(rest, f)
			}
		}
		without, err := run(rest)
		if err != nil {
			return nil, err
		}
		rows = append(rows, Row{"only " + g, only}, Row{"without " + g, without})
	}
	return rows, nil
}
