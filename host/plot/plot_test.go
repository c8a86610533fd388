package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
)

func TestDecades(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		lo, hi   int
	}{
		{0.05, 0.37, -2, 0},
		{1, 1, 0, 1},       // one power of ten: the decade above it
		{1000, 1000, 3, 4}, // math.Log10(1000) need not be exactly 3
		{0.001, 0.001, -3, -2},
		{100, 10000, 2, 4},
		{99, 101, 1, 3},
		{0.2, 3, -1, 1},
		{1e-7, 1e7, -7, 7},
	} {
		if lo, hi := decades(c.min, c.max); lo != c.lo || hi != c.hi {
			t.Errorf("decades(%g, %g) = %d, %d; want %d, %d", c.min, c.max, lo, hi, c.lo, c.hi)
		}
	}
}

func TestAxis(t *testing.T) {
	x := axis{lo: 0, hi: 3, from: 80, to: 380}  // 1 … 1000 over 300 px: 100 px a decade
	y := axis{lo: -2, hi: 0, from: 340, to: 40} // 0.01 … 1 over 300 px, upwards: 150 px a decade
	for _, c := range []struct {
		a    axis
		v    float64
		want string
	}{
		{x, 1, "80.00"},
		{x, 10, "180.00"},
		{x, 100, "280.00"},
		{x, 1000, "380.00"},
		{x, 2, "110.10"},   // 80 + 100·log10 2 = 110.103
		{x, 500, "349.90"}, // 80 + 100·(2 + log10 5) = 349.897
		{y, 0.01, "340.00"},
		{y, 0.1, "190.00"},
		{y, 1, "40.00"},
		{y, 0.05, "235.15"}, // 340 − 150·(2 + log10 0.05) = 340 − 150·0.69897
	} {
		if got := num(c.a.at(c.v)); got != c.want {
			t.Errorf("%+v at %g = %s, want %s", c.a, c.v, got, c.want)
		}
	}
}

func TestTickLabel(t *testing.T) {
	for k, want := range map[int]string{-5: "1e-5", -4: "0.0001", -2: "0.01", -1: "0.1", 0: "1", 1: "10", 4: "10000", 5: "100000", 6: "1e6"} {
		if got := tickLabel(k); got != want {
			t.Errorf("tickLabel(%d) = %q, want %q", k, got, want)
		}
	}
}

// hand is a 560 × 400 chart: the plot area is x 80…380 and y 40…340.
func hand() *Chart {
	return &Chart{
		Title: "select latency <B = 2000> & units", XLabel: "units", YLabel: "ms",
		Width: 560, Height: 400,
		Series: []Series{
			{Name: "recmem (plugin)", Points: []Point{{1000, 1}, {1, 0.01}, {10, 0.1}}}, // drawn in X order
			{Name: "bleve \"BM25\"", Points: []Point{{1, 0.05}, {0, 0.2}, {100, -1}, {10, math.NaN()}, {math.Inf(1), 1}, {100, 0.5}}},
			{Name: "one point", Points: []Point{{10, 0.02}}},
			{Name: "nothing valid", Points: []Point{{-1, 1}, {1, 0}}},
		},
	}
}

func TestSVGCoordinates(t *testing.T) {
	s := string(hand().SVG())
	for _, want := range []string{
		`points="80.00,340.00 180.00,190.00 380.00,40.00"`, // recmem: (1, 0.01), (10, 0.1), (1000, 1)
		`points="80.00,235.15 280.00,85.15"`,               // bleve: (1, 0.05), (100, 0.5); the other four skipped
		`<rect x="76.00" y="231.15" width="8" height="8">`, // bleve's square on (1, 0.05): centred on 80, 235.15
		// One point (10, 0.02): a triangle around 180, 294.85 = 340 − 150·(2 + log10 0.02).
		`<polygon points="180.00,289.85 175.00,298.85 185.00,298.85">`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %s in\n%s", want, s)
		}
	}
}

func TestSVGStructure(t *testing.T) {
	c := hand()
	out := c.SVG()
	s := string(out)
	count := func(sub string) int { return strings.Count(s, sub) }
	// Polylines: only series with two valid points or more.
	if n := count("<polyline"); n != 2 {
		t.Errorf("%d polylines, want 2", n)
	}
	// Markers, one per valid point plus one per legend entry: circles for
	// series 0 (3 + 1), squares for series 1 (2 + 1: the plot frame and the
	// background are rects too), triangles for series 2 (1 + 1), diamonds for
	// series 3 (0 + 1).
	if n := count("<circle"); n != 4 {
		t.Errorf("%d circles, want 4", n)
	}
	if n := count(`width="8" height="8"`); n != 3 {
		t.Errorf("%d squares, want 3", n)
	}
	if n := count("<polygon"); n != 3 {
		t.Errorf("%d polygons (triangles and diamonds), want 3", n)
	}
	if n := count("<title>"); n != 6 {
		t.Errorf("%d point titles, want 6", n)
	}
	for _, bad := range []string{"NaN", "Inf", "-0.00"} {
		if strings.Contains(s, bad) {
			t.Errorf("output holds %q", bad)
		}
	}
	// Text is escaped; the legend names every series.
	for _, want := range []string{
		"select latency &lt;B = 2000&gt; &amp; units",
		"recmem (plugin)</text>", "bleve &#34;BM25&#34;</text>", "one point</text>", "nothing valid</text>",
		">0.01</text>", ">0.1</text>", ">1</text>", ">10</text>", ">100</text>", ">1000</text>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Well-formed XML with an svg root.
	d := xml.NewDecoder(bytes.NewReader(out))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("root element %q, want svg", root)
	}
	// Deterministic.
	if !bytes.Equal(out, hand().SVG()) {
		t.Error("two renderings of the same chart differ")
	}
}

func TestSVGEmpty(t *testing.T) {
	s := string((&Chart{}).SVG())
	if !strings.Contains(s, `width="720" height="440"`) {
		t.Errorf("zero size is not the default 720 × 440:\n%s", s)
	}
	if strings.Contains(s, "<polyline") || strings.Contains(s, "NaN") {
		t.Errorf("empty chart draws a line or NaN:\n%s", s)
	}
}

func TestMarkersCycle(t *testing.T) {
	c := &Chart{}
	for i := 0; i < 9; i++ {
		c.Series = append(c.Series, Series{Name: "s", Points: []Point{{1, 1}, {10, 10}}})
	}
	s := string(c.SVG())
	if n := strings.Count(s, "<polyline"); n != 9 {
		t.Fatalf("%d polylines, want 9", n)
	}
	// The ninth series reuses the first colour with a different marker.
	if n := strings.Count(s, `<g stroke="#0072B2" fill="#0072B2">`); n != 4 {
		t.Errorf("first colour used by %d groups, want 4 (2 series × line and legend)", n)
	}
	// Series 4 (of 0…8) alone has crosses: 2 points and its legend entry.
	if n := strings.Count(s, "<path"); n != 3 {
		t.Errorf("%d crosses, want 3", n)
	}
}

// TestLegendFitsLongNames: a long series name widens the canvas by what its
// legend entry needs beyond the default column, and leaves the plot area as
// it was.
func TestLegendFitsLongNames(t *testing.T) {
	short := (&Chart{Series: []Series{{Name: "a", Points: []Point{{1, 1}, {10, 10}}}}}).SVG()
	name := strings.Repeat("n", 30) // 56 + 7·30 = 266 px, 86 more than the default 180
	long := (&Chart{Series: []Series{{Name: name, Points: []Point{{1, 1}, {10, 10}}}}}).SVG()
	if !bytes.Contains(short, []byte(`width="720"`)) || !bytes.Contains(long, []byte(`width="806"`)) {
		t.Fatalf("widths: %.120s / %.120s", short, long)
	}
}
