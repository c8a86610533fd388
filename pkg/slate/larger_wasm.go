//go:build wasm

package slate

// larger is the larger of a and b for word alignment's running maxima. In
// WebAssembly a compare and branch runs faster than the built-in max (which
// must handle NaN and signed zeros); see larger.go for why both give the
// same bits.
func larger(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}
