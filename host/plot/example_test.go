package plot_test

import (
	"fmt"
	"strings"

	"github.com/recmem/recmem/host/plot"
)

// A latency chart of two engines; values from 0.04 ms to 2 ms put the y axis
// on 0.01 … 10.
func ExampleChart_SVG() {
	units := []float64{100, 500, 2000, 10000}
	c := &plot.Chart{
		Title:  "Slate selection at B = 2000",
		XLabel: "units",
		YLabel: "select latency (ms)",
		Series: []plot.Series{
			{Name: "recmem (plugin)", Points: []plot.Point{{units[0], 0.3}, {units[1], 0.6}, {units[2], 1.1}, {units[3], 2}}},
			{Name: "bleve (native)", Points: []plot.Point{{units[0], 0.04}, {units[1], 0.08}, {units[2], 0.12}, {units[3], 0.2}}},
		},
	}
	svg := c.SVG()
	for _, line := range strings.Split(string(svg), "\n") {
		if strings.Contains(line, "text-anchor=\"end\"") { // the y tick labels
			fmt.Println(line[strings.Index(line, ">")+1 : strings.LastIndex(line, "<")])
		}
	}
	// Output:
	// 0.01
	// 0.1
	// 1
	// 10
}
