package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/rec"
)

// writeMovieLens writes a small synthetic directory in MovieLens 100K's
// format: 150 films in two genres, 30 users who like one genre (rating 4 or
// 5) and rate the other low (1 or 2), seeded.
func writeMovieLens(t *testing.T) string {
	dir := t.TempDir()
	var item, data strings.Builder
	for i := 1; i <= 150; i++ {
		action, drama := "1", "0"
		if i%2 == 0 {
			action, drama = "0", "1"
		}
		fmt.Fprintf(&item, "%d|Film %d (%d)|01-Jan-%d||url|0|%s|%s\n", i, i, 1850+i, 1850+i, action, drama)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for u := 1; u <= 30; u++ {
		for k, i := range rng.Perm(150)[:25] {
			r := 1 + rng.IntN(2)
			if (i+1)%2 == u%2 {
				r = 4 + rng.IntN(2)
			}
			fmt.Fprintf(&data, "%d\t%d\t%d\t%d\n", u, i+1, r, 1000+k*60)
		}
	}
	for n, c := range map[string]string{"u.genre": "unknown|0\nAction|1\nDrama|2\n", "u.item": item.String(), "u.data": data.String()} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDataMovieLensAndEvalRec(t *testing.T) {
	src, out := writeMovieLens(t), t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := doMain([]string{"data", "movielens", "--src", src, "--out", out, "--negatives", "12"}, &stdout, &stderr); code != 0 {
		t.Fatalf("data movielens: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "150 items, 30 test and 30 validation users") {
		t.Errorf("data movielens: %s", stdout.String())
	}
	if code := doMain([]string{"data", "movielens", "--src", src}, &stdout, &stderr); code != 2 {
		t.Errorf("missing --out: exit %d", code)
	}
	// eval rec reads the original directory, converting it once into
	// --convert-dir; peers' scores come back as baselines.
	conv := t.TempDir()
	d, err := loadData(src, "ml", conv, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := rec.Cases(d.Test, d.Random, 0)
	peers := t.TempDir()
	var b strings.Builder
	b.WriteString("user_id:token\titem_id:token\tscore:float\n")
	for _, c := range cases {
		for k, i := range c.Candidates {
			fmt.Fprintf(&b, "%s\t%s\t%d\n", c.User, d.Items[i].ID, k) // the target last
		}
	}
	os.WriteFile(filepath.Join(peers, "ml.sasrec.scores"), []byte(b.String()), 0o644)
	stdout.Reset()
	args := []string{"eval", "rec", "--data", src, "--dataset", "ml", "--convert-dir", conv, "--native", "--json",
		"--epochs", "10", "--seq-epochs", "5", "--peers", peers, "--factorial"}
	if code := doMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("eval rec: exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Users          int                   `json:"users"`
		HR1            float64               `json:"hr@1"`
		Baselines      map[string]rec.Scores `json:"baselines"`
		Responsiveness *float64              `json:"responsiveness"`
		Detail         rec.Responsiveness    `json:"responsiveness_detail"`
		Split          rec.Split             `json:"split"`
		Factorial      []rec.TierResult      `json:"factorial"`
		Ops            map[string]int        `json:"ops"`
		Weights        map[string]float64    `json:"weights"`
		WithProfile    int                   `json:"users_with_profile"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if rep.Users != len(cases) || rep.Baselines["sasrec"].HR1 != 0 || rep.Baselines["bpr"].NDCG10 == 0 {
		t.Errorf("users %d (want %d), baselines %+v", rep.Users, len(cases), rep.Baselines)
	}
	// Every user rated one genre low at least twice.
	if rep.Responsiveness == nil || rep.Detail.Users != len(cases) {
		t.Errorf("responsiveness %v over %d users", rep.Responsiveness, rep.Detail.Users)
	}
	if rep.Split.DevUsers+rep.Split.HeldOutUsers != len(cases) || len(rep.Factorial) != 8 {
		t.Errorf("split %+v, %d tier combinations", rep.Split, len(rep.Factorial))
	}
	if rep.WithProfile != len(cases) {
		t.Errorf("%d of %d users ranked with a profile in retrospective mode", rep.WithProfile, len(cases))
	}
	if rep.Ops["demote"] == 0 && rep.Ops["extract"] == 0 {
		t.Errorf("ops %v", rep.Ops)
	}
	if w, ok := rep.Weights["disliked_text"]; ok && w > 0 {
		t.Errorf("disliked_text weight %v", w)
	}
	// The converted files were written once: a second load reads them.
	if ents, _ := os.ReadDir(conv); len(ents) != 1 {
		t.Errorf("%d converted directories, want 1", len(ents))
	}
	if _, err := dataset.LoadRecBole(out, "ml-100k"); err != nil {
		t.Errorf("data movielens output: %v", err)
	}
	// Bad peers: a missing candidate is named.
	os.WriteFile(filepath.Join(peers, "ml.sasrec.scores"), []byte("user_id:token\titem_id:token\tscore:float\n1\t1\t0.5\n"), 0o644)
	if code := doMain(args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no score for user") {
		t.Errorf("incomplete peers: exit %d: %s", code, stderr.String())
	}
}
