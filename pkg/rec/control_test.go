package rec

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/engine"
)

func TestControlReport(t *testing.T) {
	// u1 and u2 (u2 is held out? HeldOut decides; the overall figures do
	// not depend on it). u3 had no chunk to delete and nothing to like.
	cs := []ControlCase{
		{User: "u1", DeleteBefore: 0.6, DeleteAfter: 0.2, DeletePool: 0.1, DeleteWithout: 0.2, Strengths: []float64{0.1, 0.4, 0.6},
			AvoidBefore: 0.5, AvoidAfter: 0, LikeBefore: 0, LikeAfter: 0.3},
		{User: "u2", DeleteBefore: 0.4, DeleteAfter: 0.2, DeletePool: 0.3, DeleteWithout: 0.1, Strengths: []float64{0.3, 0.2, 0.4},
			AvoidBefore: 0.3, AvoidAfter: 0.1, LikeBefore: 0.1, LikeAfter: 0.1},
		{User: "u3", DeleteBefore: -1, DeleteAfter: -1, AvoidBefore: 0.2, AvoidAfter: 0, LikeBefore: -1, LikeAfter: -1},
	}
	r := summarize(cs)
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// Delete: means 0.5 -> 0.2, a fall of 1 - 0.2/0.5 = 0.6.
	near("delete before", r.Delete.Before, 0.5)
	near("delete after", r.Delete.After, 0.2)
	near("delete fall", r.Delete.Fall, 0.6)
	// The pool holds 0.2 of it: the pull above that went from 0.3 to 0.
	near("delete pool", r.Delete.Pool, 0.2)
	near("excess fall", r.Delete.ExcessFall, 1)
	// Without their events the memories' tops hold 0.15 of it: the pull
	// of the evidence, 0.5 - 0.15 = 0.35, went but for 0.2 - 0.15 = 0.05.
	near("delete without", r.Delete.Without, 0.15)
	near("pull fall", r.Delete.PullFall, 1-0.05/0.35)
	// Strength: u1 never fell, u2 did; mean shares 0.2, 0.3, 0.5.
	near("monotone", r.Strength.Monotone, 0.5)
	near("share at 0.5", r.Strength.Shares[1], 0.3)
	// Avoid: removed for u1 and u3 of three.
	near("removed", r.Avoid.Removed, 2.0/3)
	near("avoid after", r.Avoid.After, 0.1/3)
	// Like: 0.05 -> 0.2, rose for u1 only.
	near("like rise", r.Like.Rise, 0.15)
	if r.Delete.Users != 2 || r.Avoid.Users != 3 || r.Like.Users != 2 || r.Like.Rose != 1 || r.Strength.Users != 2 {
		t.Errorf("users %+v", r)
	}
	if e := summarize(nil); e.Delete.Fall != 0 || e.Delete.PullFall != 0 || e.Avoid.Removed != 0 || e.Strength.Monotone != 0 {
		t.Errorf("no case: %+v", e)
	}
}

// TestTopWithout: the memory that measures what no evidence of a
// preference gives is built from the history without the events about it,
// ratings and times kept aligned; when every event is about it, the memory
// is only reset. u1 of films watched i0 (drama, horror), i6 (comedy), i1
// (drama, horror), i2 (drama), i7 (comedy), rated 1 5 2 1 4 at 10 to 50;
// its pool is its 24 random items (i29 to i3 but i8, the target, and i6
// and i7, watched).
func TestTopWithout(t *testing.T) {
	d := films(t)
	cases, _ := Cases(d.Test, d.Random, 0)
	u1 := cases[slices.IndexFunc(cases, func(c Case) bool { return c.User == "u1" })]
	id := func(items []int) string {
		var s []string
		for _, it := range items {
			s = append(s, d.Items[it].ID)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		key              string
		history, ratings string
		times            string
		calls            string
	}{
		{"horror", "i6 i2 i7", "[5 1 4]", "[20 40 50]", "rank 24"},
		{"drama", "i6 i7", "[5 4]", "[20 50]", "rank 24"},
		{"film", "", "", "", "reset 0,rank 24"}, // every title is of the series "film"
	} {
		var built []Case
		s := &script{score: func(string) float64 { return 0 }}
		ctl := Control{Data: d, Build: func(_ engine.Caller, k Case) error { built = append(built, k); return nil }}
		cat := "genre"
		if c.key == "film" {
			cat = "series"
		}
		if _, err := ctl.topWithout(s, u1, ctl.pool(u1), cat, []string{c.key}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(s.calls, ","); got != c.calls {
			t.Errorf("%s: calls %s, want %s", c.key, got, c.calls)
		}
		if c.history == "" {
			if len(built) != 0 {
				t.Errorf("%s: built %+v, want only a reset", c.key, built)
			}
			continue
		}
		if len(built) != 1 {
			t.Fatalf("%s: %d builds", c.key, len(built))
		}
		k := built[0]
		if got := id(k.History); got != c.history || fmt.Sprint(k.Ratings) != c.ratings || fmt.Sprint(k.Times) != c.times || k.Target != u1.Target {
			t.Errorf("%s: history %s ratings %v times %v target %d, want %s %s %s %d", c.key, got, k.Ratings, k.Times, k.Target, c.history, c.ratings, c.times, u1.Target)
		}
	}
}
