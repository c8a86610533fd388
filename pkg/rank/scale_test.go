package rank

import (
	"strconv"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/workload"
)

// scaledCatalog is workload.ScaledCatalog: a synthetic film catalog of n
// items (titles, a genre list and a year, as a MovieLens catalog has).
func scaledCatalog(tb testing.TB, n int) *catalog.Catalog {
	c, err := workload.ScaledCatalog(n)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// scaledRequest is 300 candidates spread over a scaled catalog of n items,
// with an instruction.
func scaledRequest(n int, instruction string) Request {
	var cands []Candidate
	for _, id := range workload.ScaledCandidates(n, 300) {
		cands = append(cands, Candidate{ID: id})
	}
	return Request{Candidates: cands, Instruction: instruction, K: 20}
}

// BenchmarkRankInstructionCatalogSize ranks 300 candidates with an
// instruction on catalogs of growing size, on one ranker: the steady
// state, which must not grow with the catalog (BenchmarkRankInstructionFirst
// is the first request).
func BenchmarkRankInstructionCatalogSize(b *testing.B) {
	for _, n := range []int{1682, 64000} {
		r := New(scaledCatalog(b, n))
		req := scaledRequest(n, workload.ScaledInstruction)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				u := r.Understand(req)
				if _, err := r.Rank(User{}, u.Constrained(req)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRankInstructionFirst is the first request with an instruction
// on a ranker just made (New, untimed): what a visitor waits for after
// load_catalog, everything the ranker builds on first use included; one
// instruction of each of workload.ScaledInstructions (what it makes the
// interpreter read: values, titles, the typo index).
func BenchmarkRankInstructionFirst(b *testing.B) {
	for _, n := range []int{1682, 64000} {
		cat := scaledCatalog(b, n)
		for _, in := range workload.ScaledInstructions {
			b.Run(strconv.Itoa(n)+"/"+in.Name, func(b *testing.B) { benchFirst(b, cat, scaledRequest(n, in.Text)) })
		}
	}
}

func benchFirst(b *testing.B, cat *catalog.Catalog, req Request) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		r := New(cat)
		b.StartTimer()
		u := r.Understand(req)
		if _, err := r.Rank(User{}, u.Constrained(req)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewScaled is New on the scaled catalogs: the ranker's share of
// load_catalog.
func BenchmarkNewScaled(b *testing.B) {
	for _, n := range []int{1682, 64000} {
		cat := scaledCatalog(b, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(cat)
			}
		})
	}
}
