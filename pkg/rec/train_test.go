package rec

import (
	"os"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/rank"
)

func TestTrainCatalogNeedsValidation(t *testing.T) {
	d, err := dataset.LoadRecBole("../../testdata/catalog/tiny", "Tiny")
	if err != nil {
		t.Fatal(err)
	}
	// Six items cannot give 1 + 9 candidates: nothing to learn weights on.
	if _, err := TrainCatalog(d, TrainConfig{BPR: BPRConfig{Dim: 2, Epochs: 1}}); err == nil ||
		!strings.Contains(err.Error(), "no validation case") {
		t.Fatalf("err = %v", err)
	}
}

func TestTrainCatalogToy(t *testing.T) {
	d, err := dataset.LoadRecBole("../../testdata/catalog/toy", "Toy")
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	tr, err := TrainCatalog(d, TrainConfig{BPR: BPRConfig{Dim: 4, Epochs: 3}, Seq: SeqConfig{BPR: BPRConfig{Dim: 2, Epochs: 2}},
		Progress: func(s string) { stages = append(stages, s) }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Decode(tr.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != len(d.Items) || c.Dim != 4 || c.SeqDim != 2 || c.MetaNames[1] != "genre" {
		t.Fatalf("catalog: %d items, dim %d, meta %v", c.Len(), c.Dim, c.MetaNames)
	}
	// Users walk through their genre in order, so i0 is always followed by i1.
	i0, _ := c.Lookup("i0")
	i1, _ := c.Lookup("i1")
	if c.Transition(i0, i1) != 1 || c.Pop[i0] == 0 {
		t.Errorf("P(i1|i0) = %v, pop(i0) = %v", c.Transition(i0, i1), c.Pop[i0])
	}
	if tr.Weights["sequential"] == 0 || tr.Valid.HR1 < 0.5 {
		t.Errorf("weights %v, validation fit %+v", tr.Weights, tr.Valid)
	}
	if len(stages) < 4 {
		t.Errorf("progress %q", stages)
	}
	// Same inputs, same bytes.
	tr2, _ := TrainCatalog(d, TrainConfig{BPR: BPRConfig{Dim: 4, Epochs: 3}, Seq: SeqConfig{BPR: BPRConfig{Dim: 2, Epochs: 2}}})
	if string(tr2.Catalog) != string(tr.Catalog) {
		t.Error("training is not deterministic")
	}
	// The ranker runs on a replayed memory.
	h := d.Test[0].History
	m, err := Retrospective(d, Case{User: d.Test[0].User, History: h}, DefaultEventCap)
	if err != nil {
		t.Fatal(err)
	}
	if m.Profile.Version == 0 || m.Profile.Text == "" {
		t.Errorf("retrospective build left no profile: %+v", m.Profile)
	}
	u := rank.FromMemory(m)
	if len(u.Events) != len(h) || u.Events[len(h)-1].Item != d.Items[h[len(h)-1]].ID {
		t.Fatalf("memory events %+v", u.Events)
	}
	if _, err := rank.New(c).Rank(u, RequestOf(c, []int{0, 1, 2})); err != nil {
		t.Fatal(err)
	}
}

// TestGamesProtocol pins the protocol on Games-6k when the data is present:
// 6,000 users, 33 with the test target in their random line (DESIGN §6).
func TestGamesProtocol(t *testing.T) {
	const dir = "../../../shared/data/games-6k"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("Games-6k not present")
	}
	d, err := dataset.LoadRecBole(dir, "Games-6k")
	if err != nil {
		t.Fatal(err)
	}
	cases, skipped := Cases(d.Test, d.Random, 0)
	if len(cases) != 5967 || skipped != 33 || len(d.Items) < 16859 || d.MetaNames[0] != "title" {
		t.Fatalf("%d cases, %d skipped, %d items", len(cases), skipped, len(d.Items))
	}
	for _, c := range cases[:100] {
		if len(c.Candidates) != NumCandidates || c.Candidates[0] != c.Target {
			t.Fatalf("case %+v", c)
		}
	}
	b := &Baselines{Pop: Popularity(Histories(d.Test), len(d.Items))}
	p := Evaluate(cases, b.Scorers()["pop"])
	// DESIGN §6: popularity 0.404 / 0.819 / 0.624 / 0.681.
	if p.HR1 < 0.40 || p.HR1 > 0.41 || p.NDCG10 < 0.676 || p.NDCG10 > 0.686 {
		t.Errorf("popularity %+v", p)
	}
	if testing.Short() {
		return
	}
	// DESIGN §6: item-kNN (decay 0.9) 0.545 / 0.715 / 0.643 / 0.726.
	b.KNN = CoOccurrence(Histories(d.Test), len(d.Items))
	k := Evaluate(cases, b.Scorers()["itemknn"])
	if k.HR1 < 0.54 || k.HR1 > 0.55 || k.NDCG10 < 0.72 || k.NDCG10 > 0.73 {
		t.Errorf("item-kNN %+v", k)
	}
}
