//go:build ignore

// Command neighbours precomputes the nearest words of every word of the
// embedded table (pkg/vector/glove.bin) and writes pkg/vector/neighbours.bin,
// which the table loads to answer Neighbours without scanning (see
// pkg/vector/neighbours.go). Run it after generate.js, from the repository
// root:
//
//	go run scripts/embeddings/neighbours.go [-k 5] [-min-cos 0.55]
//
// It takes about a minute on two cores (n² · dim multiplications).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/recmem/recmem/pkg/vector"
)

func main() {
	in := flag.String("table", "pkg/vector/glove.bin", "table file")
	out := flag.String("out", "pkg/vector/neighbours.bin", "output file")
	k := flag.Int("k", 5, "neighbours per word")
	minCos := flag.Float64("min-cos", 0.55, "smallest cosine listed")
	flag.Parse()
	b, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t, err := vector.Parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nb, err := t.NeighbourLists(*k, *minCos, vector.TableHash(b))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, nb, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes\n", *out, len(nb))
}
