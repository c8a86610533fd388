package bench

import (
	"strconv"

	"github.com/recmem/recmem/host/plot"
)

// Chart plots select latency (median, ms) against memory size for recmem on
// each host and for the peers, on log-log axes. A line without a measured
// point is left out.
func (r *Report) Chart() *plot.Chart {
	c := &plot.Chart{Title: "Slate selection at B = 2000: median latency against memory size",
		XLabel: "units in memory (LoCoMo turns)", YLabel: "ms per select (median)"}
	ns := sizes(r.SelectMs)
	line := func(name string, get func(k string) float64) {
		s := plot.Series{Name: name}
		for _, n := range ns {
			if v := get(strconv.Itoa(n)); v > 0 {
				s.Points = append(s.Points, plot.Point{X: float64(n), Y: v})
			}
		}
		if len(s.Points) > 0 {
			c.Series = append(c.Series, s)
		}
	}
	line("recmem, plugin in Go host", func(k string) float64 { return r.Wasm.SelectMs[k].Median })
	line("recmem, native Go", func(k string) float64 { return r.Native.SelectMs[k].Median })
	if r.Node != nil {
		line("recmem, plugin in Node", func(k string) float64 { return peerSelect(r.Node, k) })
	}
	for _, name := range []string{"bleve", "orama"} {
		if p, ok := r.Peers[name].(map[string]any); ok {
			label := map[string]string{"bleve": "bleve BM25, native Go", "orama": "Orama hybrid, Node"}[name]
			line(label, func(k string) float64 { return peerSelect(p, k) })
		}
	}
	return c
}
