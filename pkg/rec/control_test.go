package rec

import (
	"math"
	"testing"
)

func TestControlReport(t *testing.T) {
	// u1 and u2 (u2 is held out? HeldOut decides; the overall figures do
	// not depend on it). u3 had no chunk to delete and nothing to like.
	cs := []ControlCase{
		{User: "u1", DeleteBefore: 0.6, DeleteAfter: 0.2, DeletePool: 0.1, Strengths: []float64{0.1, 0.4, 0.6},
			AvoidBefore: 0.5, AvoidAfter: 0, LikeBefore: 0, LikeAfter: 0.3},
		{User: "u2", DeleteBefore: 0.4, DeleteAfter: 0.2, DeletePool: 0.3, Strengths: []float64{0.3, 0.2, 0.4},
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
	if e := summarize(nil); e.Delete.Fall != 0 || e.Avoid.Removed != 0 || e.Strength.Monotone != 0 {
		t.Errorf("no case: %+v", e)
	}
}
