package intent

import (
	"slices"
	"strings"
	"sync"

	"github.com/recmem/recmem/pkg/text"
)

// Entity is one value of one facet of the catalog ("platform" "PlayStation 4"),
// or a phrase of titles (facet "title").
type Entity struct {
	Facet string `json:"facet"`
	Value string `json:"value"`
	// How is how a phrase names it (HowExact for the value itself,
	// HowAlias for the table's alias, HowSynonym for the lexicon's
	// everyday word).
	How string `json:"-"`
}

// How a clause was grounded, as Clause.How says it.
const (
	HowExact    = "exact"    // the catalog's own value or title words, as typed (after normalization)
	HowAlias    = "alias"    // the domain table's alias ("PS4" → PlayStation 4)
	HowSynonym  = "synonym"  // an everyday word (the lexicon) or a near word (word vectors): "spooky" → Horror
	HowTypo     = "typo"     // a word one or two letters away from the catalog's ("metriod" → Metroid)
	HowInferred = "inferred" // a value the catalog infers from its data rather than gives (an inferred facet)
	HowNumber   = "number"   // a number, range or decade compared with a number facet ("before 1970")
	HowImplied  = "implied"  // implied by a kind word ("PS2 games" → kind game)
	HowPartial  = "partial"  // the last word of a many-word value ("Tolkien" → J.R.R. Tolkien)
	// HowLLM: words the interpreter left unknown, read by the host's
	// language model as a catalog value or a range (pkg/llm's parse
	// step; refine.go holds it to what the interpreter would add).
	HowLLM = "llm"
)

// Column types (as pkg/catalog types its facets).
const (
	ColText   = "text"
	ColList   = "list"
	ColNumber = "number"
)

// listSep separates a list column's values (catalog.ListSep).
const listSep = "|"

// Column describes one metadata column for the linker: its name, its type
// (ColText, ColList or ColNumber), a number's unit and range, and whether its
// values are inferred.
type Column struct {
	Name     string
	Type     string
	Unit     string
	Inferred bool
	Min, Max float64
}

// maxTitleGram is the longest title phrase the linker grounds a word run in.
const maxTitleGram = 4

// Linker grounds an instruction's words in one catalog: every value of every
// metadata facet but the title (each element of a list facet apart), the
// table's aliases, the lexicon's everyday words for the values the catalog
// has, the phrases of the titles, and the number facets' units. It is built
// once per catalog (NewLinker, NewLinkerColumns) and is read-only afterwards
// but for caches built under a lock on first use, so safe for concurrent use.
type Linker struct {
	table  Table
	filler map[string]bool
	// implies maps a filler word to the facet value it suggests
	// (Table.Implies), kept only when the catalog has that value; byDefault
	// is Table.ImpliesDefault when the catalog has it.
	implies   map[string]Entity
	byDefault *Entity
	// titleImplies are Table.ImpliesTitles whose value the catalog has,
	// keyed by the normalized word or phrase, the longest first (a phrase
	// such as "memory card" is matched whole).
	titleImplies []titleImply
	titleFace    map[string]bool
	// phrases maps a normalized phrase (a facet value, an alias or an
	// everyday word) to the entities it names, in catalog order.
	phrases   map[string][]Entity
	maxPhrase int
	// titleIx is the index of the titles' phrases, built at the first word
	// that needs it (titles).
	titleOnce sync.Once
	titleIx   titleIndex
	// phraseWords are the words of the phrases' keys.
	phraseWords map[string]bool
	// facets counts the values of each facet, so that an alias of a facet
	// the catalog lacks becomes a title phrase.
	facets   map[string]int
	titleCol int // index of the title facet, -1 when there is none
	// keys caches text.Key of the metadata values, filled while the
	// linker is built and read-only afterwards (building).
	keys     map[string]string
	building bool
	cols     []Column
	colOf    map[string]int
	// meta are the catalog's metadata rows; an item's Item is built from
	// its row at its first use (catalogItem), under itemMu, so that a
	// request prepares its candidates, not the whole catalog.
	meta   [][]string
	itemMu sync.Mutex
	items  []*Item
	// numNames maps a word of the name or declared unit of a number facet
	// whose unit the interpreter does not know ("pages", "num_players",
	// "parsecs") to that facet, so that "under 300 pages" is read in it (""
	// when two facets share the word).
	numNames map[string]string
	// medians caches each number facet's median (relative.go), under medMu.
	medMu   sync.Mutex
	medians map[string]float64
	// Common reports whether a normalized word is a common English word
	// (the ranker uses the word-vector table's frequency rank): after a
	// possessive ("for my son") such a word is not read as a title word,
	// and a typo is never corrected into or out of one. Nil: no word is
	// common. Set it before use.
	Common func(word string) bool
	// Known reports whether a normalized word is in the embedded
	// word-vector table (a real word, never corrected as a typo). Nil:
	// no word is. Set it before use.
	Known func(word string) bool
	// WordVec returns a known word's unit vector. Nil: no synonyms by
	// word vectors. Set it before use.
	WordVec func(word string) ([]float32, bool)
	// SynonymCos is the cosine above which a word is grounded in the facet
	// value nearest to it by word vectors (0: DefaultSynonymCos).
	SynonymCos float64

	lazy lazy
}

// Item is one item as the linker matches it: its normalized title (padded
// with spaces, so that a phrase match is a substring test), each facet's
// normalized values and each number facet's value.
type Item struct {
	title  string
	facets map[string][]string
	nums   map[string]float64
}

// NewLinker prepares a catalog whose columns are all text: names are the
// metadata columns, meta each item's values in that order (the "title"
// column is read as titles), t the domain table (nil for none).
// O(items · metadata length).
func NewLinker(names []string, meta [][]string, t *Table) *Linker {
	cols := make([]Column, len(names))
	for k, n := range names {
		cols[k] = Column{Name: n, Type: ColText}
	}
	return NewLinkerColumns(cols, meta, t)
}

// NewLinkerColumns prepares the catalog's vocabulary from typed columns: a
// list column's values are split on "|", a number column's parsed. It
// reads every facet value (each distinct one normalized once); the titles'
// phrases are indexed at the first word that needs them (titles) and each
// item's Item is built at its first use (catalogItem), so a first request
// prepares what its instruction and candidates read. O(items · metadata
// length).
func NewLinkerColumns(cols []Column, meta [][]string, t *Table) *Linker {
	l := &Linker{filler: map[string]bool{}, titleFace: map[string]bool{}, phrases: map[string][]Entity{},
		facets: map[string]int{}, titleCol: -1, cols: cols, colOf: map[string]int{}}
	if t != nil {
		l.table = *t
	}
	for _, f := range l.table.Filler {
		l.filler[text.Key(f)] = true
	}
	// The lexicon's kind words ("books", "films", "songs") are filler only
	// where the catalog does not name them itself (a kind facet whose value
	// is "Book"): lexFiller holds them until the values are read.
	lexFiller := map[string]bool{}
	for _, w := range lexicon.Filler {
		if k := text.Key(w); !l.filler[k] {
			lexFiller[k] = true
			l.filler[k] = true
		}
	}
	for _, f := range l.table.TitleFacets {
		l.titleFace[f] = true
	}
	for k, c := range cols {
		l.colOf[c.Name] = k
		if c.Name == "title" {
			l.titleCol = k
		}
		// The name of a facet says what is asked of, not what: "in the
		// mystery genre", "the Halo series".
		for _, w := range text.AnalyzedWords(c.Name) {
			l.filler[w] = true
			delete(lexFiller, w)
		}
		// A number facet of no unit the interpreter knows is named by the
		// words of its name and of its declared unit ("pages", "parsecs").
		if c.Type == ColNumber && (c.Unit == "" || unitNoun[c.Unit] == "") {
			for _, w := range text.AnalyzedWords(c.Name + " " + c.Unit) {
				if genericNameWords[w] || len(w) < 2 {
					continue
				}
				if l.numNames == nil {
					l.numNames = map[string]string{}
				}
				if prev, ok := l.numNames[w]; ok && prev != c.Name {
					l.numNames[w] = ""
				} else {
					l.numNames[w] = c.Name
				}
			}
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
				l.addPhrase(k, Entity{Facet: facet, Value: v, How: HowAlias})
			}
		}
	}
	l.meta, l.items = meta, make([]*Item, len(meta))
	l.keys, l.building = map[string]string{}, true // a value's key, computed once: values repeat across items
	seen := make([]map[string]int, len(cols))
	for _, m := range meta {
		l.addValues(m, seen)
	}
	l.building = false
	for k := range lexFiller {
		if l.named(k) {
			delete(l.filler, k)
		}
	}
	l.keepImplies()
	l.keepTitleImplies()
	l.addLexicon()
	l.addPartials()
	l.phraseWords = map[string]bool{}
	for k := range l.phrases {
		for _, w := range strings.Fields(k) {
			l.phraseWords[w] = true
		}
	}
	return l
}

// genericNameWords are the words of a number facet's name that say nothing
// of what it counts ("num_pages", "player_count").
var genericNameWords = map[string]bool{"num": true, "number": true, "count": true, "total": true, "min": true, "max": true,
	"avg": true, "mean": true, "of": true, "n": true, "nb": true, "qty": true, "amount": true}

// allStopwords reports whether every word of ws is a stop word.
func allStopwords(ws []string) bool {
	for _, w := range ws {
		if !stopwords[w] {
			return false
		}
	}
	return true
}

// namedNumber returns the number facet of no known unit a word names
// ("pages" → "pages"), "" for none.
func (l *Linker) namedNumber(w string) string { return l.numNames[w] }

// maxPartial is the most values one partial word may name ("Brontë":
// Charlotte and Emily Brontë); a word ending more values names none.
const maxPartial = 3

// addPartials lets the last word of a value of two words or more name it,
// as people say "Tolkien" for "J.R.R. Tolkien" or "Enix" for "Square Enix":
// a word of four letters or more, no number, stop word or filler, that names
// nothing by itself, in a facet given by the catalog (not a title facet, not
// an inferred one). lookup drops it when the word is a common word ("King",
// "Fiction"). O(phrases).
func (l *Linker) addPartials() {
	parts := map[string][]Entity{}
	for key, es := range l.phrases {
		ws := strings.Fields(key)
		if len(ws) < 2 {
			continue
		}
		w := ws[len(ws)-1]
		if len(w) < 4 || isNumber(w) || stopwords[w] || l.filler[w] || englishJoins[w] || vague[w] || len(l.phrases[w]) > 0 {
			continue
		}
		for _, e := range es {
			if e.How == HowExact && !l.titleFace[e.Facet] && l.facets[e.Facet] > 0 && !l.inferred(e.Facet) {
				parts[w] = append(parts[w], Entity{Facet: e.Facet, Value: e.Value, How: HowPartial})
			}
		}
	}
	for _, w := range sortedKeys(parts) {
		es := parts[w]
		if len(es) > maxPartial {
			continue
		}
		slices.SortFunc(es, func(a, b Entity) int {
			if c := l.colOf[a.Facet] - l.colOf[b.Facet]; c != 0 {
				return c
			}
			return strings.Compare(a.Value, b.Value)
		})
		for _, e := range es {
			l.addPhrase(w, e)
		}
	}
}

// keepImplies keeps the table's implied values the catalog has, each word
// a filler word too (it carries no constraint of its own).
func (l *Linker) keepImplies() {
	if e := l.table.ImpliesDefault; e != nil && l.facets[e.Facet] > 0 {
		for _, have := range l.phrases[text.Key(e.Value)] {
			if have.Facet == e.Facet && have.Value == e.Value {
				d := Entity{Facet: e.Facet, Value: e.Value, How: HowImplied}
				l.byDefault = &d
			}
		}
	}
	for _, w := range sortedKeys(l.table.Implies) {
		e := l.table.Implies[w]
		e.Value = strings.TrimSpace(e.Value)
		for _, have := range l.phrases[text.Key(e.Value)] {
			if have.Facet == e.Facet && have.Value == e.Value && l.facets[e.Facet] > 0 {
				if l.implies == nil {
					l.implies = map[string]Entity{}
				}
				e.How = HowImplied
				l.implies[text.Key(w)] = e
				l.filler[text.Key(w)] = true
			}
		}
	}
}

// titleImply is one of Linker.titleImplies.
type titleImply struct {
	key string
	Entity
}

// keepTitleImplies keeps the table's title words whose value the catalog
// has, normalized, the longest first.
func (l *Linker) keepTitleImplies() {
	for _, w := range sortedKeys(l.table.ImpliesTitles) {
		e := l.table.ImpliesTitles[w]
		if k := text.Key(w); k != "" && l.facets[e.Facet] > 0 {
			l.titleImplies = append(l.titleImplies, titleImply{key: k, Entity: e})
		}
	}
	slices.SortStableFunc(l.titleImplies, func(a, b titleImply) int {
		return strings.Count(b.key, " ") - strings.Count(a.key, " ")
	})
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// values splits a metadata value of column k into its values.
func (l *Linker) values(k int, v string) []string {
	if v == "" {
		return nil
	}
	if k < len(l.cols) && l.cols[k].Type == ColList {
		var out []string
		for _, e := range strings.Split(v, listSep) {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
		return out
	}
	return []string{v}
}

// key is text.Key(v), cached while the linker is built (the cache is only
// read afterwards).
func (l *Linker) key(v string) string {
	if k, ok := l.keys[v]; ok {
		return k
	}
	k := text.Key(v)
	if l.building {
		l.keys[v] = k
	}
	return k
}

// addValues adds an item's facet values to the phrases and counts them.
// seen[k] maps a raw value of column k already added to the number of
// values it counted: a value repeated across items ("Action|Comedy") is
// split and normalized once.
func (l *Linker) addValues(m []string, seen []map[string]int) {
	for k, v := range m {
		if k >= len(l.cols) || k == l.titleCol || v == "" || l.cols[k].Type == ColNumber {
			continue
		}
		name := l.cols[k].Name
		if n, ok := seen[k][v]; ok {
			l.facets[name] += n
			continue
		}
		n := 0
		for _, e := range l.values(k, v) {
			key := l.key(e)
			if key == "" {
				continue
			}
			n++
			l.addPhrase(key, Entity{Facet: name, Value: e, How: HowExact})
		}
		l.facets[name] += n
		if seen[k] == nil {
			seen[k] = map[string]int{}
		}
		seen[k][v] = n
	}
}

func (l *Linker) addPhrase(key string, e Entity) {
	if key == "" {
		return
	}
	for _, have := range l.phrases[key] {
		if have.Facet == e.Facet && have.Value == e.Value {
			return
		}
	}
	l.phrases[key] = append(l.phrases[key], e)
	l.maxPhrase = max(l.maxPhrase, strings.Count(key, " ")+1)
}

// FNV-1a 64 (hash/fnv's New64a), written out so that hashing a phrase
// allocates nothing.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// gramHash is the FNV-1a 64 hash of the words ws joined by spaces.
func gramHash(ws []string) uint64 {
	h := uint64(fnvOffset)
	for i, w := range ws {
		if i > 0 {
			h = (h ^ ' ') * fnvPrime
		}
		h = fnvAdd(h, w)
	}
	return h
}

// titleIndex is what the linker knows of the catalog's titles as a whole:
// each item's normalized title (padded, as Item.title) and the FNV-64
// hashes of every title phrase of 1 to maxTitleGram words (its words
// included: knowsWord), sorted and distinct: a flat slice builds several
// times faster than a map of them and takes half the memory; a lookup is a
// binary search.
type titleIndex struct {
	keys  []string
	grams []uint64
	// stops holds the titles made only of stop words ("It", "Up", "Her"):
	// such a title is a name only right after a negation or an "only", as
	// the whole rest of its clause ("anything but It").
	stops map[string]bool
}

// titles returns the titles' index, building it at the first call: only an
// instruction with a word that no facet value, alias or everyday word names
// needs it. O(catalog titles · log) the first time, O(1) after.
func (l *Linker) titles() *titleIndex {
	l.titleOnce.Do(func() {
		ix := &l.titleIx
		ix.keys = make([]string, len(l.meta))
		for i, m := range l.meta {
			ix.keys[i] = l.titleKey(m)
			if l.titleCol >= 0 && l.titleCol < len(m) {
				ws := strings.Fields(ix.keys[i])
				if len(ws) > 0 && len(ws) <= maxTitleGram && allStopwords(ws) {
					if ix.stops == nil {
						ix.stops = map[string]bool{}
					}
					ix.stops[strings.Join(ws, " ")] = true
				}
				for j := range ws {
					for n := 1; n <= maxTitleGram && j+n <= len(ws); n++ {
						ix.grams = append(ix.grams, gramHash(ws[j:j+n]))
					}
				}
			}
		}
		slices.Sort(ix.grams)
		ix.grams = slices.Clip(slices.Compact(ix.grams))
	})
	return &l.titleIx
}

// number reads a number as a number facet holds it.
func number(v string) (float64, bool) { return parseNumber(strings.TrimSpace(v)) }

// titleKey is an item's normalized title as its Item holds it.
func (l *Linker) titleKey(m []string) string {
	var title []string
	if l.titleCol >= 0 && l.titleCol < len(m) && m[l.titleCol] != "" {
		title = append(title, m[l.titleCol])
	}
	return " " + text.Key(strings.Join(title, " . ")) + " "
}

// catalogItem returns catalog item i prepared for matching, building it
// at its first use. O(its metadata length) the first time, O(1) after.
func (l *Linker) catalogItem(i int) *Item {
	l.itemMu.Lock()
	defer l.itemMu.Unlock()
	if l.items[i] == nil {
		it, _ := l.fields(l.meta[i])
		it.title = l.titleKey(l.meta[i])
		l.items[i] = &it
	}
	return l.items[i]
}

// item prepares one item's metadata for matching; extra adds values given
// with a request (a candidate's own meta).
func (l *Linker) item(m []string, extra map[string][]string) Item {
	it, title := l.fields(m)
	l.addExtra(&it, &title, extra)
	it.title = " " + text.Key(strings.Join(title, " . ")) + " "
	return it
}

// fields reads an item's metadata row: its facet values and numbers into
// an Item (without its title) and its title values apart.
func (l *Linker) fields(m []string) (Item, []string) {
	it := Item{facets: map[string][]string{}}
	var title []string
	for k, v := range m {
		if k >= len(l.cols) || v == "" {
			continue
		}
		c := l.cols[k]
		switch {
		case k == l.titleCol:
			title = append(title, v)
		case c.Type == ColNumber:
			if x, ok := number(v); ok {
				if it.nums == nil {
					it.nums = map[string]float64{}
				}
				it.nums[c.Name] = x
			}
		default:
			for _, e := range l.values(k, v) {
				it.facets[c.Name] = append(it.facets[c.Name], l.key(e))
			}
		}
	}
	return it, title
}

// addExtra adds a request's values of an item: a title, a number of a
// number column (or of a column whose name has a unit: "price"), or facet
// values.
func (l *Linker) addExtra(it *Item, title *[]string, extra map[string][]string) {
	for _, f := range sortedKeys(extra) {
		k, known := l.colOf[f]
		num := (known && l.cols[k].Type == ColNumber) || (!known && UnitOf(f) != "")
		for _, v := range extra[f] {
			if f == "title" {
				*title = append(*title, v)
				continue
			}
			if num {
				if x, ok := number(v); ok {
					if it.nums == nil {
						it.nums = map[string]float64{}
					}
					it.nums[f] = x
					continue
				}
			}
			it.facets[f] = append(it.facets[f], text.Key(v))
		}
	}
}

// CatalogItem returns catalog item i prepared for matching. O(its
// metadata length) the first time, O(1) after.
func (l *Linker) CatalogItem(i int) *Item { return l.catalogItem(i) }

// ItemWith is catalog item i (or no item, when i < 0) with a request's extra
// metadata added. O(metadata length).
func (l *Linker) ItemWith(i int, extra map[string][]string) Item {
	if i < 0 {
		return l.item(nil, extra)
	}
	it := *l.catalogItem(i)
	if len(extra) == 0 {
		return it
	}
	// Rebuild from the catalog's values plus the extra ones.
	out := Item{facets: map[string][]string{}}
	for f, vs := range it.facets {
		out.facets[f] = slices.Clone(vs)
	}
	if it.nums != nil {
		out.nums = map[string]float64{}
		for f, x := range it.nums {
			out.nums[f] = x
		}
	}
	var title []string
	l.addExtra(&out, &title, extra)
	out.title = it.title
	for _, v := range title {
		out.title += text.Key(v) + " "
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
	// units maps a unit to the request's number fields of that unit
	// ("price" → "price_usd").
	units map[string]string
}

// NewExtra collects the values of the candidates' metadata. O(size).
func NewExtra(metas []map[string][]string) *Extra {
	x := &Extra{phrases: map[string][]Entity{}, facets: map[string]int{}, grams: map[uint64]struct{}{}}
	for _, m := range metas {
		for _, f := range sortedKeys(m) {
			if u := UnitOf(f); u != "" && f != "title" {
				if _, ok := number(firstOf(m[f])); ok {
					if x.units == nil {
						x.units = map[string]string{}
					}
					if _, have := x.units[u]; !have {
						x.units[u] = f
					}
					continue
				}
			}
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
				e := Entity{Facet: f, Value: v, How: HowExact}
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

func firstOf(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// lookup returns the entities a normalized phrase names: the catalog's and
// the request's values, the aliases and the lexicon's words. An alias of a
// facet that neither the catalog nor the request has names the value as a
// title phrase.
func (l *Linker) lookup(key string, x *Extra) []Entity {
	var out []Entity
	add := func(es []Entity) {
		for _, e := range es {
			if e.How == HowPartial && l.Common != nil && l.Common(key) {
				continue // "King" is a word before it is Stephen King
			}
			if l.facets[e.Facet] == 0 && (x == nil || x.facets[e.Facet] == 0) {
				if e.How == HowSynonym {
					continue // an everyday word never names a title phrase
				}
				e = Entity{Facet: "title", Value: e.Value, How: e.How}
			}
			if !slices.ContainsFunc(out, func(o Entity) bool { return o.Facet == e.Facet && o.Value == e.Value }) {
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

// knowsWord reports whether the normalized word w is in the catalog's
// vocabulary: a word of a facet value, an alias, an everyday word or a
// title (a one-word title phrase, by its 64-bit hash as inTitles reads
// them). O(len(w)).
func (l *Linker) knowsWord(w string) bool {
	if l.phraseWords[w] {
		return true
	}
	_, ok := slices.BinarySearch(l.titles().grams, gramHash([]string{w}))
	return ok
}

// inTitles reports whether the normalized words ws occur as a phrase in some
// title.
func (l *Linker) inTitles(ws []string, x *Extra) bool {
	h := gramHash(ws)
	if _, ok := slices.BinarySearch(l.titles().grams, h); ok {
		return true
	}
	if x != nil {
		_, ok := x.grams[h]
		return ok
	}
	return false
}

// Meets reports whether item it meets clause c: one of its values of c's
// facet is c's value (for a number clause, its number lies in the clause's
// range), or, for the title and the table's title facets, its title holds
// c's value as a phrase. O(values + title length).
func (l *Linker) Meets(c Clause, it *Item) bool {
	if c.Numeric() {
		x, ok := it.nums[c.Facet]
		switch {
		case !ok:
			return false
		case c.Min != nil && (x < *c.Min || (c.MinOpen && x == *c.Min)):
			return false
		case c.Max != nil && (x > *c.Max || (c.MaxOpen && x == *c.Max)):
			return false
		}
		return true
	}
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
	if c.whole {
		return it.title == " "+key+" "
	}
	return strings.Contains(it.title, " "+key+" ")
}

// Columns returns the catalog's columns as the linker reads them.
func (l *Linker) Columns() []Column { return l.cols }

// howOf is how an entity is grounded: inferred when its facet's values are
// inferred, else as its phrase names it.
func (l *Linker) howOf(e Entity) string {
	if l.inferred(e.Facet) {
		return HowInferred
	}
	if e.How == "" {
		return HowExact
	}
	return e.How
}

// inferred reports whether facet f holds inferred values.
func (l *Linker) inferred(f string) bool {
	k, ok := l.colOf[f]
	return ok && l.cols[k].Inferred
}
