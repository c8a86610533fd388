package host

import "fmt"

// sizeWords writes a size the way a person reads it: "812 bytes", "340 kB",
// "5.2 MB" (decimal units, 1 MB = 1,000,000 bytes, one decimal below 100).
func sizeWords(n int64) string {
	const k = 1000
	switch {
	case n < k:
		return fmt.Sprintf("%d bytes", n)
	case n < k*k:
		return decimal(float64(n)/k) + " kB"
	case n < k*k*k:
		return decimal(float64(n)/(k*k)) + " MB"
	}
	return decimal(float64(n)/(k*k*k)) + " GB"
}

func decimal(x float64) string {
	if x < 100 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}
