package cf

import "math"

// Sigmoid is 1/(1+e^-x), computed with Exp so that it gives the same bits on
// every architecture (math.Exp has assembly versions that may differ in the
// last place), which keeps fold-ins identical natively and in WebAssembly.
func Sigmoid(x float64) float64 { return 1 / (1 + Exp(-x)) }

// Exp is e^x by range reduction x = k·ln2 + r, |r| ≤ ln2/2, and a degree-12
// Taylor polynomial for e^r (relative error below 1e-15), in portable Go.
func Exp(x float64) float64 {
	switch {
	case x > 700:
		return math.Inf(1)
	case x < -700:
		return 0
	}
	k := math.Round(x / math.Ln2)
	const ln2Hi, ln2Lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10 // Cody–Waite split of ln 2
	r := (x - k*ln2Hi) - k*ln2Lo
	p, term := 1.0, 1.0
	for n := 1; n <= 12; n++ {
		term *= r / float64(n)
		p += term
	}
	return math.Ldexp(p, int(k))
}
