package rec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/rank"
)

// films is a hand-made data set with genres: items 0-5 drama (0 and 1 also
// horror), 6-29 comedy.
func films(t *testing.T) *dataset.RecBole {
	dir := t.TempDir()
	var item strings.Builder
	item.WriteString("item_id:token\ttitle:token_seq\tgenre:token_seq\n")
	for i := range 30 {
		g := "Comedy"
		switch {
		case i < 2:
			g = "Drama Horror"
		case i < 6:
			g = "Drama"
		}
		item.WriteString("i" + itoa(i) + "\tFilm " + itoa(i) + "\t" + g + "\n")
	}
	inter := "user_id:token\titem_id_list:token_seq\trating_list:float_seq\ttimestamp_list:float_seq\titem_id:token\n" +
		"u1\ti0 i6 i1 i2 i7\t1 5 2 1 4\t10 20 30 40 50\ti8\n" + // low: i0 (drama, horror), i1 (drama, horror), i2 (drama)
		"u2\ti6 i0\t4 1\t10 20\ti8\n" // one low rating per genre: no probe
	var random strings.Builder
	for _, u := range []string{"u1", "u2"} {
		random.WriteString(u)
		random.WriteString("\t")
		for i := 29; i >= 3; i-- {
			if i == 8 { // the targets are not in the random lines
				continue
			}
			random.WriteString("i" + itoa(i) + " ")
		}
		random.WriteString("\n")
	}
	for n, c := range map[string]string{"F.item": item.String(), "F.test.inter": inter, "F.random": random.String()} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := dataset.LoadRecBole(dir, "F")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// u1Probe is the probe of films' u1, who rated three dramas low.
func u1Probe(t *testing.T) (*dataset.RecBole, []Case, Probe) {
	d := films(t)
	cases, _ := Cases(d.Test, d.Random, 0)
	p, ok := NewProbe(d, cases[0], d.Random["u1"])
	if !ok {
		t.Fatal("u1 has 3 low ratings on drama")
	}
	return d, cases, p
}

func TestProbe(t *testing.T) {
	d, cases, p := u1Probe(t)
	ids := func(is []int) string {
		var s []string
		for _, i := range is {
			s = append(s, d.Items[i].ID)
		}
		return strings.Join(s, " ")
	}
	// Drama has 3 low ratings, horror 2: drama. The rest keeps its times;
	// the lows come one minute apart after the last (50).
	if p.Genre != "Drama" || ids(p.Rest.History) != "i6 i7" || ids(p.Low.History) != "i0 i1 i2" {
		t.Errorf("probe %+v", p)
	}
	if p.Low.Times[0] != 110 || p.Low.Times[2] != 230 || p.Low.Ratings[1] != 2 {
		t.Errorf("low times %v ratings %v", p.Low.Times, p.Low.Ratings)
	}
	// The pool: the random line minus the history: i29 down to i9, then
	// i5, i4, i3, the dramas, last: 24 items.
	if len(p.Pool) != 24 || !p.InG[23] || p.InG[0] {
		t.Errorf("pool %s %v", ids(p.Pool), p.InG)
	}
	scores := make([]float64, len(p.Pool))
	scores[23], scores[22] = 2, 1 // two dramas on top, the rest tied in pool order
	if got := p.Share(scores); got != 0.2 {
		t.Errorf("share %v, want 0.2", got)
	}
	if _, ok := NewProbe(d, cases[1], d.Random["u2"]); ok {
		t.Error("u2 has no genre with 2 low ratings")
	}
	// Collaborative training data leave the low ratings out.
	if h := Histories(d.Test[:1]); ids(h[0]) != "i6 i7" {
		t.Errorf("training history %s", ids(h[0]))
	}
}

func TestHeldOutSplit(t *testing.T) {
	var cases []Case
	ho := 0
	for i := range 1000 {
		u := "u" + itoa(i)
		if HeldOut(u) {
			ho++
		}
		cases = append(cases, Case{User: u})
	}
	if ho < 150 || ho > 250 {
		t.Errorf("%d of 1000 users held out, want about 200", ho)
	}
	ranks := make([]int, len(cases))
	s := SplitOf(cases, ranks)
	if s.HeldOutUsers != ho || s.DevUsers != 1000-ho || s.HeldOut.HR1 != 1 || s.Dev.HR1 != 1 {
		t.Errorf("split %+v", s)
	}
}

func TestReadPeers(t *testing.T) {
	d := films(t)
	cases, _ := Cases(d.Test, d.Random, 0)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("user_id:token\titem_id:token\tscore:float\n")
	for _, c := range cases {
		for k, i := range c.Candidates {
			b.WriteString(c.User + "\t" + d.Items[i].ID + "\t" + itoa(10-k) + "\n")
		}
	}
	os.WriteFile(filepath.Join(dir, "F.sasrec.scores"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "F.lightgcn.scores"), []byte("user_id:token\titem_id:token\tscore:float\nu1\ti8\t1\n"), 0o644)
	ps, err := ReadPeers(dir, "F")
	if err != nil || len(ps) != 2 {
		t.Fatalf("ReadPeers: %v, %d", err, len(ps))
	}
	s, err := ps["sasrec"].Scorer(d, cases)
	if err != nil {
		t.Fatal(err)
	}
	if got := Evaluate(cases, s); got.HR1 != 1 {
		t.Errorf("sasrec ranks the target first: %+v", got)
	}
	if _, err := ps["lightgcn"].Scorer(d, cases); err == nil || !strings.Contains(err.Error(), "no score for user u1") {
		t.Errorf("missing scores: %v", err)
	}
	if _, err := ReadPeers(t.TempDir(), "F"); err == nil {
		t.Error("an empty directory gave no error")
	}
}

func TestFactorial(t *testing.T) {
	idx := map[string]int{}
	for f, n := range rank.Features {
		idx[n] = f
	}
	// The target is found by its preference match alone: every combination
	// with the preference tier ranks it first, the others tie it last.
	vec := func(pref float64) []float64 {
		v := make([]float64, len(rank.Features))
		v[idx["preference"]] = pref
		return v
	}
	var groups [][][]float64
	var cases []Case
	for i := range 10 {
		groups = append(groups, [][]float64{vec(1), vec(0), vec(0)})
		cases = append(cases, Case{User: "u" + itoa(i)})
	}
	res := Factorial(groups, groups, cases, DefaultEventCap, LearnConfig{})
	if len(res) != 8 || res[0].Name() != "none" || res[7].Name() != "event+preference+profile" {
		t.Fatalf("combinations %+v", res)
	}
	for _, r := range res {
		want := 0.0
		if r.Preference {
			want = 1
		}
		if r.Test.HR1 != want || r.Valid.HR1 != want {
			t.Errorf("%s: test %v valid %v, want %v", r.Name(), r.Test.HR1, r.Valid.HR1, want)
		}
	}
}
