package workload

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/dataset"
	"github.com/recmem/recmem/pkg/slate"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// FileVersion is the version of the workload file format.
const FileVersion = 1

// DefaultSizes are the memory sizes, in units, that selection and state are
// measured at.
var DefaultSizes = []int{100, 500, 2000, 10000}

// File is the workload written once by Go and read by every host that cannot
// call this package (the Node runner, web/bench/bench.mjs), so that all of
// them measure the same inputs. Vectors are the sentence vectors pkg/slate's
// store computes, rounded to 6 decimals; tokens are slate.Unit.Tokens.
type File struct {
	Version int   `json:"version"`
	Budget  int   `json:"budget"`
	Sizes   []int `json:"sizes"`
	// Units are the add_units units of LoCoMoMemory at the largest size; the
	// memory of size n is Units[:n].
	Units   []map[string]string `json:"units"`
	Tokens  []int               `json:"tokens"`
	Vectors []Vector            `json:"vectors"`
	Queries []Query             `json:"queries"`
	// RecordInputs are the record inputs of a signal stream (RecordSignal).
	RecordInputs []string `json:"record_inputs"`
	// AddInputs add one unit each (AddCopy) to the memory of the first 500
	// units (or all units when there are fewer).
	AddInputs []string  `json:"add_inputs"`
	Rank      FileRank  `json:"rank"`
	Quality   []Quality `json:"quality"`
}

// Vector is a sentence vector; it encodes each component rounded to 6
// decimals.
type Vector []float32

// MarshalJSON writes the components rounded to 6 decimals.
func (v Vector) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(v)*10)
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		r := math.Round(float64(x)*1e6) / 1e6
		if r == 0 {
			r = 0 // no "-0"
		}
		b = strconv.AppendFloat(b, r, 'f', -1, 64)
	}
	return append(b, ']'), nil
}

// Query is a question with its sentence vector.
type Query struct {
	Text   string `json:"text"`
	Vector Vector `json:"vector"`
}

// FileRank is the rank workload: the catalog to load, the record inputs that
// build the memory ranked with (RankMemory), and the rank inputs (Rank10).
type FileRank struct {
	Catalog string   `json:"catalog"` // relative to the repository root when it can be found
	Setup   []string `json:"setup"`
	Inputs  []string `json:"inputs"`
	// Sized are rank inputs of RankSizes candidates, keyed by the count
	// ("200") without an instruction (RankN) and with one ("200_instruction",
	// RankInstructed), rankSized of each.
	Sized map[string][]string `json:"sized,omitempty"`
}

// rankSized is how many inputs of each candidate count the workload holds.
const rankSized = 30

// Quality is one LoCoMo conversation as `recmem eval slate` sees it: its
// units (Conversation.Units) and its eligible questions (Question.Eligible).
type Quality struct {
	ID        string            `json:"id"`
	Units     []slate.Unit      `json:"units"`
	Tokens    []int             `json:"tokens"`
	Vectors   []Vector          `json:"vectors"`
	Questions []QualityQuestion `json:"questions"`
}

// QualityQuestion is an eligible question with its evidence unit IDs and the
// number of sessions the evidence spans.
type QualityQuestion struct {
	Text     string   `json:"text"`
	Vector   Vector   `json:"vector"`
	Evidence []string `json:"evidence"`
	Sessions int      `json:"sessions"`
}

// FileOptions are the workload's parameters; the zero value means the
// defaults.
type FileOptions struct {
	Signals int // record, add and rank inputs (default 300)
	Budget  int // slate budget in tokens (default 2000)
}

// AddPrefix is the size of the memory the add_inputs are added to.
const AddPrefix = 500

// RankSetup is the number of purchases in the memory rank inputs are ranked
// with.
const RankSetup = 20

// BuildFile builds the workload from LoCoMo at locomoPath and the catalog at
// catalogPath, with memories of the given sizes (nil: DefaultSizes). An
// empty catalogPath leaves the rank section empty (no rank10 inputs).
func BuildFile(locomoPath, catalogPath string, sizes []int, opts FileOptions) (*File, error) {
	if len(sizes) == 0 {
		sizes = DefaultSizes
	}
	if opts.Signals <= 0 {
		opts.Signals = 300
	}
	if opts.Budget <= 0 {
		opts.Budget = 2000
	}
	largest := slices.Max(sizes)
	if largest <= 0 {
		return nil, errors.New("workload: sizes must be positive")
	}
	m, err := LoCoMoMemory(locomoPath, largest)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	if len(m.Units) < largest {
		return nil, fmt.Errorf("workload: LoCoMo gave %d units, want %d", len(m.Units), largest)
	}
	table := vector.Default()
	f := &File{Version: FileVersion, Budget: opts.Budget, Sizes: slices.Clone(sizes), Units: m.Units}
	for _, u := range m.Units {
		su := slate.Unit{ID: u["id"], Session: u["session"], Date: u["date"], Time: u["time"], Speaker: u["speaker"], Text: u["text"]}
		f.Tokens = append(f.Tokens, su.Tokens())
		f.Vectors = append(f.Vectors, sentence(table, su.Text))
	}
	for _, q := range m.Questions {
		f.Queries = append(f.Queries, Query{Text: q, Vector: sentence(table, q)})
	}
	add := &Memory{Units: m.Units[:min(AddPrefix, len(m.Units))]}
	for i := range opts.Signals {
		f.RecordInputs = append(f.RecordInputs, string(RecordSignal(i)))
		f.AddInputs = append(f.AddInputs, string(add.AddCopy(i)))
	}

	if catalogPath != "" {
		b, err := os.ReadFile(catalogPath)
		if err != nil {
			return nil, fmt.Errorf("workload: %w", err)
		}
		cat, err := catalog.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("workload: %s: %w", catalogPath, err)
		}
		f.Rank.Catalog = repoRelative(catalogPath)
		for _, in := range RankMemory(cat, RankSetup) {
			f.Rank.Setup = append(f.Rank.Setup, string(in))
		}
		for i := range opts.Signals {
			f.Rank.Inputs = append(f.Rank.Inputs, string(Rank10(cat, i)))
		}
		if cat.Len() >= slices.Max(RankSizes) {
			f.Rank.Sized = map[string][]string{}
			for _, n := range RankSizes {
				k := strconv.Itoa(n)
				for i := range rankSized {
					f.Rank.Sized[k] = append(f.Rank.Sized[k], string(RankN(cat, i, n)))
					f.Rank.Sized[k+"_instruction"] = append(f.Rank.Sized[k+"_instruction"], string(RankInstructed(cat, i, n)))
				}
			}
		}
	}

	lf, err := os.Open(locomoPath)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	defer lf.Close()
	convs, err := dataset.ReadLoCoMo(lf)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	for _, c := range convs {
		q := Quality{ID: c.ID, Units: c.Units()}
		for _, u := range q.Units {
			q.Tokens = append(q.Tokens, u.Tokens())
			q.Vectors = append(q.Vectors, sentence(table, u.Text))
		}
		for _, qq := range c.Questions {
			if !qq.Eligible() {
				continue
			}
			q.Questions = append(q.Questions, QualityQuestion{Text: qq.Text, Vector: sentence(table, qq.Text),
				Evidence: qq.Evidence, Sessions: c.Sessions(qq)})
		}
		f.Quality = append(f.Quality, q)
	}
	return f, nil
}

// Write encodes the file as one JSON document.
func (f *File) Write(w io.Writer) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// sentence is the sentence vector pkg/slate's store gives a text: the SIF
// embedding of its words without stop words.
func sentence(t *vector.Table, s string) Vector {
	var words []string
	for _, w := range text.Words(s) {
		if !text.IsStopword(w) {
			words = append(words, w)
		}
	}
	return t.Sentence(words)
}

// repoRelative returns path relative to the repository root holding it (the
// nearest directory above with a go.mod), or path itself when there is none.
func repoRelative(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil {
				return filepath.ToSlash(rel)
			}
			return path
		}
		if filepath.Dir(dir) == dir {
			return path
		}
	}
}
