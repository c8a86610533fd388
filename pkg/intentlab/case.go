package intentlab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/recmem/recmem/pkg/rec"
)

// Kinds are the kinds of instruction cases, in the order recmem eval
// instructions reports them: the games page's first five, then those of the
// cases written for any catalog (testdata/instructions/<catalog>/).
var Kinds = []string{"negation", "only", "positive", "combined", "knowledge",
	"genre", "genres", "genre_exclude", "year", "decade", "comparison",
	"synonym", "audience", "hardware", "typo", "language", "price"}

// Splits a case may name: "dev" (tuned on) or "heldout" (set aside, never
// tuned on); a case that names none is held out when rec.HeldOut(id).
var Splits = []string{"dev", "heldout"}

// Case is one typed instruction with its gold predicate over item metadata
// (testdata/instructions/*.jsonl, one case a line).
type Case struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Instruction string `json:"instruction"`
	Gold        *Gold  `json:"gold"`
	Comment     string `json:"comment,omitempty"`
	// Split is "dev", "heldout" or "" (then FNV-1a of the id decides,
	// rec.HeldOut). A file named dev.jsonl or heldout.jsonl gives its cases
	// its name (ReadCaseFile).
	Split string `json:"split,omitempty"`
}

// HeldOut says whether c is in the held-out split.
func (c Case) HeldOut() bool {
	if c.Split != "" {
		return c.Split == "heldout"
	}
	return rec.HeldOut(c.ID)
}

// Gold is a predicate over one item's metadata (field -> value):
//
//	{"all": [P, ...]}  every P holds      {"any": [P, ...]}  some P holds
//	{"not": P}         P does not hold
//	{"title": "halo"}  the title holds the words "halo" (lower case, words
//	                   split on anything but letters and digits)
//	{"title": ["forza", "gran turismo"]}  the title holds one of them
//	{"platform": "Xbox 360"} (or any other field): one of the field's values
//	                   is one of these, ignoring case
//	{"year": {"min": 1970, "max": 1979}}  one of the field's values is a
//	                   number in the range, both ends included; either end
//	                   may be left out
//	{"unconstrained": "price"}  the request names something the catalog
//	                   cannot judge (here a price): every item meets it, but
//	                   a list does only when the output says so (see Evaluate)
//
// A field other than the title may hold several values: a list joined with
// "|" (how pkg/dataset keeps a RecBole token_seq list, "Action|Comedy") or a
// JSON array (joined so when the catalog is read). The predicate treats them
// as a set: {"genre": "comedy"} holds for "Action|Comedy". A number may carry
// a currency sign and thousands separators ("$1,299.99").
//
// It is written by hand for each case, independently of the interpreter's
// normalization (no plural, numeral, synonym or typo rules), so that it judges
// it.
type Gold struct {
	All    []*Gold             `json:"all,omitempty"`
	Any    []*Gold             `json:"any,omitempty"`
	Not    *Gold               `json:"not,omitempty"`
	Fields map[string][]string `json:"-"`
	// Range is a numeric field's range ({"year": {"min": 1970}}).
	Range *Range `json:"-"`
	// Unconstrained names what the catalog cannot judge ("price").
	Unconstrained string `json:"-"`
}

// Range is an inclusive range over a numeric field; a nil end is open.
type Range struct {
	Field    string
	Min, Max *float64
}

// UnmarshalJSON reads a predicate; a field's value is a string, a list of
// strings or a range {"min": x, "max": y}. A range with neither end or
// upside down is refused.
func (g *Gold) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 1 {
		return fmt.Errorf("gold: want exactly one key, got %d", len(raw))
	}
	for k, v := range raw {
		switch k {
		case "all", "any":
			var ps []*Gold
			if err := json.Unmarshal(v, &ps); err != nil {
				return err
			}
			if len(ps) == 0 || slices.Contains(ps, nil) {
				return fmt.Errorf("gold.%s: want a list of predicates", k)
			}
			if k == "all" {
				g.All = ps
			} else {
				g.Any = ps
			}
			return nil
		case "not":
			g.Not = &Gold{}
			return json.Unmarshal(v, g.Not)
		case "unconstrained":
			if json.Unmarshal(v, &g.Unconstrained) != nil || strings.TrimSpace(g.Unconstrained) == "" {
				return errors.New("gold.unconstrained: want the word the output must use (\"price\")")
			}
			return nil
		}
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '{' {
			var r struct {
				Min *float64 `json:"min"`
				Max *float64 `json:"max"`
			}
			dec := json.NewDecoder(bytes.NewReader(t))
			dec.DisallowUnknownFields()
			switch err := dec.Decode(&r); {
			case err != nil:
				return fmt.Errorf("gold.%s: want {\"min\": x, \"max\": y}: %w", k, err)
			case r.Min == nil && r.Max == nil:
				return fmt.Errorf("gold.%s: a range needs min, max or both", k)
			case r.Min != nil && r.Max != nil && *r.Min > *r.Max:
				return fmt.Errorf("gold.%s: min %v is above max %v", k, *r.Min, *r.Max)
			}
			g.Range = &Range{Field: k, Min: r.Min, Max: r.Max}
			return nil
		}
		var one string
		var many []string
		if json.Unmarshal(v, &one) == nil {
			many = []string{one}
		} else if err := json.Unmarshal(v, &many); err != nil || len(many) == 0 {
			return fmt.Errorf("gold.%s: want a string, a list of strings or a range", k)
		}
		g.Fields = map[string][]string{k: many}
	}
	return nil
}

// goldWords lower-cases s and splits it on anything but letters and digits,
// padded with spaces for whole-word matching.
func goldWords(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return " " + strings.Join(f, " ") + " "
}

// Values are the elements of a field's value: split on "|", each trimmed,
// empty ones left out. O(len(v)).
func Values(v string) []string {
	var out []string
	for _, e := range strings.Split(v, "|") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// Number reads a value as a number, allowing a leading currency sign and
// thousands separators ("$1,299.99" is 1299.99). ok is false otherwise.
func Number(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	v = strings.TrimLeft(v, "$€£¥")
	v = strings.ReplaceAll(strings.TrimSpace(v), ",", "")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Holds evaluates the predicate on an item's metadata. O(size of g × the
// values it reads).
func (g *Gold) Holds(item map[string]string) bool {
	switch {
	case g.All != nil:
		for _, p := range g.All {
			if !p.Holds(item) {
				return false
			}
		}
		return true
	case g.Any != nil:
		for _, p := range g.Any {
			if p.Holds(item) {
				return true
			}
		}
		return false
	case g.Not != nil:
		return !g.Not.Holds(item)
	case g.Unconstrained != "":
		return true
	case g.Range != nil:
		for _, e := range Values(item[g.Range.Field]) {
			x, ok := Number(e)
			if ok && (g.Range.Min == nil || x >= *g.Range.Min) && (g.Range.Max == nil || x <= *g.Range.Max) {
				return true
			}
		}
		return false
	}
	for field, vs := range g.Fields {
		if field == "title" {
			t := goldWords(item["title"])
			return slices.ContainsFunc(vs, func(v string) bool { return strings.Contains(t, goldWords(v)) })
		}
		have := append(Values(item[field]), strings.TrimSpace(item[field]))
		return slices.ContainsFunc(vs, func(v string) bool {
			return slices.ContainsFunc(have, func(h string) bool { return h != "" && strings.EqualFold(h, strings.TrimSpace(v)) })
		})
	}
	return false
}

// UnconstrainedWords lists the words of the predicate's "unconstrained" parts,
// in order, and whether the predicate is nothing else (alone): such a case
// expects the instruction to filter nothing at all.
func (g *Gold) UnconstrainedWords() (words []string, alone bool) {
	var walk func(p *Gold)
	walk = func(p *Gold) {
		switch {
		case p.Unconstrained != "":
			words = append(words, p.Unconstrained)
		case p.Not != nil:
			walk(p.Not)
		}
		for _, q := range append(slices.Clip(p.All), p.Any...) {
			walk(q)
		}
	}
	walk(g)
	return words, g.Unconstrained != ""
}

// ReadCases reads a JSON-lines file of cases, refusing a case without id,
// kind, instruction or gold, an unknown kind or split, or a repeated id.
// O(len(b)).
func ReadCases(b []byte) ([]Case, error) {
	var out []Case
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		t := bytes.TrimSpace(sc.Bytes())
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch {
		case c.ID == "" || c.Instruction == "" || c.Gold == nil:
			return nil, fmt.Errorf("line %d: id, instruction and gold are required", line)
		case !slices.Contains(Kinds, c.Kind):
			return nil, fmt.Errorf("line %d: kind: %q is not one of %s", line, c.Kind, strings.Join(Kinds, ", "))
		case c.Split != "" && !slices.Contains(Splits, c.Split):
			return nil, fmt.Errorf("line %d: split: %q is not dev or heldout", line, c.Split)
		case seen[c.ID]:
			return nil, fmt.Errorf("line %d: id %q repeated", line, c.ID)
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no cases")
	}
	return out, nil
}

// fileSplit is the split a case file's name gives its cases: "dev" for
// dev.jsonl, "heldout" for heldout.jsonl, "" for any other name.
func fileSplit(path string) string {
	switch filepath.Base(path) {
	case "dev.jsonl":
		return "dev"
	case "heldout.jsonl":
		return "heldout"
	}
	return ""
}

// ReadCaseFile reads one file of cases (ReadCases). A file named dev.jsonl
// or heldout.jsonl puts its cases in that split, and refuses a case that
// names the other. O(file size).
func ReadCaseFile(path string) ([]Case, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cs, err := ReadCases(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s := fileSplit(path); s != "" {
		for i := range cs {
			if cs[i].Split != "" && cs[i].Split != s {
				return nil, fmt.Errorf("%s: case %q: split %q in a %s file", path, cs[i].ID, cs[i].Split, s)
			}
			cs[i].Split = s
		}
	}
	return cs, nil
}

// ReadCaseDir reads every *.jsonl file of dir in name order (ReadCaseFile),
// refusing an id that two files share. O(total bytes).
func ReadCaseDir(dir string) ([]Case, error) { return ReadCasePath(dir, "all") }

// ReadCasePath reads the cases of path, a file (ReadCaseFile) or a directory
// (its *.jsonl files in name order, not its subdirectories). With split
// "dev" a file named heldout.jsonl is never opened, and with "heldout" one
// named dev.jsonl, so a run of one split does not read the other's words;
// the cases of other files are all returned (Evaluate keeps the split's).
// O(total bytes).
func ReadCasePath(path, split string) ([]Case, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	paths := []string{path}
	if st.IsDir() {
		if paths, err = filepath.Glob(filepath.Join(path, "*.jsonl")); err != nil {
			return nil, err
		}
		if len(paths) == 0 {
			return nil, fmt.Errorf("no *.jsonl cases in %s", path)
		}
		sort.Strings(paths)
	}
	var out []Case
	seen := map[string]string{}
	for _, p := range paths {
		if s := fileSplit(p); s != "" && split != "" && split != "all" && s != split {
			continue
		}
		cs, err := ReadCaseFile(p)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if f, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%s: id %q already in %s", p, c.ID, f)
			}
			seen[c.ID] = p
		}
		out = append(out, cs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no cases of the %s split", path, split)
	}
	return out, nil
}
