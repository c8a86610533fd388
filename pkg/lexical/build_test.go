package lexical

import (
	"reflect"
	"testing"
)

// TestBuildEqualsAdd builds an index from term ids and checks that it is the
// index Add builds from the same documents: postings, lengths, counts and
// scores.
func TestBuildEqualsAdd(t *testing.T) {
	terms := []string{"pottery", "class", "tuesday", "paint"}
	// Document 2 comes in two runs, as a session's units do; document 3 is empty.
	docs := [][][]int32{{{0, 1, 0}}, {{2}}, {{1, 3}, {3, 0}}, {}}
	want := New(Config{})
	for k, runs := range docs {
		for _, run := range runs {
			var ts []string
			for _, id := range run {
				ts = append(ts, terms[id])
			}
			want.Add(k, ts)
		}
	}
	for len(want.lengths) < len(docs) {
		want.lengths = append(want.lengths, 0)
	}
	got, err := Build(Config{}, terms, len(docs), func(k int, emit func([]int32)) {
		for _, run := range docs[k] {
			emit(run)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.postings, want.postings) || !reflect.DeepEqual(got.lengths, want.lengths) ||
		got.docs != want.docs || got.total != want.total {
		t.Fatalf("Build = %+v\nAdd   = %+v", got, want)
	}
	// "pottery" is in documents 0 (twice) and 2 (once): 3 documents hold a term.
	if got.docs != 3 || got.DF("pottery") != 2 || got.tf("pottery", 0) != 2 {
		t.Errorf("docs %d, df %d, tf %d", got.docs, got.DF("pottery"), got.tf("pottery", 0))
	}
	if !reflect.DeepEqual(got.Score([]string{"pottery", "paint"}), want.Score([]string{"pottery", "paint"})) {
		t.Error("scores differ")
	}
	// Lists grow out of the block without touching their neighbours.
	got.Add(1, []string{"pottery"})
	want.Add(1, []string{"pottery"})
	if !reflect.DeepEqual(got.postings, want.postings) {
		t.Errorf("after Add: %v, want %v", got.postings, want.postings)
	}
	if err := got.Remove(2, []string{"class", "paint", "paint", "pottery"}); err != nil {
		t.Fatal(err)
	}
	if got.docs != 2 || got.DF("paint") != 0 {
		t.Errorf("after Remove: docs %d, df(paint) %d", got.docs, got.DF("paint"))
	}
}

func TestBuildRefusesOutOfRange(t *testing.T) {
	_, err := Build(Config{}, []string{"a"}, 1, func(k int, emit func([]int32)) { emit([]int32{0, 1}) })
	if err == nil || err.Error() != "lexical: term id 1 out of range (1 terms)" {
		t.Errorf("err = %v", err)
	}
}

// TestBuildFlatEqualsBuild lays the same documents out flat.
func TestBuildFlatEqualsBuild(t *testing.T) {
	terms := []string{"pottery", "class", "tuesday", "paint"}
	ids := []int32{0, 1, 0, 2, 1, 3, 3, 0}
	end := []int32{3, 4, 8, 8}
	flat, err := BuildFlat(Config{}, terms, ids, end)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Build(Config{}, terms, 4, func(k int, emit func([]int32)) {
		s := int32(0)
		if k > 0 {
			s = end[k-1]
		}
		emit(ids[s:end[k]])
	})
	if !reflect.DeepEqual(flat, want) {
		t.Fatalf("BuildFlat = %+v\nBuild     = %+v", flat, want)
	}
	if _, err := BuildFlat(Config{}, terms, []int32{4}, []int32{1}); err == nil || err.Error() != "lexical: term id 4 out of range (4 terms)" {
		t.Errorf("err = %v", err)
	}
}
