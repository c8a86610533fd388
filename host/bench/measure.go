package bench

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"time"
)

// warmup is how many untimed calls come before a path's timed ones, and the
// fewest timed calls a path gets however long they take.
const warmup = 5

// progress reports a stage: overwritten in place on a terminal, one line per
// stage otherwise.
func (r *runner) progress(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if r.Terminal {
		fmt.Fprintf(r.Progress, "\r\033[K%s", msg)
		return
	}
	fmt.Fprintln(r.Progress, msg)
}

// measure times f over warm-up calls then up to Iters calls or MaxTime (at
// least 5), and returns the median and p90 in units of unit. f is given the
// call's index, counting the warm-up calls.
func (r *runner) measure(label string, unit time.Duration, f func(i int) error) (Stat, error) {
	st, err := r.measureEach([]string{label}, unit, func(_, i int) error { return f(i) })
	if err != nil {
		return Stat{}, err
	}
	return st[0], nil
}

// measureEach is measure for several sides at once, their calls
// alternating so that a machine whose speed drifts slows them alike: warm-up
// calls on each side, then rounds of one timed call per side, up to Iters
// rounds or until MaxTime per side has passed (at least 5 rounds). f is given
// the side (an index into labels, which name them) and the call's index, the
// same sequence on every side. Each call's wall time and (on Linux) its
// thread's CPU time are taken, the goroutine locked to its thread.
func (r *runner) measureEach(labels []string, unit time.Duration, f func(side, i int) error) ([]Stat, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	i := 0
	for ; i < warmup; i++ {
		for s, l := range labels {
			if err := f(s, i); err != nil {
				return nil, fmt.Errorf("%s: %w", l, err)
			}
		}
	}
	xs := make([][]float64, len(labels))
	cpu := make([][]float64, len(labels))
	limit := r.MaxTime * time.Duration(len(labels))
	start := time.Now()
	for k := 0; k < r.Iters && (k < warmup || time.Since(start) < limit); k++ {
		for s, l := range labels {
			c0 := selfCPU()
			t0 := time.Now()
			if err := f(s, i); err != nil {
				return nil, fmt.Errorf("%s: %w", l, err)
			}
			xs[s] = append(xs[s], float64(time.Since(t0))/float64(unit))
			if c1 := selfCPU(); c0 >= 0 && c1 >= 0 {
				cpu[s] = append(cpu[s], float64(c1-c0)/float64(unit))
			}
		}
		i++
		if r.Terminal && k%10 == 0 {
			r.progress("bench: %s %d/%d", labels[0], k, r.Iters)
		}
	}
	out := make([]Stat, len(labels))
	for s := range labels {
		out[s] = summarize(xs[s])
		if len(cpu[s]) == len(xs[s]) {
			out[s].CPUMedian = sig4(median(cpu[s]))
		}
	}
	return out, nil
}

// summarize is the median and the nearest-rank 90th percentile of xs,
// rounded to 4 significant digits. O(n log n).
func summarize(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	p90 := s[int(math.Ceil(0.9*float64(len(s))))-1]
	return Stat{Median: sig4(med), P90: sig4(p90), N: len(s)}
}

// sig4 is x rounded to 4 significant digits (0 for 0, NaN and infinities).
func sig4(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// ms is d in milliseconds, rounded to 3 decimals.
func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

// round3 is x rounded to 3 decimals.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
