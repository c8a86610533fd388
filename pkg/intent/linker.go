package intent

import (
	"github.com/recmem/recmem/pkg/text"
	"hash/fnv"
	"slices"
	"strings"
)

// Entity is one value of one facet of the catalog ("platform" "PlayStation 4"),
// or a phrase of titles (facet "title").
type Entity struct {
	Facet string `json:"facet"`
	Value string `json:"value"`
}

// maxTitleGram is the longest title phrase the linker grounds a word run in.
const maxTitleGram = 4

// Linker grounds an instruction's words in one catalog: every value of every
// metadata facet but the title, the table's aliases, and the phrases of the
// titles. It is built once per catalog (NewLinker) and is read-only
// afterwards, so safe for concurrent use.
type Linker struct {
	table  Table
	filler map[string]bool
	// implies maps a filler word to the facet value it suggests
	// (Table.Implies), kept only when the catalog has that value.
	implies   map[string]Entity
	titleFace map[string]bool
	// phrases maps a normalized phrase (a facet value or an alias) to the
	// entities it names, in catalog order.
	phrases   map[string][]Entity
	maxPhrase int
	// grams holds the FNV-64 hashes of every title phrase of 1 to
	// maxTitleGram words.
	grams map[uint64]struct{}
	// facets counts the values of each facet, so that an alias of a facet
	// the catalog lacks becomes a title phrase.
	facets map[string]int
	titles int // index of the title facet, -1 when there is none
	names  []string
	items  []Item
	// Common reports whether a normalized word is a common English word
	// (the ranker uses the word-vector table's frequency rank): after a
	// possessive ("for my son") such a word is not read as a title word.
	// Nil: no word is common. Set it before use.
	Common func(word string) bool
}

// Item is one item as the linker matches it: its normalized title (padded
// with spaces, so that a phrase match is a substring test) and each facet's
// normalized values.
type Item struct {
	title  string
	facets map[string][]string
}

// NewLinker prepares the catalog's vocabulary: names are the metadata
// columns, meta each item's values in that order (the "title" column is read
// as titles), t the domain table (nil for none). O(items · metadata length).
func NewLinker(names []string, meta [][]string, t *Table) *Linker {
	l := &Linker{filler: map[string]bool{}, titleFace: map[string]bool{}, phrases: map[string][]Entity{},
		grams: map[uint64]struct{}{}, facets: map[string]int{}, titles: -1, names: names}
	if t != nil {
		l.table = *t
	}
	for _, f := range l.table.Filler {
		l.filler[text.Key(f)] = true
	}
	for _, f := range l.table.TitleFacets {
		l.titleFace[f] = true
	}
	for k, n := range names {
		if n == "title" {
			l.titles = k
		}
	}
	// Aliases come before the values: the domain's table says what a word
	// means ("Nintendo" is the platforms, not a series read from "Nintendo
	// Selects" titles).
	for _, facet := range sortedKeys(l.table.Aliases) {
		m := l.table.Aliases[facet]
		for _, alias := range sortedKeys(m) {
			k := text.Key(alias)
			for _, v := range m[alias] {
				l.addPhrase(k, Entity{Facet: facet, Value: v})
			}
		}
	}
	l.items = make([]Item, len(meta))
	for i, m := range meta {
		l.items[i] = l.item(m, nil)
		l.addValues(names, m)
		if l.titles >= 0 && l.titles < len(m) {
			l.addGrams(text.AnalyzedWords(m[l.titles]))
		}
	}
	l.keepImplies()
	return l
}

// keepImplies keeps the table's implied values the catalog has, each word
// a filler word too (it carries no constraint of its own).
func (l *Linker) keepImplies() {
	for _, w := range sortedKeys(l.table.Implies) {
		e := l.table.Implies[w]
		e.Value = strings.TrimSpace(e.Value)
		for _, have := range l.phrases[text.Key(e.Value)] {
			if have == e && l.facets[e.Facet] > 0 {
				if l.implies == nil {
					l.implies = map[string]Entity{}
				}
				l.implies[text.Key(w)] = e
				l.filler[text.Key(w)] = true
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func (l *Linker) addValues(names []string, m []string) {
	for k, v := range m {
		if k >= len(names) || k == l.titles || v == "" {
			continue
		}
		key := text.Key(v)
		if key == "" {
			continue
		}
		l.facets[names[k]]++
		l.addPhrase(key, Entity{Facet: names[k], Value: v})
	}
}

func (l *Linker) addPhrase(key string, e Entity) {
	if key == "" || slices.Contains(l.phrases[key], e) {
		return
	}
	l.phrases[key] = append(l.phrases[key], e)
	l.maxPhrase = max(l.maxPhrase, strings.Count(key, " ")+1)
}

func gramHash(ws []string) uint64 {
	h := fnv.New64a()
	for i, w := range ws {
		if i > 0 {
			h.Write([]byte{' '})
		}
		h.Write([]byte(w))
	}
	return h.Sum64()
}

func (l *Linker) addGrams(ws []string) {
	for i := range ws {
		for n := 1; n <= maxTitleGram && i+n <= len(ws); n++ {
			l.grams[gramHash(ws[i:i+n])] = struct{}{}
		}
	}
}

// item prepares one item's metadata for matching; extra adds values given
// with a request (a candidate's own meta).
func (l *Linker) item(m []string, extra map[string][]string) Item {
	it := Item{facets: map[string][]string{}}
	var title []string
	for k, v := range m {
		if k >= len(l.names) || v == "" {
			continue
		}
		if k == l.titles {
			title = append(title, v)
			continue
		}
		it.facets[l.names[k]] = append(it.facets[l.names[k]], text.Key(v))
	}
	for _, f := range sortedKeys(extra) {
		for _, v := range extra[f] {
			if f == "title" {
				title = append(title, v)
			} else {
				it.facets[f] = append(it.facets[f], text.Key(v))
			}
		}
	}
	it.title = " " + text.Key(strings.Join(title, " . ")) + " "
	return it
}

// CatalogItem returns catalog item i prepared for matching. O(1).
func (l *Linker) CatalogItem(i int) *Item { return &l.items[i] }

// ItemWith is catalog item i (or no item, when i < 0) with a request's extra
// metadata added. O(metadata length).
func (l *Linker) ItemWith(i int, extra map[string][]string) Item {
	if i < 0 {
		return l.item(nil, extra)
	}
	it := l.items[i]
	if len(extra) == 0 {
		return it
	}
	// Rebuild from the catalog's values plus the extra ones.
	out := Item{facets: map[string][]string{}, title: it.title}
	for f, vs := range it.facets {
		out.facets[f] = slices.Clone(vs)
	}
	for _, f := range sortedKeys(extra) {
		for _, v := range extra[f] {
			if f == "title" {
				out.title += text.Key(v) + " "
			} else {
				out.facets[f] = append(out.facets[f], text.Key(v))
			}
		}
	}
	return out
}

// Extra is the vocabulary a request adds: the facet values of its
// candidates' own metadata, so that a catalog of titles alone can still be
// constrained by the platform a request gives with each candidate.
type Extra struct {
	phrases map[string][]Entity
	facets  map[string]int
	grams   map[uint64]struct{}
	max     int
}

// NewExtra collects the values of the candidates' metadata. O(size).
func NewExtra(metas []map[string][]string) *Extra {
	x := &Extra{phrases: map[string][]Entity{}, facets: map[string]int{}, grams: map[uint64]struct{}{}}
	for _, m := range metas {
		for _, f := range sortedKeys(m) {
			for _, v := range m[f] {
				key := text.Key(v)
				if key == "" {
					continue
				}
				if f == "title" {
					ws := strings.Fields(key)
					for i := range ws {
						for n := 1; n <= maxTitleGram && i+n <= len(ws); n++ {
							x.grams[gramHash(ws[i:i+n])] = struct{}{}
						}
					}
					continue
				}
				e := Entity{Facet: f, Value: v}
				if !slices.Contains(x.phrases[key], e) {
					x.phrases[key] = append(x.phrases[key], e)
					x.facets[f]++
					x.max = max(x.max, strings.Count(key, " ")+1)
				}
			}
		}
	}
	return x
}

// lookup returns the entities a normalized phrase names: the catalog's and
// the request's values and the aliases. An alias of a facet that neither the
// catalog nor the request has names the value as a title phrase.
func (l *Linker) lookup(key string, x *Extra) []Entity {
	var out []Entity
	add := func(es []Entity) {
		for _, e := range es {
			if l.facets[e.Facet] == 0 && (x == nil || x.facets[e.Facet] == 0) {
				e = Entity{Facet: "title", Value: e.Value}
			}
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	add(l.phrases[key])
	if x != nil {
		add(x.phrases[key])
	}
	return out
}

// inTitles reports whether the normalized words ws occur as a phrase in some
// title.
func (l *Linker) inTitles(ws []string, x *Extra) bool {
	h := gramHash(ws)
	if _, ok := l.grams[h]; ok {
		return true
	}
	if x != nil {
		_, ok := x.grams[h]
		return ok
	}
	return false
}

// Meets reports whether item it meets clause c: one of its values of c's
// facet is c's value, or, for the title and the table's title facets, its
// title holds c's value as a phrase. O(values + title length).
func (l *Linker) Meets(c Clause, it *Item) bool {
	key := c.key
	if key == "" {
		key = text.Key(c.Value)
	}
	if c.Facet != "title" {
		if slices.Contains(it.facets[c.Facet], key) {
			return true
		}
		if !l.titleFace[c.Facet] {
			return false
		}
	}
	return strings.Contains(it.title, " "+key+" ")
}
