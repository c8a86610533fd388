// Package slatelab is the offline side of slate selection (pkg/slate): the
// evaluation protocol (slate completeness r_slate over LoCoMo-style
// questions, Tally and Metrics), pooling a dataset's questions once
// (PoolAll), cross-validation by conversation, and training of the selection
// rankers (Train: pointwise or pairwise logistic; TrainGBDT: boosted trees;
// TrainEnsemble: their rank fusion).
//
// The module never links it: pkg/slate reads and scores a trained model,
// this package fits one. `recmem eval slate` and `recmem train slate` use it.
package slatelab
