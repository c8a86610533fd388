package rank

import (
	"reflect"
	"testing"
)

// TestContextCache: the user context is reused exactly when everything
// prepare reads is unchanged, and rebuilt when any of it changes.
func TestContextCache(t *testing.T) {
	base := User{Events: []Event{{Item: "a"}, {Item: "b", Text: "Kart racing"}},
		Chunks: []Chunk{{Category: "genre", Text: "racing", Strength: 0.7}}, Profile: "likes racing"}
	k0 := fingerprint(base, "")
	tests := []struct {
		name string
		u    User
		ins  string
		same bool
	}{
		{"identical", base, "", true},
		{"instruction", base, "cheap", false},
		{"strength", User{Events: base.Events, Chunks: []Chunk{{Category: "genre", Text: "racing", Strength: 0.8}}, Profile: base.Profile}, "", false},
		{"event order", User{Events: []Event{base.Events[1], base.Events[0]}, Chunks: base.Chunks, Profile: base.Profile}, "", false},
		{"text moved between fields", User{Events: []Event{{Item: "a"}, {Item: "bKart racing"}}, Chunks: base.Chunks, Profile: base.Profile}, "", false},
		{"profile", User{Events: base.Events, Chunks: base.Chunks, Profile: "likes racing."}, "", false},
	}
	for _, tt := range tests {
		if got := fingerprint(tt.u, tt.ins) == k0; got != tt.same {
			t.Errorf("%s: same fingerprint = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// TestCachedContextGivesFreshResults: a ranker that served other users and
// instructions in between answers exactly as a fresh ranker does.
func TestCachedContextGivesFreshResults(t *testing.T) {
	cat := tiny(t)
	req := Request{Candidates: []Candidate{{ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}}
	users := []User{
		{Events: []Event{{Item: "a"}}},
		{Events: []Event{{Item: "a"}, {Item: "c"}}, Chunks: []Chunk{{Category: "genre", Text: "kart racing", Strength: 0.9}}},
		{Events: []Event{{Item: "a"}}},
	}
	shared := New(cat)
	for i, u := range users {
		for _, ins := range []string{"", "racing"} {
			req.Instruction = ins
			got, err := shared.Rank(u, req)
			if err != nil {
				t.Fatal(err)
			}
			want, err := New(cat).Rank(u, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("user %d, instruction %q: cached ranker gave %+v, fresh %+v", i, ins, got, want)
			}
		}
	}
}
