package slatelab

import (
	"fmt"
	"time"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slate"
)

// Replay asks, for every eligible question of a set of conversations, each
// ranker (of slate.Rankers, or those named) for a slate, through the exports on any
// engine.Caller (an engine natively, the .wasm in a Go host): per
// conversation one reset, one add_units of its turns, and one select_slate
// per question and ranker. This is `recmem eval slate`; its cost is the
// calls', about (questions × rankers) selections.
type Replay struct {
	Budget int // tokens of a slate (0: slate.DefaultBudget)
	Pool   int // candidates retrieved (0: slate.DefaultPool)
	// Limit replays only the first Limit conversations (0: all).
	Limit int
	// Models are the learned ranker's models, conversation i using
	// Models[i mod len(Models)] (the folds of a cross-validation); none: the
	// embedded model.
	Models []*slate.Model
	// Rankers are asked in this order (none: every one of slate.Rankers).
	Rankers []string
	// Adversarial asks LoCoMo's adversarial questions too (Adversarial),
	// tallied only under their category, never in the rankers' totals.
	Adversarial bool
	// Progress, when set, is told after every question.
	Progress func(conv string, done, total int)
}

// Replayed is what a replay measured: each ranker's tally over the eligible
// questions, and each ranker's tallies by question category.
type Replayed struct {
	Rankers    map[string]*Tally
	Categories map[string]Categories
}

// Run replays convs on c and returns each ranker's tally. The caller's
// memory is reset for each conversation; the first error stops the run,
// naming the conversation and question.
func (r Replay) Run(c engine.Caller, convs []dataset.Conversation) (map[string]*Tally, error) {
	out, err := r.RunAll(c, convs)
	if err != nil {
		return nil, err
	}
	return out.Rankers, nil
}

// RunAll is Run, with the tallies by question category too.
func (r Replay) RunAll(c engine.Caller, convs []dataset.Conversation) (*Replayed, error) {
	if r.Limit > 0 && r.Limit < len(convs) {
		convs = convs[:r.Limit]
	}
	rankers := r.Rankers
	if len(rankers) == 0 {
		rankers = slate.Rankers
	}
	tallies := map[string]*Tally{}
	cats := map[string]Categories{}
	for _, name := range rankers {
		tallies[name] = &Tally{}
		cats[name] = Categories{}
	}
	asked := func(q dataset.Question) bool { return q.Eligible() || (r.Adversarial && Adversarial(q)) }
	total, done := 0, 0
	for _, conv := range convs {
		for _, q := range conv.Questions {
			if asked(q) {
				total++
			}
		}
	}
	for ci, conv := range convs {
		if _, err := engine.Reset.Call(c, engine.ResetInput{}); err != nil {
			return nil, fmt.Errorf("%s: reset: %w", conv.ID, err)
		}
		if _, err := engine.AddUnits.Call(c, engine.AddUnitsInput{Units: conv.Units()}); err != nil {
			return nil, fmt.Errorf("%s: add_units: %w", conv.ID, err)
		}
		var model *slate.Model
		if len(r.Models) > 0 {
			model = r.Models[ci%len(r.Models)]
		}
		for _, q := range conv.Questions {
			if !asked(q) {
				continue
			}
			for _, name := range rankers {
				o, err := r.ask(c, conv, q, name, model)
				if err != nil {
					return nil, fmt.Errorf("%s: %q: %w", conv.ID, q.Text, err)
				}
				if q.Eligible() {
					tallies[name].Add(o)
				}
				cats[name].Add(q.Category, o)
			}
			done++
			if r.Progress != nil {
				r.Progress(conv.ID, done, total)
			}
		}
	}
	return &Replayed{Rankers: tallies, Categories: cats}, nil
}

// ask selects one slate for q with the named ranker and scores it against
// the question's evidence. The learned ranker is asked for its pool too; a
// baseline's pool is its slate.
func (r Replay) ask(c engine.Caller, conv dataset.Conversation, q dataset.Question, ranker string, model *slate.Model) (Outcome, error) {
	req := engine.SelectSlateInput{Query: q.Text, Date: q.Date, Budget: r.Budget, Pool: r.Pool, Ranker: ranker}
	if ranker == "learned" {
		req.WithPool = true
		req.Model = model
	}
	t0 := time.Now()
	res, err := engine.SelectSlate.Call(c, req)
	ms := float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Kappa: conv.Sessions(q), Evidence: q.Evidence, Tokens: res.Tokens, Ms: max(ms, 1e-3), Pool: map[string]bool{}}
	for _, u := range res.Units {
		o.Slate = append(o.Slate, u.ID)
	}
	pool := o.Slate
	if ranker == "learned" {
		pool = res.PoolIDs
	}
	for _, id := range pool {
		o.Pool[id] = true
	}
	return o, nil
}
