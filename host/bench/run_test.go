package bench

import (
	"context"
	"testing"
	"time"
)

// TestRunOptions checks that options that cannot be measured with are
// refused, naming the field, before anything is measured.
func TestRunOptions(t *testing.T) {
	ok := Options{Sizes: []int{100}, Iters: 1, MaxTime: time.Second, Wasm: "plugin.wasm", LoCoMo: "locomo8.json"}
	tests := []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Sizes = nil }, "bench: Options.Sizes is empty"},
		{func(o *Options) { o.Sizes = []int{100, 0} }, "bench: Options.Sizes: 0 is not a positive unit count"},
		{func(o *Options) { o.Wasm = "" }, "bench: Options.Wasm is empty"},
		{func(o *Options) { o.LoCoMo = "" }, "bench: Options.LoCoMo is empty"},
	}
	for _, tt := range tests {
		o := ok
		o.Sizes = append([]int(nil), ok.Sizes...)
		tt.change(&o)
		rep, err := Run(context.Background(), o)
		if err == nil || err.Error() != tt.want || rep != nil {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
}
