package rec

import "testing"

func TestLengthGroup(t *testing.T) {
	for _, c := range []struct {
		n, cap int
		want   string
	}{
		{0, 50, LengthFits}, {50, 50, LengthFits}, {51, 50, LengthLonger}, {150, 50, LengthLonger},
		{151, 50, LengthOver3x}, {15, 0, LengthFits}, {16, 0, LengthLonger}, {46, 0, LengthOver3x},
	} {
		if got := LengthGroup(c.n, c.cap); got != c.want {
			t.Errorf("LengthGroup(%d, %d) = %s, want %s", c.n, c.cap, got, c.want)
		}
	}
}

func TestByHistoryLength(t *testing.T) {
	hist := func(n int) []int { return make([]int, n) }
	// Capacity 2: u0 and u1 fit, u2 is longer, u3 and u4 more than 3x longer.
	cases := []Case{{User: "u0", History: hist(1)}, {User: "u1", History: hist(2)}, {User: "u2", History: hist(5)},
		{User: "u3", History: hist(7)}, {User: "u4", History: hist(9)}}
	ranks := []int{0, 1, 0, 0, 3}
	got := ByHistoryLength(cases, ranks, 2)
	want := []struct {
		group string
		users int
		hr1   float64
	}{{LengthFits, 2, 0.5}, {LengthLonger, 1, 1}, {LengthOver3x, 2, 0.5}}
	if len(got) != len(want) {
		t.Fatalf("groups %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Group != w.group || g.Users != w.users || g.HR1 != w.hr1 || g.Split.DevUsers+g.Split.HeldOutUsers != w.users {
			t.Errorf("group %d: %+v, want %s with %d users and HR@1 %v", i, g, w.group, w.users, w.hr1)
		}
	}
	if e := ByHistoryLength(nil, nil, 2); len(e) != 3 || e[2].Users != 0 || e[2].HR1 != 0 {
		t.Errorf("no case: %+v", e)
	}
}
