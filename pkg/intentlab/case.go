package intentlab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Kinds are the kinds of instruction cases, in the order recmem eval
// instructions reports them.
var Kinds = []string{"negation", "only", "positive", "combined", "knowledge"}

// Case is one typed instruction with its gold predicate over item metadata
// (testdata/instructions/*.jsonl, one case a line).
type Case struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Instruction string `json:"instruction"`
	Gold        *Gold  `json:"gold"`
	Comment     string `json:"comment,omitempty"`
}

// Gold is a predicate over one item's metadata (field -> value):
//
//	{"all": [P, ...]}  every P holds      {"any": [P, ...]}  some P holds
//	{"not": P}         P does not hold
//	{"title": "halo"}  the title holds the words "halo" (lower case, words
//	                   split on anything but letters and digits)
//	{"title": ["forza", "gran turismo"]}  the title holds one of them
//	{"platform": "Xbox 360"} (or any other field): the field is one of the
//	                   values, ignoring case
//
// It is written by hand for each case, independently of the interpreter's
// normalization (no plural or numeral rules), so that it judges it.
type Gold struct {
	All    []*Gold             `json:"all,omitempty"`
	Any    []*Gold             `json:"any,omitempty"`
	Not    *Gold               `json:"not,omitempty"`
	Fields map[string][]string `json:"-"`
}

// UnmarshalJSON reads a predicate; a field's value is a string or a list.
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
		case "all":
			return json.Unmarshal(v, &g.All)
		case "any":
			return json.Unmarshal(v, &g.Any)
		case "not":
			g.Not = &Gold{}
			return json.Unmarshal(v, g.Not)
		}
		var one string
		var many []string
		if json.Unmarshal(v, &one) == nil {
			many = []string{one}
		} else if err := json.Unmarshal(v, &many); err != nil || len(many) == 0 {
			return fmt.Errorf("gold.%s: want a string or a list of strings", k)
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

// Holds evaluates the predicate on an item's metadata.
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
	}
	for field, vs := range g.Fields {
		if field == "title" {
			t := goldWords(item["title"])
			return slices.ContainsFunc(vs, func(v string) bool { return strings.Contains(t, goldWords(v)) })
		}
		return slices.ContainsFunc(vs, func(v string) bool { return strings.EqualFold(item[field], v) })
	}
	return false
}

// ReadCases reads a JSON-lines file of cases, refusing a case without id,
// kind, instruction or gold, an unknown kind or a repeated id. O(len(b)).
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

// ReadCaseDir reads every *.jsonl file of dir in name order (ReadCases),
// refusing an id that two files share. O(total bytes).
func ReadCaseDir(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.jsonl cases in %s", dir)
	}
	sort.Strings(paths)
	var out []Case
	seen := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		cs, err := ReadCases(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, c := range cs {
			if f, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("%s: id %q already in %s", p, c.ID, f)
			}
			seen[c.ID] = p
		}
		out = append(out, cs...)
	}
	return out, nil
}
