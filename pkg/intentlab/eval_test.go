package intentlab

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/recmem/recmem/pkg/engine"
)

// tiny is a catalog of five items: two Halo games, two others on the same
// platform and a Wii game, the most popular first.
func tiny() Catalog {
	item := func(id, title, platform, series string, pop int) Item {
		return Item{ID: id, Pop: pop, Fields: map[string]string{"title": title, "platform": platform, "kind": "game", "format": "physical", "series": series}}
	}
	return Catalog{
		Items: []Item{
			item("1", "Halo 3 - Xbox 360", "Xbox 360", "Halo", 50),
			item("2", "Halo: Reach - Xbox 360", "Xbox 360", "Halo", 40),
			item("3", "Gears of War 2 - Xbox 360", "Xbox 360", "Gears of War", 30),
			item("4", "Forza Motorsport 3 - Xbox 360", "Xbox 360", "", 20),
			item("5", "Super Mario Galaxy - Nintendo Wii", "Nintendo Wii", "", 10),
		},
		Spec:    RankerSpec{MetaNames: []string{"title", "platform", "kind", "series", "format"}},
		Dataset: "tiny",
	}
}

// tinyCases are a negation, an "only", a combination no item meets (the
// ranker relaxes it) and, held out (FNV-1a of "held-1" modulo 5 is 0), a
// negation with a word no catalog holds.
func tinyCases(t *testing.T) []Case {
	var cases []Case
	for _, line := range []string{
		`{"id":"no-halo","kind":"negation","instruction":"no Halo","gold":{"not":{"series":"Halo"}}}`,
		`{"id":"only-wii","kind":"only","instruction":"only Wii","gold":{"platform":"Nintendo Wii"}}`,
		`{"id":"wii-no-mario","kind":"combined","instruction":"only Wii, no Mario","gold":{"all":[{"platform":"Nintendo Wii"},{"not":{"title":"mario"}}]}}`,
		`{"id":"held-1","kind":"negation","instruction":"no Halo or zzyzx","gold":{"not":{"series":"Halo"}}}`,
	} {
		var c Case
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestEvaluate runs the tiny cases natively. Each list's share, by hand
// (the against user likes the 2 most popular items that break the case):
//
//	case          new: with, without      against: candidates, with, without
//	no-halo       3,4,5: 1; 5 items: 3/5  3,4,5: 1; 1
//	only-wii      5: 1; 1/5               3,4,5: 1; 1/3
//	wii-no-mario  relaxed: 0; 0           3,4,5, relaxed: 0; 0
//	held-1        as no-halo              as no-halo
func TestEvaluate(t *testing.T) {
	var said []string
	rep, err := Evaluate(engine.New(), tiny(), tinyCases(t), Options{History: 2, Failures: true, Progress: func(s string) { said = append(said, s) }})
	if err != nil {
		t.Fatal(err)
	}
	// Every list is as long as it can be: p10_strict is p10 throughout.
	dev := Scores{Cases: 3, Lists: 6, P10: 0.6667, P10Strict: 0.6667, Perfect: 0.6667, BaselineP10: 0.3556, BaselinePer: 0.1667, Relaxed: 2} // baseline 2.1333/6
	held := Scores{Cases: 1, Lists: 2, P10: 1, P10Strict: 1, Perfect: 1, BaselineP10: 0.8, BaselinePer: 0.5}
	negDev := held                                                                            // no-halo scores as held-1
	only := Scores{Cases: 1, Lists: 2, P10: 1, P10Strict: 1, Perfect: 1, BaselineP10: 0.2667} // (1/5 + 1/3) / 2
	comb := Scores{Cases: 1, Lists: 2, Relaxed: 2}
	want := &Report{
		Cases: 4, Lists: 8, P10: 0.75, P10Strict: 0.75, Perfect: 0.75,
		BaselineP10: 0.4667, // 3.7333 / 8
		Relaxed:     0.25, RelaxedLists: 2,
		UnknownRate: 0.25,  // "zzyzx", 1 case of 4
		WithUnknown: &held, // its lists: held-1's
		ByKind: map[string]Scores{
			"negation": {Cases: 2, Lists: 4, P10: 1, P10Strict: 1, Perfect: 1, BaselineP10: 0.8, BaselinePer: 0.5, Dev: &negDev, HeldOut: &held},
			"only":     {Cases: 1, Lists: 2, P10: 1, P10Strict: 1, Perfect: 1, BaselineP10: 0.2667, Dev: &only},
			"combined": {Cases: 1, Lists: 2, Relaxed: 2, Dev: &comb},
		},
		ByUser: map[string]Scores{
			"new":     {Cases: 4, Lists: 4, P10: 0.75, P10Strict: 0.75, Perfect: 0.75, BaselineP10: 0.35, Relaxed: 1},                     // (3/5 + 1/5 + 0 + 3/5) / 4
			"against": {Cases: 4, Lists: 4, P10: 0.75, P10Strict: 0.75, Perfect: 0.75, BaselineP10: 0.5833, BaselinePer: 0.5, Relaxed: 1}, // (1 + 1/3 + 0 + 1) / 4
		},
		Dev: &dev, HeldOut: &held, Split: "all", Candidates: 5,
		Pool: "the page's: the 1000 most popular items the user has not acted on",
	}
	failures := rep.Failures
	rep.Failures = nil
	got, _ := json.Marshal(rep)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("report\n got %s\nwant %s", got, exp)
	}
	// The relaxed lists fail, and only development ones are listed: the new
	// user's holds the four items that are not Mario, the against user's
	// the two left after its history.
	wantBad := map[string][]string{
		"new":     {"Forza Motorsport 3 - Xbox 360", "Gears of War 2 - Xbox 360", "Halo 3 - Xbox 360", "Halo: Reach - Xbox 360"},
		"against": {"Forza Motorsport 3 - Xbox 360", "Gears of War 2 - Xbox 360"},
	}
	if len(failures) != 2 {
		t.Fatalf("failures: %+v", failures)
	}
	for _, f := range failures {
		bad := slices.Sorted(slices.Values(f.Violating))
		if f.ID != "wii-no-mario" || f.P10 != 0 || !slices.Equal(bad, wantBad[f.User]) {
			t.Errorf("failure %+v, want wii-no-mario violating %q", f, wantBad[f.User])
		}
	}
	if len(said) != 0 {
		t.Errorf("progress %q before 50 cases", said)
	}
}

func TestEvaluateSplit(t *testing.T) {
	rep, err := Evaluate(engine.New(), tiny(), tinyCases(t), Options{Split: "heldout", History: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 1 || rep.Dev != nil || rep.HeldOut == nil || rep.Split != "heldout" || rep.Failures != nil {
		t.Errorf("heldout split: %+v", rep)
	}
	rep, err = Evaluate(engine.New(), tiny(), tinyCases(t), Options{Split: "dev", History: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 3 || rep.HeldOut != nil || rep.Dev == nil {
		t.Errorf("dev split: %+v", rep)
	}
	if _, err := Evaluate(engine.New(), tiny(), tinyCases(t), Options{Split: "test"}); err == nil || err.Error() != `intentlab: split: "test" is not dev, heldout or all` {
		t.Errorf("split test: err = %v", err)
	}
}
