package workload

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/recmem/recmem/pkg/dataset"
)

// LoCoMoPath is where the benchmarks find LoCoMo, relative to a package
// directory two levels below the repository root.
const LoCoMoPath = "../../../shared/data/locomo/locomo8.json"

// Memory is an agent memory of real turns and questions about it.
type Memory struct {
	Units     []map[string]string // add_units units
	Questions []string
}

// LoCoMoMemory returns n units of real LoCoMo turn text (the conversations
// in turn, repeated with fresh ids and sessions when n is larger than the
// data) and the questions of the conversations used. path is LoCoMoPath as
// seen from the caller.
func LoCoMoMemory(path string, n int) (*Memory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	convs, err := dataset.ReadLoCoMo(f)
	if err != nil {
		return nil, err
	}
	m := &Memory{}
	for round := 0; len(m.Units) < n; round++ {
		for _, c := range convs {
			if round == 0 {
				for _, q := range c.Questions {
					m.Questions = append(m.Questions, q.Text)
				}
			}
			for _, t := range c.Turns {
				if len(m.Units) == n {
					return m, nil
				}
				m.Units = append(m.Units, map[string]string{
					"id": fmt.Sprintf("%s/%d/%s", c.ID, round, t.ID), "session": fmt.Sprintf("%s/%d/%s", c.ID, round, t.Session),
					"date": t.Date, "time": t.Time, "speaker": t.Speaker, "text": t.Text,
				})
			}
		}
	}
	return m, nil
}

// AddUnits is the add_units input for units[i:j].
func (m *Memory) AddUnits(i, j int) []byte {
	b, _ := json.Marshal(map[string]any{"units": m.Units[i:j]})
	return b
}

// Select is the select_slate input for the k-th question at budget B.
func (m *Memory) Select(k, budget int, ranker string) []byte {
	in := map[string]any{"query": m.Questions[k%len(m.Questions)], "budget": budget}
	if ranker != "" {
		in["ranker"] = ranker
	}
	b, _ := json.Marshal(in)
	return b
}

// AddCopy is the add_units input of one unit: the text of unit i (modulo
// the memory's size) under the fresh id "copy-i".
func (m *Memory) AddCopy(i int) []byte {
	u := map[string]string{}
	for k, v := range m.Units[i%len(m.Units)] {
		u[k] = v
	}
	u["id"] = fmt.Sprint("copy-", i)
	b, _ := json.Marshal(map[string]any{"units": []any{u}})
	return b
}
