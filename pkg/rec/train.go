package rec

import (
	"cmp"
	"fmt"
	"math/rand/v2"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/rank"
)

// TrainConfig sets TrainCatalog. The zero value means the documented defaults.
type TrainConfig struct {
	BPR       BPRConfig
	Seq       SeqConfig
	Neighbors int    // sparse neighbours kept per item (default DefaultNeighbors)
	Seed      uint64 // PCG seed of BPR (default 1)
	EventCap  int    // event memory of the validation replays (default DefaultEventCap)
	Learn     LearnConfig
	// Progress, when set, receives one line per stage.
	Progress func(string)
}

// Trained is the outcome of TrainCatalog.
type Trained struct {
	Catalog   []byte     // the binary catalog, trained on the test histories
	Baselines *Baselines // pop, item-kNN and BPR on the test histories
	Weights   map[string]float64
	Valid     Scores // the ranker on the validation cases it was fitted to
	// ValidVectors are the validation cases' feature vectors (target
	// first) the weights were learned on, for the tier study (Factorial).
	ValidVectors [][][]float64
}

// TrainCatalog builds the catalog asset in two passes so that no test target
// and no validation target leaks into a choice made on it:
//
//  1. on the validation split: models from the validation histories, each
//     validation user's memory built retrospectively (Retrospective), the
//     ranker's features on the validation cases, weights by LearnWeights;
//  2. on the test split: models from the test histories (which end where the
//     test targets begin), plus the weights of pass 1.
//
// O(2 × BPR training).
func TrainCatalog(d *dataset.RecBole, cfg TrainConfig) (*Trained, error) {
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	say := func(format string, a ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, a...))
		}
	}
	if len(d.Valid) == 0 {
		return nil, fmt.Errorf("rec: %s has no .valid.inter file to learn weights on", d.Name)
	}
	say("validation pass: training BPR on %d histories", len(d.Valid))
	vb := TrainBaselines(d.Valid, len(d.Items), cfg.BPR, rand.New(rand.NewPCG(cfg.Seed, 1)))
	say("validation pass: training the transition model")
	vs := TrainSequential(Histories(d.Valid), len(d.Items), cfg.Seq, rand.New(rand.NewPCG(cfg.Seed, 3)))
	vcat, err := roundTrip(BuildCatalog(d, Histories(d.Valid), vb.BPR, vs, cfg.Neighbors))
	if err != nil {
		return nil, err
	}
	vcases, _ := Cases(d.Valid, d.Random, 0)
	r := rank.New(vcat)
	groups := make([][][]float64, 0, len(vcases))
	say("replaying %d validation users through the memory (retrospective)", len(vcases))
	for _, c := range vcases {
		m, err := Retrospective(d, c, cmp.Or(cfg.EventCap, DefaultEventCap))
		if err != nil {
			return nil, fmt.Errorf("rec: validation user %s: %w", c.User, err)
		}
		v, err := r.Vectors(rank.FromMemory(m), RequestOf(vcat, c.Candidates))
		if err != nil {
			return nil, err
		}
		groups = append(groups, v)
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("rec: %s: no validation case has %d candidates to learn weights on", d.Name, NumCandidates)
	}
	say("learning weights on %d validation cases", len(groups))
	w, s := LearnWeights(groups, cfg.Learn)
	vcat.Weights, vcat.Scales = w, s
	vr := rank.New(vcat)
	var acc Accumulator
	for _, g := range groups {
		sc := make([]float64, len(g))
		for k, v := range g {
			sc[k] = vr.Score(v)
		}
		acc.Add(TargetRank(sc, 0))
	}
	say("validation fit: %+v", acc.Scores())

	say("test pass: training BPR on %d histories", len(d.Test))
	tb := TrainBaselines(d.Test, len(d.Items), cfg.BPR, TestRNG(cfg.Seed))
	say("test pass: training the transition model")
	ts := TrainSequential(Histories(d.Test), len(d.Items), cfg.Seq, rand.New(rand.NewPCG(cfg.Seed, 4)))
	cat := BuildCatalog(d, Histories(d.Test), tb.BPR, ts, cfg.Neighbors)
	cat.Weights, cat.Scales = w, s
	return &Trained{Catalog: cat.Encode(), Baselines: tb, Weights: w, Valid: acc.Scores(), ValidVectors: groups}, nil
}

func roundTrip(c *catalog.Catalog) (*catalog.Catalog, error) {
	out, err := catalog.Decode(c.Encode())
	if err != nil {
		return nil, fmt.Errorf("rec: catalog round trip: %w", err)
	}
	return out, nil
}

// UserOf is the ranker's view of a user whose memory holds exactly the
// history (item indices of the data set, which are the catalog's).
func UserOf(cat *catalog.Catalog, history []int) rank.User {
	u := rank.User{Events: make([]rank.Event, len(history))}
	for k, h := range history {
		u.Events[k] = rank.Event{Item: cat.IDs[h]}
	}
	return u
}

// RequestOf is a ranking request for candidates given as item indices.
func RequestOf(cat *catalog.Catalog, candidates []int) rank.Request {
	req := rank.Request{Candidates: make([]rank.Candidate, len(candidates))}
	for k, c := range candidates {
		req.Candidates[k] = rank.Candidate{ID: cat.IDs[c]}
	}
	return req
}

// TestRNG is the random source TrainCatalog trains the test-split BPR with,
// so that a baseline trained alone matches the one trained with a catalog.
func TestRNG(seed uint64) *rand.Rand {
	if seed == 0 {
		seed = 1
	}
	return rand.New(rand.NewPCG(seed, 2))
}
