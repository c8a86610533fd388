package workload

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"

	"github.com/recmem/recmem/pkg/vector"
)

var (
	workloadOut     = flag.String("workload.out", "", "write the full workload file to `FILE` (TestWriteFile)")
	workloadCatalog = flag.String("workload.catalog", CatalogPath, "the catalog `FILE` of the rank workload (TestWriteFile)")
)

// tinyCatalog is a small JSON catalog fixture, as seen from this directory.
const tinyCatalog = "../../testdata/catalog/tiny.json"

// TestWriteFile writes the workload file the Node runner reads:
//
//	go test ./pkg/workload -run TestWriteFile -args -workload.out /tmp/w.json [-workload.catalog FILE]
func TestWriteFile(t *testing.T) {
	if *workloadOut == "" {
		t.Skip("no -workload.out")
	}
	f, err := BuildFile(LoCoMoPath, *workloadCatalog, nil, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*workloadOut, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", *workloadOut, buf.Len())
}

func TestBuildFile(t *testing.T) {
	if _, err := os.Stat(LoCoMoPath); err != nil {
		t.Skip("LoCoMo not found:", err)
	}
	f, err := BuildFile(LoCoMoPath, tinyCatalog, []int{5, 12}, FileOptions{Signals: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version int                 `json:"version"`
		Budget  int                 `json:"budget"`
		Sizes   []int               `json:"sizes"`
		Units   []map[string]string `json:"units"`
		Tokens  []int               `json:"tokens"`
		Vectors [][]float64         `json:"vectors"`
		Queries []struct {
			Text   string
			Vector []float64
		}
		RecordInputs []string `json:"record_inputs"`
		AddInputs    []string `json:"add_inputs"`
		Rank         struct {
			Catalog string
			Setup   []string
			Inputs  []string
		} `json:"rank"`
		Quality []struct {
			ID        string
			Units     []map[string]string
			Tokens    []int
			Vectors   [][]float64
			Questions []struct {
				Text     string
				Vector   []float64
				Evidence []string
				Sessions int
			}
		} `json:"quality"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	dim := vector.Default().Dim()
	if got.Version != 1 || got.Budget != 2000 || len(got.Sizes) != 2 || len(got.Units) != 12 || len(got.Tokens) != 12 || len(got.Vectors) != 12 {
		t.Fatalf("header: version %d budget %d sizes %v units %d tokens %d vectors %d",
			got.Version, got.Budget, got.Sizes, len(got.Units), len(got.Tokens), len(got.Vectors))
	}
	// Tokens are ceil(code points of "[date] speaker: text" / 4).
	u := got.Units[0]
	render := []rune("[" + u["date"] + "] " + u["speaker"] + ": " + u["text"])
	if want := (len(render) + 3) / 4; got.Tokens[0] != want {
		t.Errorf("tokens[0] = %d, want %d", got.Tokens[0], want)
	}
	for i, v := range got.Vectors {
		if len(v) != dim || math.Abs(norm(v)-1) > 1e-4 {
			t.Errorf("vectors[%d]: length %d (want %d), norm %.6f", i, len(v), dim, norm(v))
		}
	}
	if len(got.Queries) == 0 || len(got.Queries[0].Vector) != dim {
		t.Errorf("queries: %d", len(got.Queries))
	}
	if len(got.RecordInputs) != 3 || len(got.AddInputs) != 3 || len(got.Rank.Inputs) != 3 || len(got.Rank.Setup) != RankSetup {
		t.Errorf("inputs: record %d add %d rank %d setup %d", len(got.RecordInputs), len(got.AddInputs), len(got.Rank.Inputs), len(got.Rank.Setup))
	}
	if got.Rank.Catalog != "testdata/catalog/tiny.json" {
		t.Errorf("rank.catalog = %q", got.Rank.Catalog)
	}
	if len(got.Quality) == 0 {
		t.Fatal("no quality conversations")
	}
	for _, c := range got.Quality {
		ids := map[string]bool{}
		for _, u := range c.Units {
			ids[u["id"]] = true
		}
		if len(c.Tokens) != len(c.Units) || len(c.Vectors) != len(c.Units) {
			t.Errorf("%s: %d units, %d tokens, %d vectors", c.ID, len(c.Units), len(c.Tokens), len(c.Vectors))
		}
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 || q.Sessions < 1 || len(q.Vector) != dim {
				t.Errorf("%s: %q: evidence %v sessions %d", c.ID, q.Text, q.Evidence, q.Sessions)
			}
			for _, e := range q.Evidence {
				if !ids[e] {
					t.Errorf("%s: %q: evidence %s is no unit", c.ID, q.Text, e)
				}
			}
		}
	}
}

func norm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}
