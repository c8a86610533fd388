package intentlab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/engine"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/rank"
)

// films is a JSON catalog asset of six films: genres as a JSON array for
// one, "|"-joined for the others, years as strings and one as a number.
const films = `{"format":"recmem.catalog","version":1,"dataset":"films","meta_names":["title","year","genre"],"dim":0,"items":[
{"id":"1","meta":["Toy Story","1995",["Animation","Children's","Comedy"]],"pop":60},
{"id":"2","meta":["Alien",1979,"Action|Horror|Sci-Fi"],"pop":50},
{"id":"3","meta":["Airplane!","1980","Comedy"],"pop":40},
{"id":"4","meta":["Casablanca","1942","Drama|Romance|War"],"pop":30},
{"id":"5","meta":["Annie Hall","1977","Comedy|Romance"],"pop":20},
{"id":"6","meta":["Halloween","1978","Horror"],"pop":10}]}`

func TestReadCatalogFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsonAsset := write("films.json", []byte(films))
	cat, err := ReadCatalogFile(jsonAsset, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range cat.Items {
		got = append(got, fmt.Sprintf("%s:%s:%s:%s:%d", it.ID, it.Fields["title"], it.Fields["year"], it.Fields["genre"], it.Pop))
	}
	want := []string{"1:Toy Story:1995:Animation|Children's|Comedy:60", "2:Alien:1979:Action|Horror|Sci-Fi:50", "3:Airplane!:1980:Comedy:40",
		"4:Casablanca:1942:Drama|Romance|War:30", "5:Annie Hall:1977:Comedy|Romance:20", "6:Halloween:1978:Horror:10"}
	if !slices.Equal(got, want) || !cat.Asset() || cat.Dataset != "films" || string(cat.Raw) != films {
		t.Errorf("JSON asset: %q (asset %v, dataset %q)", got, cat.Asset(), cat.Dataset)
	}

	// The binary form of the same catalog (its lists joined as pkg/dataset
	// joins a RecBole list) reads the same.
	c, err := catalog.DecodeJSON([]byte(strings.NewReplacer(`["Animation","Children's","Comedy"]`, `"Animation|Children's|Comedy"`, `,1979,`, `,"1979",`).Replace(films)))
	if err != nil {
		t.Fatal(err)
	}
	bin := write("films.cat", c.Encode())
	bcat, err := ReadCatalogFile(bin, "", "")
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, it := range bcat.Items {
		got = append(got, fmt.Sprintf("%s:%s:%s:%s:%d", it.ID, it.Fields["title"], it.Fields["year"], it.Fields["genre"], it.Pop))
	}
	if !slices.Equal(got, want) || !bcat.Asset() {
		t.Errorf("binary asset: %q", got)
	}

	for _, tt := range []struct {
		file, spec, table, want string
	}{
		{jsonAsset, "x.json", "", "--ranker is only for the page's demo catalog"},
		{bin, "", "x.json", "--intent is only for the page's demo catalog"},
		{write("bad.cat", append([]byte(catalog.Magic), 1, 2, 3)), "", "", "bad.cat: catalog: bad format"},
		{write("nested.json", []byte(`{"format":"recmem.catalog","meta_names":["g"],"items":[{"id":"1","meta":[[["a"]]]}]}`)), "", "", "items[0].meta[0] (g): a list inside a list"},
		{write("obj.json", []byte(`{"format":"recmem.catalog","meta_names":["g"],"items":[{"id":"1","meta":[{"a":1}]}]}`)), "", "", `items[0].meta[0] (g): want a string, a number or a list of them, got {"a":1}`},
		{write("short.json", []byte(`{"format":"recmem.catalog","meta_names":["g","h"],"items":[{"id":"1","meta":["a"]}]}`)), "", "", "items[0].meta: 1 values, want one per meta_names (2)"},
		{write("none.json", []byte(`{"format":"recmem.catalog","meta_names":[],"items":[]}`)), "", "", "none.json: no items"},
		{write("notjson.json", []byte(`{"items":`)), "", "", "notjson.json: unexpected end of JSON input"},
	} {
		if _, err := ReadCatalogFile(tt.file, tt.spec, tt.table); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", filepath.Base(tt.file), err, tt.want)
		}
	}
}

func TestSampleCandidates(t *testing.T) {
	var order []Item
	for i := range 50 {
		order = append(order, Item{ID: fmt.Sprint(i)})
	}
	none := func(Item) bool { return false }
	a := SampleCandidates(order, 10, 1, "case-a", none)
	if len(a) != 10 {
		t.Fatalf("%d items, want 10", len(a))
	}
	pos := map[string]int{}
	for i, it := range order {
		pos[it.ID] = i
	}
	for i := 1; i < len(a); i++ {
		if pos[a[i-1].ID] >= pos[a[i].ID] {
			t.Errorf("not in the catalog's order, or repeated: %v", a)
		}
	}
	same := func(x, y Item) bool { return x.ID == y.ID }
	if again := SampleCandidates(order, 10, 1, "case-a", none); !slices.EqualFunc(again, a, same) {
		t.Error("the same seed and case drew another pool")
	}
	if b := SampleCandidates(order, 10, 1, "case-b", none); slices.EqualFunc(b, a, same) {
		t.Error("another case drew the same pool")
	}
	if c := SampleCandidates(order, 10, 2, "case-a", none); slices.EqualFunc(c, a, same) {
		t.Error("another seed drew the same pool")
	}
	if all := SampleCandidates(order, 50, 1, "case-a", none); len(all) != 50 || all[0].ID != "0" {
		t.Errorf("n = len(order) should keep the order as it is")
	}
	// The items meeting the case come first: the one that exists is always
	// drawn, and of 30 that do, 10 (K) are drawn before the others.
	one := SampleCandidates(order, 5, 1, "case-a", func(it Item) bool { return it.ID == "37" })
	if !slices.ContainsFunc(one, func(it Item) bool { return it.ID == "37" }) || len(one) != 5 {
		t.Errorf("item 37 not drawn: %v", one)
	}
	many := func(it Item) bool { return pos[it.ID] < 30 }
	for _, id := range []string{"a", "b", "c", "d"} {
		p := SampleCandidates(order, 12, 1, id, many)
		n := 0
		for _, it := range p {
			if many(it) {
				n++
			}
		}
		if len(p) != 12 || n < K {
			t.Errorf("case %s: %d of 12 meet the case, want at least %d", id, n, K)
		}
	}
	if few := SampleCandidates(order, 4, 1, "case-a", many); len(few) != 4 || !many(few[0]) || !many(few[3]) {
		t.Errorf("n below K: %v, want 4 items meeting the case", few)
	}
}

func TestStrict(t *testing.T) {
	items := map[string]map[string]string{}
	var cands []string
	for i := range 14 {
		g := "Drama"
		if i%2 == 0 {
			g = "Comedy|Drama"
		}
		id := fmt.Sprint(i)
		items[id] = map[string]string{"genre": g}
		cands = append(cands, id)
	}
	var comedy Gold
	if err := json.Unmarshal([]byte(`{"genre": "comedy"}`), &comedy); err != nil {
		t.Fatal(err)
	}
	// Comedies are the even ids: 7 of the 14 candidates, 3 of the first 6.
	for _, tt := range []struct {
		ids    []string
		cands  []string
		strict float64
		short  bool
	}{
		{[]string{"0", "2", "4", "6", "8", "10", "12"}, cands, 1, false}, // all 7 there are
		{[]string{"0", "2"}, cands, 2.0 / 7, true},                       // 2 of the 7 possible
		{[]string{"0", "1", "2", "3"}, cands, 2.0 / 7, true},             // 2 listed of 7 possible
		{[]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, cands, 0.5, false},
		{[]string{"0", "2"}, cands[:6], 2.0 / 3, true}, // 3 possible
		{[]string{"1", "3"}, cands[:6], 0, true},
		{[]string{"1"}, []string{"1", "3"}, 0, false}, // none possible: out of the list's length
		{nil, []string{"1"}, 0, false},
	} {
		s, short := Strict(tt.ids, tt.cands, items, &comedy)
		if s != tt.strict || short != tt.short {
			t.Errorf("Strict(%v, %d candidates) = %v, %v; want %v, %v", tt.ids, len(tt.cands), s, short, tt.strict, tt.short)
		}
	}
	// With 14 candidates of which 10 or more meet, the list is out of 10.
	var drama Gold
	json.Unmarshal([]byte(`{"genre": "drama"}`), &drama)
	if s, short := Strict([]string{"0", "1", "2", "3", "4"}, cands, items, &drama); s != 0.5 || !short {
		t.Errorf("5 of 10 possible: %v, %v", s, short)
	}
}

// scripted is an engine.Caller that plays an interpreter by script, so that
// the evaluation's arithmetic is checked apart from pkg/intent: rank keeps
// the candidates script says for an instruction (the candidates' order is
// the ranking) and adds its notes; without an instruction it keeps them all.
type scripted struct {
	script map[string]func(id string) bool
	notes  map[string][]string
	calls  []string
}

func (s *scripted) Call(export string, input []byte) ([]byte, error) {
	s.calls = append(s.calls, export)
	if export != "rank" {
		return []byte(`{}`), nil
	}
	var in engine.RankInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	out := engine.RankOutput{Ranking: nil}
	keep := func(string) bool { return true }
	if in.Instruction != nil {
		if f, ok := s.script[*in.Instruction]; ok {
			keep = f
		}
	}
	kept := 0
	for _, c := range in.Candidates {
		if keep(c.ID) {
			kept++
			if len(out.Ranking) < in.K {
				out.Ranking = append(out.Ranking, rank.Ranked{ID: c.ID, Rank: len(out.Ranking) + 1})
			}
		}
	}
	if in.Instruction != nil {
		out.Kept = &kept
		out.Understood = &intent.Intent{Notes: s.notes[*in.Instruction]}
	}
	return json.Marshal(out)
}

// TestEvaluateAsset runs scripted cases on the films asset, every item a
// candidate (Candidates ≥ 6; the pool is then the catalog, the most popular
// first: 1 2 3 4 5 6). By hand, per case and user (the against user likes
// History 1 item: the most popular that breaks the case):
//
//	comedies: script keeps genre exactly "Comedy" (3): 1 of the 3 comedies
//	  new: list [3], p10 1, strict 1/3 (3 possible), short; baseline 1 2 3 4 5 6: 3/6
//	  against (likes 2): list [3], p10 1, strict 1/3, short; baseline 1 3 4 5 6: 3/5
//	seventies: script keeps all (the year not understood)
//	  new: 1 2 3 4 5 6 → 2 5 6 meet: p10 0.5, strict 0.5; baseline 0.5
//	  against (likes 1): 2 3 4 5 6 → 3/5 both; baseline 3/5
//	cheap (unconstrained, alone): script keeps all and says "no prices"
//	  both users (every item meets it: no history): p10 1, strict 1;
//	  baseline 0 (a plain list says nothing)
//	bargain (unconstrained, alone): script keeps all, says nothing: 0 throughout
//	cheap comedy (comedy + unconstrained): script keeps the comedies 1 3 5
//	  and says "no PRICES" (a note need not be in lower case)
//	  new: list 1 3 5 → p10 1, strict 1 (3 possible); baseline 0
//	  against (likes 2): 1 3 5 → 1, 1; baseline 0
func TestEvaluateAsset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "films.json")
	if err := os.WriteFile(path, []byte(films), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := ReadCatalogFile(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	comedy := map[string]bool{"1": true, "3": true, "5": true}
	x := &scripted{
		script: map[string]func(string) bool{
			"comedies":     func(id string) bool { return id == "3" },
			"cheap comedy": func(id string) bool { return comedy[id] },
		},
		notes: map[string][]string{"cheap": {"this catalog has no prices"}, "cheap comedy": {"This catalog has no PRICES."}},
	}
	var cases []Case
	for _, line := range []string{
		`{"id":"c1","kind":"genre","instruction":"comedies","gold":{"genre":"comedy"},"split":"dev"}`,
		`{"id":"c2","kind":"decade","instruction":"seventies","gold":{"year":{"min":1970,"max":1979}},"split":"heldout"}`,
		`{"id":"c3","kind":"price","instruction":"cheap","gold":{"unconstrained":"price"},"split":"dev"}`,
		`{"id":"c4","kind":"price","instruction":"bargain","gold":{"unconstrained":"price"},"split":"heldout"}`,
		`{"id":"c5","kind":"combined","instruction":"cheap comedy","gold":{"all":[{"genre":"comedy"},{"unconstrained":"price"}]},"split":"dev"}`,
	} {
		var c Case
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	rep, err := Evaluate(x, cat, cases, Options{History: 1, Candidates: 10, Failures: true})
	if err != nil {
		t.Fatal(err)
	}
	type fig struct{ p10, strict, base float64 }
	for _, tt := range []struct {
		kind string
		want fig
	}{
		{"genre", fig{1, 0.3333, 0.55}},   // base (3/6 + 3/5) / 2
		{"decade", fig{0.55, 0.55, 0.55}}, // (1/2 + 3/5) / 2
		{"price", fig{0.5, 0.5, 0}},       // cheap 1, bargain 0
		{"combined", fig{1, 1, 0}},        //
	} {
		s := rep.ByKind[tt.kind]
		if got := (fig{s.P10, s.P10Strict, s.BaselineP10}); got != tt.want {
			t.Errorf("by_kind.%s: %+v, want %+v", tt.kind, got, tt.want)
		}
	}
	if s := rep.ByKind["genre"]; s.Short != 2 || s.Dev == nil || s.HeldOut != nil {
		t.Errorf("by_kind.genre: %+v", s)
	}
	if s := rep.ByKind["price"]; s.Dev == nil || s.HeldOut == nil || s.Dev.P10 != 1 || s.HeldOut.P10 != 0 {
		t.Errorf("by_kind.price: dev %+v, heldout %+v", s.Dev, s.HeldOut)
	}
	// p10 (1+1 + 0.5+0.6 + 1+1 + 0+0 + 1+1) / 10; strict (1/3+1/3 + 0.5+0.6 + 2 + 0 + 2) / 10.
	if rep.P10 != 0.71 || rep.P10Strict != 0.5767 || rep.Candidates != 6 || !strings.Contains(rep.Pool, "drawn per case") {
		t.Errorf("p10 %v, strict %v, candidates %d, pool %q", rep.P10, rep.P10Strict, rep.Candidates, rep.Pool)
	}
	// Failures: the short comedies lists (p10 1 but short) and nothing held out.
	var fails []string
	for _, f := range rep.Failures {
		fails = append(fails, f.ID+"/"+f.User+":"+strings.Join(f.Violating, "|"))
	}
	if want := []string{"c1/new:", "c1/against:"}; !slices.Equal(fails, want) {
		t.Errorf("failures %q, want %q", fails, want)
	}
	// Per case: reset, rank twice for the new user; reset, record,
	// maintain, rank twice for the against user (the unconstrained ones
	// break nothing: no history, no record).
	if n := strings.Count(strings.Join(x.calls, " "), "rank"); n != 20 {
		t.Errorf("%d rank calls, want 20", n)
	}
}
