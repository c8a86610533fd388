package bench

import (
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slatelab"
)

// quality is recmem's slate completeness at B=2000 with the embedded model,
// one memory per LoCoMo conversation, as `recmem eval slate` measures it
// (natively: the plugin's slates are identical). The embedded model was
// trained on these conversations; docs/slate.md has the cross-validated
// figures. It selects one slate per eligible question of the file.
func quality(path string) (map[string]any, error) {
	convs, err := dataset.LoadConversations(path)
	if err != nil {
		return nil, err
	}
	tallies, err := slatelab.Replay{Budget: budget, Rankers: []string{"learned"}}.Run(engine.New(), convs)
	if err != nil {
		return nil, err
	}
	m := tallies["learned"].Metrics()
	return map[string]any{"r_slate": m.RSlate, "r_slate_k2": m.RSlateK2, "r_slate_k3": m.RSlateK3, "recall": m.Recall,
		"questions": m.Questions, "budget": budget,
		"model": "embedded (trained on all LoCoMo conversations; cross-validated figures in docs/slate.md)"}, nil
}
