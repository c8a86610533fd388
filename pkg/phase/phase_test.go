package phase

import (
	"reflect"
	"testing"
)

// fake is a clock that reads the next value of its list at each call.
func fake(ticks ...int64) Clock {
	i := 0
	return func() int64 {
		v := ticks[i]
		i++
		return v
	}
}

func TestTimer(t *testing.T) {
	for _, c := range []struct {
		name  string
		ticks []int64
		run   func(*Timer)
		want  []Span
	}{
		{"one phase", []int64{100, 130}, func(t *Timer) { t.Mark("decode") }, []Span{{"decode", 30}}},
		{"phases in order of their first mark", []int64{0, 5, 12, 20},
			func(t *Timer) { t.Mark("b"); t.Mark("a"); t.Mark("c") }, []Span{{"b", 5}, {"a", 7}, {"c", 8}}},
		{"a repeated name adds up", []int64{0, 4, 10, 11},
			func(t *Timer) { t.Mark("x"); t.Mark("y"); t.Mark("x") }, []Span{{"x", 5}, {"y", 6}}},
		{"skipped time counts nowhere", []int64{0, 3, 50, 52},
			func(t *Timer) { t.Mark("x"); t.Skip(); t.Mark("y") }, []Span{{"x", 3}, {"y", 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := New(fake(c.ticks...))
			tm.Start()
			c.run(tm)
			if got := tm.Spans(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestStartForgets(t *testing.T) {
	tm := New(fake(0, 10, 100, 101))
	tm.Start()
	tm.Mark("old")
	tm.Start()
	tm.Mark("new")
	if got, want := tm.Spans(), []Span{{"new", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestNilTimer(t *testing.T) {
	tm := New(nil)
	if tm != nil {
		t.Fatal("New(nil) is not nil")
	}
	tm.Start()
	tm.Mark("x")
	tm.Skip()
	if s := tm.Spans(); s != nil {
		t.Errorf("nil timer has spans %v", s)
	}
}
