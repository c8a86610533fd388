package main

import (
	"fmt"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/slatelab"
)

// trainer returns the training function for a model kind: "ensemble" (the
// default: pairwise linear and 100 depth-3 boosted trees fused by rank),
// "linear" or "gbdt".
func trainer(kind string, o slatelab.TrainOptions) (func([]slatelab.Group) (*slate.Model, error), error) {
	g := slatelab.GBDTOptions{Trees: 100, Features: o.Features}
	switch kind {
	case "ensemble", "":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.TrainEnsemble(gs, o, g) }, nil
	case "linear":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.Train(gs, o) }, nil
	case "gbdt":
		return func(gs []slatelab.Group) (*slate.Model, error) { return slatelab.TrainGBDT(gs, g) }, nil
	}
	return nil, fmt.Errorf("unknown model kind %q (want ensemble, linear or gbdt)", kind)
}

// foldModels trains, for each of k folds of conversations (conversation i is in
// fold i mod k), a model on the other folds.
func foldModels(convs []dataset.Conversation, pool, k int, train func([]slatelab.Group) (*slate.Model, error)) ([]*slate.Model, error) {
	ps, err := slatelab.PoolAll(convs, pool, nil)
	if err != nil {
		return nil, err
	}
	ms := make([]*slate.Model, k)
	for f := 0; f < k; f++ {
		var gs []slatelab.Group
		for _, p := range ps {
			if p.Conv%k != f {
				gs = append(gs, p.Group)
			}
		}
		if ms[f], err = train(gs); err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
	}
	return ms, nil
}
