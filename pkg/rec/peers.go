package rec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/dataset"
)

// PeerScores are an outside model's scores of the evaluation candidates, as
// the RecBole harness (scripts/peers/recbole) writes them: per user, per item
// id, a score (higher is better).
type PeerScores map[string]map[string]float64

// ReadPeers reads every dir/NAME.KEY.scores file: an atomic file with the
// columns user_id, item_id and score, one row per candidate. It returns the
// scores by KEY ("sasrec", "lightgcn", "recbole_bpr"), in name order.
// O(bytes).
func ReadPeers(dir, name string) (map[string]PeerScores, error) {
	files, err := filepath.Glob(filepath.Join(dir, name+".*.scores"))
	if err != nil {
		return nil, fmt.Errorf("rec: peers: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("rec: peers: no %s.*.scores file in %s (scripts/peers/recbole/run.py writes them)", name, dir)
	}
	slices.Sort(files)
	out := map[string]PeerScores{}
	for _, path := range files {
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), name+"."), ".scores")
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("rec: peers: %w", err)
		}
		t, err := dataset.ReadTable(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("rec: peers: %s: %w", path, err)
		}
		u, it, sc := t.Index("user_id"), t.Index("item_id"), t.Index("score")
		if u < 0 || it < 0 || sc < 0 {
			return nil, fmt.Errorf("rec: peers: %s: need user_id, item_id and score columns", path)
		}
		ps := PeerScores{}
		for n, row := range t.Rows {
			x, err := strconv.ParseFloat(row[sc], 64)
			if err != nil {
				return nil, fmt.Errorf("rec: peers: %s: row %d: score %q is not a number", path, n+2, row[sc])
			}
			if ps[row[u]] == nil {
				ps[row[u]] = map[string]float64{}
			}
			ps[row[u]][row[it]] = x
		}
		out[key] = ps
	}
	return out, nil
}

// Scorer returns a Scorer over ps for cases, after checking that ps scores
// every candidate of every case (the harness and recmem must agree on the
// candidates): the error names the first user and item missing.
func (ps PeerScores) Scorer(d *dataset.RecBole, cases []Case) (Scorer, error) {
	for _, c := range cases {
		for _, i := range c.Candidates {
			if _, ok := ps[c.User][d.Items[i].ID]; !ok {
				return nil, fmt.Errorf("rec: peers: no score for user %s, candidate %s (were the scores made from the same .random file?)", c.User, d.Items[i].ID)
			}
		}
	}
	return func(c Case) []float64 {
		return mapScores(c, func(i int) float64 { return ps[c.User][d.Items[i].ID] })
	}, nil
}
