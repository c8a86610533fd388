package bench

import (
	"encoding/json"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/slate"
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
	e := engine.New()
	var t slatelab.Tally
	for _, conv := range convs {
		if _, err := e.Call("reset", nil); err != nil {
			return nil, err
		}
		in, _ := json.Marshal(map[string]any{"units": slatelab.UnitsOf(conv)})
		if _, err := e.Call("add_units", in); err != nil {
			return nil, err
		}
		for _, q := range conv.Questions {
			if !slatelab.Eligible(q) {
				continue
			}
			req := map[string]any{"query": q.Text, "budget": budget}
			if q.Date != "" {
				req["date"] = q.Date
			}
			in, _ := json.Marshal(req)
			out, err := e.Call("select_slate", in)
			if err != nil {
				return nil, err
			}
			var res slate.Result
			if err := json.Unmarshal(out, &res); err != nil {
				return nil, err
			}
			o := slatelab.Outcome{Kappa: conv.Sessions(q), Evidence: q.Evidence, Tokens: res.Tokens}
			for _, u := range res.Units {
				o.Slate = append(o.Slate, u.ID)
			}
			t.Add(o)
		}
	}
	m := t.Metrics()
	return map[string]any{"r_slate": m.RSlate, "r_slate_k2": m.RSlateK2, "r_slate_k3": m.RSlateK3, "recall": m.Recall,
		"questions": m.Questions, "budget": budget,
		"model": "embedded (trained on all LoCoMo conversations; cross-validated figures in docs/slate.md)"}, nil
}
