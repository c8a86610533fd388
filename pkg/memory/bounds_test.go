package memory

import "testing"

func TestCivilDate(t *testing.T) {
	for _, c := range []struct {
		s    int64
		want string
	}{
		{0, "1970-01-01"}, {86399, "1970-01-01"}, {1700000000, "2023-11-14"}, {951782400, "2000-02-29"},
		{951868800, "2000-03-01"}, {4102444799, "2099-12-31"}, {1709164800, "2024-02-29"},
	} {
		if got := civilDate(c.s); got != c.want {
			t.Errorf("civilDate(%d) = %s, want %s", c.s, got, c.want)
		}
	}
}
