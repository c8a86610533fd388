package slate

import (
	"fmt"
	"slices"
	"testing"
)

// TestSpeakerPrior: with Ann named, every unit of Bob's below the fused
// list's speakerHead best has its score times otherSpeaker; the head and
// Ann's units keep theirs; with nobody named nothing changes.
func TestSpeakerPrior(t *testing.T) {
	s := NewStore()
	var us []Unit
	for i := range 20 {
		spk := "Bob"
		if i%2 == 1 {
			spk = "Ann"
		}
		us = append(us, Unit{ID: fmt.Sprint(i), Session: "S1", Speaker: spk, Text: fmt.Sprintf("turn number %d", i)})
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	fused := func() []float64 {
		f := make([]float64, 20)
		for i := range f {
			f[i] = float64(20 - i) // unit i is i-th best
		}
		return f
	}
	for _, c := range []struct {
		query string
		want  []float64 // units 14 to 19
	}{
		// Units 16 and 18 are Bob's and below the 16 best: 4 -> 1.2, 2 -> 0.6.
		{"What does Ann say?", []float64{6, 5, 4 * otherSpeaker, 3, 2 * otherSpeaker, 1}},
		{"What is said?", []float64{6, 5, 4, 3, 2, 1}},
	} {
		r := &retrieval{}
		r.named, r.nNamed = s.named(analyse(s, c.query, 0))
		f := fused()
		s.speakerPrior(r, f)
		if !slices.Equal(f[14:], c.want) || !slices.Equal(f[:14], fused()[:14]) {
			t.Errorf("%q: fused %v, want head unchanged and tail %v", c.query, f, c.want)
		}
	}
}

// TestHopsFindWhatTheQuestionLacks: the feedback hop ranks the unit that
// shares the best match's rare word high, the near-words hop the unit holding a
// word close to the question's; both keep to the named speaker's units.
func TestHopsFindWhatTheQuestionLacks(t *testing.T) {
	s := NewStore()
	us := []Unit{
		{ID: "best", Session: "S1", Speaker: "Ann", Text: "I volunteer at the homeless shelter on Mondays."},
		{ID: "shared", Session: "S2", Speaker: "Ann", Text: "The shelter residents wrote us a letter."},
		{ID: "bobs", Session: "S2", Speaker: "Bob", Text: "The shelter residents thanked me too."},
		{ID: "ball", Session: "S3", Speaker: "Ann", Text: "On weekends I play football with my cousins."},
		{ID: "bobball", Session: "S3", Speaker: "Bob", Text: "I watch football every weekend."},
		{ID: "bread", Session: "S4", Speaker: "Ann", Text: "I baked bread for my neighbours."},
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	rank := func(r *retrieval, l []int32, id string) int32 { return l[s.byID[id].pos] }

	r := s.retrieve(analyse(s, "Where does Ann volunteer?", 0), true, 128)
	if r.fused[0].u.ID != "best" || !slices.Contains(r.feedTerms, "shelter") {
		t.Fatalf("best %s, feedback words %v", r.fused[0].u.ID, r.feedTerms)
	}
	// Every unit is among the 10 best of so small a store, so the bread's
	// words are feedback words too, but the best unit's weigh most.
	if sh, br := rank(r, r.feedRank, "shared"), rank(r, r.feedRank, "bread"); sh == noRank || br == noRank || sh > br || rank(r, r.feedRank, "bobs") != noRank {
		t.Errorf("feedback ranks: shared %d, bobs %d, bread %d; want shared above the bread, Bob's unranked",
			rank(r, r.feedRank, "shared"), rank(r, r.feedRank, "bobs"), rank(r, r.feedRank, "bread"))
	}

	r = s.retrieve(analyse(s, "What sports does Ann like?", 0), true, 128)
	var near []string
	for _, x := range r.nearTerms {
		near = append(near, x.word+"~"+x.of)
	}
	if !slices.Contains(near, "football~sports") {
		t.Fatalf("near words %v, want football~sports (cosine 0.72 in the embedded table)", near)
	}
	if rank(r, r.nearRank, "ball") != 0 || rank(r, r.nearRank, "bobball") != noRank {
		t.Errorf("near ranks: ball %d, bobball %d; want 0 and unranked", rank(r, r.nearRank, "ball"), rank(r, r.nearRank, "bobball"))
	}
	if got := s.hopWords(r, s.byID["ball"], hopNear); !slices.Equal(got, []string{"football ~ sports"}) {
		t.Errorf("hopWords = %v", got)
	}
}

// TestSessionHop: after the context (two turns on each side), the session
// hop adds the turns three, then four away from a best unit, each with the
// unit it neighbours, and no more than hopQuota.
func TestSessionHop(t *testing.T) {
	s := NewStore()
	var us []Unit
	for i := range 10 {
		us = append(us, Unit{ID: fmt.Sprint(i), Session: "S1", Text: fmt.Sprintf("turn %d", i)})
	}
	if err := s.Add(us); err != nil {
		t.Fatal(err)
	}
	r := &retrieval{fused: []*entry{s.entries[4]}}
	in := make([]bool, 10)
	for i := 2; i <= 6; i++ {
		in[i] = true // the best unit and its context
	}
	var got []string
	s.addHops(r, in, func(c candidate) {
		if c.hop != hopSession || c.anchor != s.entries[4] || !c.context {
			t.Errorf("unit %s: hop %d, anchor %v", c.e.u.ID, c.hop, c.anchor)
		}
		got = append(got, c.e.u.ID)
	})
	if want := []string{"1", "7", "0", "8"}; !slices.Equal(got, want) {
		t.Errorf("session hop added %v, want %v", got, want)
	}
}
