// Package plot draws line charts of named series as SVG on logarithmic axes,
// for figures such as "select latency (ms) against units" where values span
// several powers of ten.
//
// Both axes are base-10 logarithmic: each axis runs over whole decades, from
// the power of ten at or below the smallest value to the one at or above the
// largest, with a labelled grid line at every power of ten and a light one at
// 2 to 9 times it. A point is drawn only when both its coordinates are
// positive and finite (a logarithmic axis has no place for zero); the others
// are skipped, never drawn as NaN.
//
// Output is deterministic: the same chart gives the same bytes. Numbers are
// written by strconv with a fixed precision and text is XML-escaped. The
// package uses the standard library only.
package plot

import (
	"bytes"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Point is one (x, y) observation.
type Point struct{ X, Y float64 }

// Series is a named line of points, drawn in the order of X.
type Series struct {
	Name   string
	Points []Point
}

// Chart is a log-log line chart. Zero Width and Height mean 720 by 440.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
	Width, Height         int
}

// Default size and the margins around the plot area, in pixels. The right
// margin holds the legend.
const (
	defaultWidth  = 720
	defaultHeight = 440
	marginLeft    = 80
	marginRight   = 180
	marginTop     = 40
	marginBottom  = 60
)

// Series styles, in turn: colours from the Okabe-Ito palette (distinct for
// common colour-vision deficiencies), markers cycling on their own so that
// the ninth series still differs from the first.
var (
	colours = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"}
	markers = []string{"circle", "square", "triangle", "diamond", "cross"}
)

// axis maps values on [10^lo, 10^hi] to pixels on [from, to] logarithmically.
type axis struct {
	lo, hi   int
	from, to float64
}

// at returns the pixel of v > 0.
func (a axis) at(v float64) float64 {
	return a.from + (math.Log10(v)-float64(a.lo))/float64(a.hi-a.lo)*(a.to-a.from)
}

// decades returns the smallest range of whole decades [10^lo, 10^hi] that
// holds min and max (0 < min ≤ max), with hi > lo: a single value that is a
// power of ten gets the decade above it.
func decades(min, max float64) (lo, hi int) {
	lo, hi = floorLog(min), ceilLog(max)
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// floorLog is ⌊log10 v⌋ for v > 0, exact at powers of ten (math.Log10 of
// 1000 may fall a hair short of 3).
func floorLog(v float64) int {
	k := int(math.Floor(math.Log10(v)))
	for math.Pow10(k) > v {
		k--
	}
	for math.Pow10(k+1) <= v {
		k++
	}
	return k
}

// ceilLog is ⌈log10 v⌉ for v > 0, exact at powers of ten.
func ceilLog(v float64) int {
	k := floorLog(v)
	if math.Pow10(k) < v {
		k++
	}
	return k
}

// tickLabel writes 10^k as a plain number ("0.01", "1", "1000") or, beyond
// 10^5 or below 10^-4, as "1e6" or "1e-5".
func tickLabel(k int) string {
	if k > 5 || k < -4 {
		return "1e" + strconv.Itoa(k)
	}
	return strconv.FormatFloat(math.Pow10(k), 'f', -1, 64)
}

// num writes a coordinate with two decimals.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if s == "-0.00" {
		return "0.00"
	}
	return s
}

// valid reports whether p can be drawn on log axes.
func valid(p Point) bool {
	return p.X > 0 && p.Y > 0 && !math.IsInf(p.X, 0) && !math.IsInf(p.Y, 0)
}

// escape writes s with XML's special characters escaped.
func escape(b *bytes.Buffer, s string) {
	_ = xml.EscapeText(b, []byte(s)) // writes to a bytes.Buffer never fail
}

// SVG renders the chart as a standalone SVG document. Cost: O(P log P) for P
// points (each series is sorted by X) plus O(D) for D decades on the axes.
func (c *Chart) SVG() []byte {
	w, h := c.Width, c.Height
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	series := make([][]Point, len(c.Series))
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, s := range c.Series {
		for _, p := range s.Points {
			if !valid(p) {
				continue
			}
			series[i] = append(series[i], p)
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
		slices.SortStableFunc(series[i], func(a, b Point) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
	}
	if math.IsInf(minX, 1) { // nothing to draw: show 1 to 10 on both axes
		minX, maxX, minY, maxY = 1, 10, 1, 10
	}
	// The legend's column fits its longest name (about 7 px a character at
	// 12 px), the canvas widening rather than the plot narrowing.
	legend := marginRight
	for _, s := range c.Series {
		legend = max(legend, 56+7*utf8.RuneCountInString(s.Name))
	}
	w += legend - marginRight
	left, top := float64(marginLeft), float64(marginTop)
	right, bottom := float64(w-legend), float64(h-marginBottom)
	xlo, xhi := decades(minX, maxX)
	ylo, yhi := decades(minY, maxY)
	xa := axis{lo: xlo, hi: xhi, from: left, to: right}
	ya := axis{lo: ylo, hi: yhi, from: bottom, to: top}

	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) +
		`" viewBox="0 0 ` + strconv.Itoa(w) + ` ` + strconv.Itoa(h) + `" font-family="sans-serif" font-size="12">` + "\n")
	b.WriteString(`<rect x="0" y="0" width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `" fill="#ffffff"/>` + "\n")
	if c.Title != "" {
		b.WriteString(`<text x="` + num((left+right)/2) + `" y="24" text-anchor="middle" font-size="15" font-weight="bold">`)
		escape(&b, c.Title)
		b.WriteString("</text>\n")
	}

	// Grid: light lines at 2..9 × 10^k, darker labelled lines at 10^k.
	b.WriteString(`<g stroke="#eeeeee" stroke-width="1">` + "\n")
	for k := xlo; k < xhi; k++ {
		for m := 2; m <= 9; m++ {
			x := num(xa.at(float64(m) * math.Pow10(k)))
			b.WriteString(`<line x1="` + x + `" y1="` + num(top) + `" x2="` + x + `" y2="` + num(bottom) + `"/>` + "\n")
		}
	}
	for k := ylo; k < yhi; k++ {
		for m := 2; m <= 9; m++ {
			y := num(ya.at(float64(m) * math.Pow10(k)))
			b.WriteString(`<line x1="` + num(left) + `" y1="` + y + `" x2="` + num(right) + `" y2="` + y + `"/>` + "\n")
		}
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g stroke="#bbbbbb" stroke-width="1">` + "\n")
	for k := xlo; k <= xhi; k++ {
		x := num(xa.at(math.Pow10(k)))
		b.WriteString(`<line x1="` + x + `" y1="` + num(top) + `" x2="` + x + `" y2="` + num(bottom) + `"/>` + "\n")
	}
	for k := ylo; k <= yhi; k++ {
		y := num(ya.at(math.Pow10(k)))
		b.WriteString(`<line x1="` + num(left) + `" y1="` + y + `" x2="` + num(right) + `" y2="` + y + `"/>` + "\n")
	}
	b.WriteString("</g>\n")
	b.WriteString(`<rect x="` + num(left) + `" y="` + num(top) + `" width="` + num(right-left) + `" height="` + num(bottom-top) +
		`" fill="none" stroke="#333333" stroke-width="1"/>` + "\n")

	// Tick labels and axis titles.
	b.WriteString(`<g fill="#333333">` + "\n")
	for k := xlo; k <= xhi; k++ {
		b.WriteString(`<text x="` + num(xa.at(math.Pow10(k))) + `" y="` + num(bottom+16) + `" text-anchor="middle">` + tickLabel(k) + "</text>\n")
	}
	for k := ylo; k <= yhi; k++ {
		b.WriteString(`<text x="` + num(left-6) + `" y="` + num(ya.at(math.Pow10(k))+4) + `" text-anchor="end">` + tickLabel(k) + "</text>\n")
	}
	if c.XLabel != "" {
		b.WriteString(`<text x="` + num((left+right)/2) + `" y="` + num(bottom+40) + `" text-anchor="middle">`)
		escape(&b, c.XLabel)
		b.WriteString("</text>\n")
	}
	if c.YLabel != "" {
		cy := num((top + bottom) / 2)
		b.WriteString(`<text x="18" y="` + cy + `" text-anchor="middle" transform="rotate(-90 18 ` + cy + `)">`)
		escape(&b, c.YLabel)
		b.WriteString("</text>\n")
	}
	b.WriteString("</g>\n")

	// Series: a line through the points, a marker on each.
	for i, s := range c.Series {
		colour, marker := colours[i%len(colours)], markers[i%len(markers)]
		pts := series[i]
		b.WriteString(`<g stroke="` + colour + `" fill="` + colour + `">` + "\n")
		if len(pts) >= 2 {
			b.WriteString(`<polyline fill="none" stroke-width="2" points="`)
			for j, p := range pts {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(num(xa.at(p.X)) + "," + num(ya.at(p.Y)))
			}
			b.WriteString(`"/>` + "\n")
		}
		for _, p := range pts {
			drawMarker(&b, marker, xa.at(p.X), ya.at(p.Y))
			b.WriteString("<title>")
			escape(&b, s.Name+": "+strconv.FormatFloat(p.X, 'g', -1, 64)+", "+strconv.FormatFloat(p.Y, 'g', -1, 64))
			b.WriteString("</title></" + markerElement(marker) + ">\n")
		}
		b.WriteString("</g>\n")
	}

	// Legend, in the right margin: a stroke, the marker and the name.
	lx := right + 16
	for i, s := range c.Series {
		colour, marker := colours[i%len(colours)], markers[i%len(markers)]
		y := top + 10 + float64(i)*20
		b.WriteString(`<g stroke="` + colour + `" fill="` + colour + `">`)
		b.WriteString(`<line x1="` + num(lx) + `" y1="` + num(y) + `" x2="` + num(lx+24) + `" y2="` + num(y) + `" stroke-width="2"/>`)
		drawMarker(&b, marker, lx+12, y)
		b.WriteString("</" + markerElement(marker) + ">")
		b.WriteString(`<text x="` + num(lx+32) + `" y="` + num(y+4) + `" stroke="none" fill="#333333">`)
		escape(&b, s.Name)
		b.WriteString("</text></g>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// markerElement is the SVG element that draws a marker.
func markerElement(marker string) string {
	switch marker {
	case "circle":
		return "circle"
	case "square":
		return "rect"
	case "cross":
		return "path"
	}
	return "polygon"
}

// drawMarker opens the element of a marker of radius about 4 centred on (x,
// y), leaving it open for a child such as <title>.
func drawMarker(b *bytes.Buffer, marker string, x, y float64) {
	const r = 4.0
	switch marker {
	case "circle":
		b.WriteString(`<circle cx="` + num(x) + `" cy="` + num(y) + `" r="4">`)
	case "square":
		b.WriteString(`<rect x="` + num(x-r) + `" y="` + num(y-r) + `" width="8" height="8">`)
	case "triangle":
		b.WriteString(`<polygon points="` + num(x) + "," + num(y-r-1) + " " + num(x-r-1) + "," + num(y+r) + " " + num(x+r+1) + "," + num(y+r) + `">`)
	case "diamond":
		b.WriteString(`<polygon points="` + num(x) + "," + num(y-r-1) + " " + num(x+r+1) + "," + num(y) + " " + num(x) + "," + num(y+r+1) + " " + num(x-r-1) + "," + num(y) + `">`)
	case "cross":
		b.WriteString(`<path fill="none" stroke-width="2" d="M` + num(x-r) + " " + num(y-r) + "L" + num(x+r) + " " + num(y+r) +
			"M" + num(x-r) + " " + num(y+r) + "L" + num(x+r) + " " + num(y-r) + `">`)
	}
}
