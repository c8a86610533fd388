package peers_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slatelab"
	"github.com/recmem/recmem/pkg/workload"
)

var (
	peerOut   = flag.String("peer.out", "", "run the full peer measurement and write its JSON object to `FILE`")
	peerSizes = flag.String("peer.sizes", "100,500,2000,10000", "comma-separated memory sizes in units")
	peerIters = flag.Int("peer.iters", 200, "timed selections per size, after 10 warm-up queries (capped at about 5 s per size)")
)

// budget is the slate budget B of the figures, in tokens.
const budget = 2000

// Measurement limits per size.
const (
	warmup  = 10
	maxTime = 5 * time.Second
)

// report is the JSON object written by -peer.out.
type report struct {
	Peer        string             `json:"peer"`
	Version     string             `json:"version"`
	Budget      int                `json:"budget"`
	Hits        int                `json:"hits"`
	SelectMs    map[string]float64 `json:"select_ms"`     // median of query + fill, by unit count
	SelectP90Ms map[string]float64 `json:"select_p90_ms"` // 90th percentile
	Iters       map[string]int     `json:"iters"`         // timed selections
	IndexMs     map[string]float64 `json:"index_ms"`      // building the index of all units, one batch
	RSlate      float64            `json:"r_slate"`
	RSlateK2    float64            `json:"r_slate_k2"`
	Recall      float64            `json:"recall"`
	Questions   int                `json:"questions"`
	Scoring     string             `json:"scoring"`
	Analyzer    string             `json:"analyzer"`
	GOMAXPROCS  int                `json:"gomaxprocs"`
	GoVersion   string             `json:"go"`
}

// TestBlevePeer checks the peer on 50 LoCoMo units, or with -peer.out runs
// the full measurement (see the package doc and report).
func TestBlevePeer(t *testing.T) {
	if _, err := os.Stat(workload.LoCoMoPath); err != nil {
		t.Skipf("LoCoMo not found at %s (from host/peers): %v", workload.LoCoMoPath, err)
	}
	if *peerOut == "" {
		checkBlevePeer(t)
		return
	}
	sizes, err := parseSizes(*peerSizes)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	rep := report{Peer: "bleve", Version: bleveVersion, Budget: budget, Hits: hits,
		SelectMs: map[string]float64{}, SelectP90Ms: map[string]float64{}, Iters: map[string]int{}, IndexMs: map[string]float64{},
		Scoring: "bm25", Analyzer: "en", GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version()}
	for _, n := range sizes {
		med, p90, iters, idxMs, err := measureSize(n)
		if err != nil {
			t.Fatalf("units=%d: %v", n, err)
		}
		k := strconv.Itoa(n)
		rep.SelectMs[k], rep.SelectP90Ms[k], rep.Iters[k], rep.IndexMs[k] = med, p90, iters, idxMs
		t.Logf("units=%d: select median %.4f ms, p90 %.4f ms over %d; index %.1f ms", n, med, p90, iters, idxMs)
	}
	m, err := quality()
	if err != nil {
		t.Fatal(err)
	}
	rep.RSlate, rep.RSlateK2, rep.Recall, rep.Questions = m.RSlate, m.RSlateK2, m.Recall, m.Questions
	b, _ := json.Marshal(rep)
	if err := os.WriteFile(*peerOut, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%.1f s)", b, time.Since(t0).Seconds())
}

// measureSize indexes the first n LoCoMo units and times query + fill over
// the questions in turn. Latencies are in milliseconds.
func measureSize(n int) (med, p90 float64, iters int, indexMs float64, err error) {
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	units := unitsOf(m.Units)
	t0 := time.Now()
	p, err := newBlevePeer(units)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	indexMs = ms(time.Since(t0))
	defer p.Close()
	k := 0
	for ; k < warmup; k++ {
		if _, _, _, err := p.selectSlate(m.Questions[k%len(m.Questions)], budget); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	var lat []float64
	start := time.Now()
	for len(lat) < *peerIters && time.Since(start) < maxTime {
		q := m.Questions[k%len(m.Questions)]
		k++
		t := time.Now()
		_, used, _, err := p.selectSlate(q, budget)
		d := time.Since(t)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if used > budget {
			return 0, 0, 0, 0, fmt.Errorf("slate of %d tokens over the budget %d", used, budget)
		}
		lat = append(lat, ms(d))
	}
	slices.Sort(lat)
	return round4(lat[len(lat)/2]), round4(lat[min(len(lat)-1, len(lat)*9/10)]), len(lat), round4(indexMs), nil
}

// quality runs the peer on every LoCoMo conversation as `recmem eval slate`
// runs recmem: one memory per conversation, its eligible questions
// (dataset.Question.Eligible), budget B, completeness tallied by slatelab.Tally.
func quality() (slatelab.Metrics, error) {
	f, err := os.Open(workload.LoCoMoPath)
	if err != nil {
		return slatelab.Metrics{}, err
	}
	defer f.Close()
	convs, err := dataset.ReadLoCoMo(f)
	if err != nil {
		return slatelab.Metrics{}, err
	}
	var tally slatelab.Tally
	for _, c := range convs {
		p, err := newBlevePeer(c.Units())
		if err != nil {
			return slatelab.Metrics{}, fmt.Errorf("%s: %w", c.ID, err)
		}
		for _, q := range c.Questions {
			if !q.Eligible() {
				continue
			}
			ids, used, ranked, err := p.selectSlate(q.Text, budget)
			if err != nil {
				p.Close()
				return slatelab.Metrics{}, fmt.Errorf("%s: %q: %w", c.ID, q.Text, err)
			}
			pool := map[string]bool{}
			for _, id := range ranked {
				pool[id] = true
			}
			tally.Add(slatelab.Outcome{Kappa: c.Sessions(q), Evidence: q.Evidence, Slate: ids, Pool: pool, Tokens: used})
		}
		p.Close()
	}
	return tally.Metrics(), nil
}

// checkBlevePeer is the fast check: on 50 real units, BM25 is the scoring
// model, a word found in one unit only ranks that unit first, and the slate
// follows the fill rules at a budget that forces skips.
func checkBlevePeer(t *testing.T) {
	m, err := workload.LoCoMoMemory(workload.LoCoMoPath, 50)
	if err != nil {
		t.Fatal(err)
	}
	units := unitsOf(m.Units)
	p, err := newBlevePeer(units)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// A long word whose 5-letter prefix no other unit has, so that stemming
	// cannot make it match elsewhere.
	prefixes := map[string]int{} // prefix → units holding it
	for _, u := range units {
		seen := map[string]bool{}
		for _, w := range words(u.Text) {
			if len(w) >= 5 && !seen[w[:5]] {
				seen[w[:5]] = true
				prefixes[w[:5]]++
			}
		}
	}
	want, word := "", ""
	for _, u := range units {
		for _, w := range words(u.Text) {
			if len(w) >= 7 && prefixes[w[:5]] == 1 {
				want, word = u.ID, w
				break
			}
		}
		if want != "" {
			break
		}
	}
	if want == "" {
		t.Fatal("no distinctive word in the first 50 units")
	}
	query := "What did they say about " + word + "?"
	ranked, err := p.rank(query, hits)
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) == 0 || ranked[0] != want {
		t.Fatalf("query %q: want %s first, got %v", query, want, ranked)
	}
	expl, err := p.explainTop(query)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(expl, "as per bm25 model") {
		t.Fatalf("scoring is not BM25; explanation:\n%s", expl)
	}

	// A budget that holds the best unit and forces the fill to skip some.
	small := p.tokens[want] + 40
	ranked, err = p.rank("what did you do with your family and friends", hits)
	if err != nil {
		t.Fatal(err)
	}
	ids, used := fill(ranked, p.tokens, small)
	if used > small {
		t.Fatalf("slate of %d tokens over the budget %d", used, small)
	}
	// No hit was left out that fitted in what was left when its turn came.
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	sofar := 0
	for _, id := range ranked {
		if in[id] {
			sofar += p.tokens[id]
		} else if sofar+p.tokens[id] <= small {
			t.Fatalf("unit %s (%d tokens) fits after %d of %d tokens but was skipped", id, p.tokens[id], sofar, small)
		}
	}
	if len(ids) == 0 || len(ids) == len(ranked) {
		t.Fatalf("budget %d: want some of the %d hits chosen and some skipped, got %d", small, len(ranked), len(ids))
	}
}

// BenchmarkBleveSelect times the peer's query + fill at B = 2000 over the
// LoCoMo questions in turn.
func BenchmarkBleveSelect(b *testing.B) {
	for _, n := range []int{100, 500, 2000, 10000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			m, err := workload.LoCoMoMemory(workload.LoCoMoPath, n)
			if err != nil {
				b.Skip("LoCoMo not found:", err)
			}
			p, err := newBlevePeer(unitsOf(m.Units))
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, _, _, err := p.selectSlate(m.Questions[i%len(m.Questions)], budget); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-peer.sizes: want positive integers, got %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
