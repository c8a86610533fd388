//go:build !wasm

package slate

// larger is the larger of a and b for word alignment's running maxima:
// the built-in max, which compiles to a branch-free instruction here. It
// equals "if b > a { a = b }" (larger_wasm.go) on every value it sees: no
// cosine is NaN, and none is -0 (a sum started at +0 never becomes -0), the
// only cases where the two differ.
func larger(a, b float64) float64 { return max(a, b) }
