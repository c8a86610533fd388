package bench

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		xs   []float64
		want Stat
	}{
		{[]float64{5}, Stat{Median: 5, P90: 5, N: 1}},
		{[]float64{3, 1, 2}, Stat{Median: 2, P90: 3, N: 3}},
		// even count: the median averages the middle two; p90 is the
		// nearest rank ceil(0.9·10) = 9th smallest.
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, Stat{Median: 5.5, P90: 9, N: 10}},
		{[]float64{1.23456, 1.23456}, Stat{Median: 1.235, P90: 1.235, N: 2}},
		{nil, Stat{}},
	}
	for _, tt := range tests {
		if got := summarize(tt.xs); got != tt.want {
			t.Errorf("summarize(%v) = %+v, want %+v", tt.xs, got, tt.want)
		}
	}
}

func TestSig4(t *testing.T) {
	tests := []struct{ x, want float64 }{
		{123456, 123500},
		{0.000123456, 0.0001235},
		{-9.87654, -9.877},
		{1, 1},
		{0, 0},
		{math.NaN(), 0},
		{math.Inf(1), 0},
	}
	for _, tt := range tests {
		if got := sig4(tt.x); got != tt.want {
			t.Errorf("sig4(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}

// TestMeasureCalls checks the calls measure makes: 5 warm-up calls, then the
// timed ones (at least 5 even past MaxTime, at most Iters), with indices
// counting on from the warm-up; an error stops it, named by the label.
func TestMeasureCalls(t *testing.T) {
	tests := []struct {
		iters   int
		maxTime time.Duration
		want    int // timed calls
	}{
		{iters: 3, maxTime: time.Hour, want: 3},
		{iters: 12, maxTime: time.Hour, want: 12},
		{iters: 12, maxTime: 0, want: 5}, // past MaxTime at once: the minimum
	}
	for _, tt := range tests {
		r := &runner{Options{Iters: tt.iters, MaxTime: tt.maxTime}}
		var got []int
		st, err := r.measure("x", time.Millisecond, func(i int) error { got = append(got, i); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if st.N != tt.want || len(got) != 5+tt.want {
			t.Errorf("iters %d, max %v: %d timed of %d calls, want %d of %d", tt.iters, tt.maxTime, st.N, len(got), tt.want, 5+tt.want)
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("call %d got index %d", i, v)
			}
		}
	}
	boom := errors.New("boom")
	r := &runner{Options{Iters: 10, MaxTime: time.Hour}}
	_, err := r.measure("native select 40 units", time.Millisecond, func(i int) error {
		if i == 7 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || err.Error() != "native select 40 units: boom" {
		t.Errorf("err = %v", err)
	}
}

// TestMeasureEachAlternates checks that the sides' calls alternate, each
// side given the same indices, warm-up calls first.
func TestMeasureEachAlternates(t *testing.T) {
	r := &runner{Options{Iters: 2, MaxTime: time.Hour}}
	type call struct{ side, i int }
	var got []call
	st, err := r.measureEach([]string{"a", "b"}, time.Millisecond, func(s, i int) error {
		got = append(got, call{s, i})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []call
	for i := 0; i < 5+2; i++ {
		want = append(want, call{0, i}, call{1, i})
	}
	if len(got) != len(want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("calls %v, want %v", got, want)
		}
	}
	if len(st) != 2 || st[0].N != 2 || st[1].N != 2 {
		t.Errorf("stats %+v", st)
	}
}
