package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds adds the files of testdata/fuzz/dataset whose names start with
// prefix to the corpus.
func fuzzSeeds(f *testing.F, prefix string) {
	paths, _ := filepath.Glob("../../testdata/fuzz/dataset/" + prefix + "*")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzReadLoCoMo: the loader never panics on any input, and what it accepts
// has questions whose evidence points at turns of their conversation.
func FuzzReadLoCoMo(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"sample_id":"s","conversation":{"speaker_a":"A","speaker_b":"B","session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi"}]},"qa":[{"question":"q","answer":"a","evidence":["D1:1; D9:9","D"],"category":1}]}]`))
	fuzzSeeds(f, "locomo")
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadLoCoMo(bytes.NewReader(b))
	})
}

// FuzzReadLongMemEval: the loader never panics on any input.
func FuzzReadLongMemEval(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"question_id":"q1","question_type":"multi-session","question":"q","answer":"a","question_date":"2023/05/30 (Tue) 23:40","haystack_session_ids":["s1"],"haystack_dates":["2023/05/20 (Sat) 10:00"],"haystack_sessions":[[{"role":"user","content":"hi","has_answer":true}]],"answer_session_ids":["s1"]}]`))
	fuzzSeeds(f, "longmemeval")
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadLongMemEval(bytes.NewReader(b))
	})
}

// FuzzReadTable: the RecBole header and row reader never panics, and an
// accepted table's rows have one field per column.
func FuzzReadTable(f *testing.F) {
	f.Add([]byte("item_id:token\ttitle:token_seq\n1\tHalo 5\n"))
	f.Add([]byte("user_id:token\titem_id_list:token_seq\titem_id:token\nu1\t1 2 3\t4\n"))
	f.Add([]byte("a:float\n\n\n"))
	fuzzSeeds(f, "recbole")
	f.Fuzz(func(t *testing.T, b []byte) {
		tab, err := ReadTable(bytes.NewReader(b))
		if err != nil {
			return
		}
		for i, row := range tab.Rows {
			if len(row) != len(tab.Columns) {
				t.Fatalf("row %d has %d fields for %d columns", i, len(row), len(tab.Columns))
			}
		}
	})
}
