package memory

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/text"
)

// feature is one (category, value) an item's metadata states or suggests.
// Guessed features come from titles and need Config.MinTitleSupport.
type feature struct {
	Category string
	Key      string
	Label    string
	Guessed  bool
}

// itemFeatures reads an item's metadata (fields in name order, values in
// order) and returns its features, without repeats. Cost O(size of meta).
//
//   - Title fields (title, name) give guessed features: a "series" (the part
//     before the first ":" in "Fire Emblem: The Sacred Stones", or a title
//     without its sequel number, "Rayman 3"), a "platform" (the short last
//     segment after " - " when it names a platform: "... - Nintendo DS") and
//     "topic" terms (salient words: no stop words, numbers, edition or
//     platform noise).
//   - Year and date fields give an "era": the decade ("1990s").
//   - Any other field gives one feature per value (values may also be
//     separated by "|" or ";"), in a category named after the field,
//     singularized ("genres" gives "genre"). Identifiers, prices, ratings and
//     free text (description, review) are ignored.
//   - A title or value that reads as an instruction or markup (implausible)
//     gives nothing, and instruction words are never topic terms.
//
// When categories are configured, each feature's category maps to the
// configured one of the same family (genre, creator, series, format, era,
// topic, tone; see categoryFamily), else to "topic" if configured, else the
// feature is dropped.
func itemFeatures(meta map[string][]string, cats []string) []feature {
	var out []feature
	var addKey func(kind, label, key string, guessed bool)
	add := func(kind, label string, guessed bool) {
		addKey(kind, strings.TrimRight(cleanLabel(label), " .,;:-"), "", guessed)
	}
	addKey = func(kind, label, key string, guessed bool) {
		cat := mapCategory(kind, cats)
		if key == "" {
			key = normalizeKey(label)
		}
		if cat == "" || key == "" || len(key) > maxKeyLen || len(label) > 2*maxKeyLen {
			return
		}
		if slices.ContainsFunc(out, func(f feature) bool { return f.Category == cat && f.Key == key }) {
			return
		}
		out = append(out, feature{cat, key, label, guessed})
	}
	// The names the item's own metadata gives (its series, platform,
	// genres...): a title's guess of the same kind gives way to them, and
	// a title term that is one of them, or part of one, is not a topic of
	// its own ("Assassin's Creed" is a series, not "Assassins" and "Creed").
	stated, names := map[string]bool{}, []string{}
	for _, field := range sortedKeys(meta) {
		name := fieldName(field)
		if _, skip := ignoredFields[name]; skip || isTitleField(name) || categoryFamily[name] == "era" {
			continue
		}
		stated[categoryFamily[name]] = true
		for _, v := range meta[field] {
			for _, part := range valueParts(v) {
				if k := normalizeKey(part); k != "" {
					names = append(names, k)
				}
			}
		}
	}
	for _, field := range sortedKeys(meta) {
		name := fieldName(field)
		_, skip := ignoredFields[name]
		switch {
		case skip:
		case isTitleField(name):
			for _, v := range meta[field] {
				if implausible(v) != "" {
					continue
				}
				t := parseTitle(v)
				if t.series != "" && !stated["series"] {
					add("series", t.series, true)
					names = append(names, normalizeKey(t.series))
				}
				if t.platform != "" && !stated["format"] {
					add("platform", t.platform, true)
				}
				for i, w := range t.terms {
					k := t.keys[i]
					if _, instr := instructionWords[k]; !instr && !partOfName(k, names) {
						addKey("topic", w, k, true)
					}
				}
			}
		case categoryFamily[name] == "era":
			for _, v := range meta[field] {
				if d := decade(v); d != "" {
					add("era", d, false)
				}
			}
		default:
			for _, v := range meta[field] {
				for _, part := range valueParts(v) {
					if !isNumeral(normalizeKey(part)) && implausible(part) == "" {
						add(name, part, false)
					}
				}
			}
		}
	}
	return out
}

// isTitleField reports whether a field name holds titles.
func isTitleField(name string) bool {
	_, ok := titleFields[name]
	return ok
}

// partOfName reports whether the words of key are the whole or a run of
// the words of one of names ("creed" and "assassins creed" of "assassins
// creed"). O(total length of names).
func partOfName(key string, names []string) bool {
	for _, n := range names {
		if n == key || strings.HasPrefix(n, key+" ") || strings.HasSuffix(n, " "+key) || strings.Contains(n, " "+key+" ") {
			return true
		}
	}
	return false
}

// valueParts splits a metadata value into the values it lists ("a|b;c").
func valueParts(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '|' || r == ';' })
}

// fieldName normalizes a metadata field name and singularizes the common
// plural ones.
func fieldName(f string) string {
	n := normalizeCategory(f)
	if s, ok := singular[n]; ok {
		return s
	}
	return n
}

// mapCategory returns the category a feature of kind belongs to: kind itself
// when categories are derived (cats empty), else the configured category of
// kind's family, else "topic" if configured, else "".
func mapCategory(kind string, cats []string) string {
	if len(cats) == 0 || slices.Contains(cats, kind) {
		return kind
	}
	if fam := categoryFamily[kind]; fam != "" {
		for _, c := range cats {
			if categoryFamily[c] == fam {
				return c
			}
		}
	}
	if slices.Contains(cats, "topic") {
		return "topic"
	}
	return ""
}

// decade returns the decade of the first plausible year (1000 to 2999) in v,
// as "1990s", or "".
func decade(v string) string {
	for _, w := range text.Words(v) {
		if len(w) == 4 && strings.Trim(w, "0123456789") == "" && (w[0] == '1' || w[0] == '2') {
			return w[:3] + "0s"
		}
	}
	return ""
}

// titleParts is what a title suggests.
type titleParts struct {
	series, platform string
	terms            []string
	keys             []string // the terms' keys (normalizeKey of each)
}

// parseTitle splits a product or work title into a series candidate, a
// platform and salient terms (see itemFeatures). A term is a run of salient
// words that stand next to each other in the title (any part of a run: at
// most 21 terms from the 6 salient words a title gives),
// written as in the title ("Assassin's Creed"), so that a name of several
// words can be a preference whole: the extractor keeps the longest run that
// its items share (Extract). Cost O(len(raw)).
func parseTitle(raw string) titleParts {
	var p titleParts
	s := dropBracketed(cleanLabel(raw))
	segs := strings.Split(s, " - ")
	if n := len(segs); n > 1 && isPlatform(segs[n-1]) {
		p.platform = trimNoise(segs[n-1])
		segs = segs[:n-1]
	}
	body := strings.TrimSpace(segs[0])
	lead := body
	if i := strings.Index(body, ":"); i > 0 {
		lead = strings.TrimSpace(body[:i])
	}
	if cand := stripSequel(lead); (cand != body || lead != body) && hasSalient(cand) && len(strings.Fields(cand)) <= 5 {
		p.series = cand
	}
	seriesWords := text.Words(normalizeKey(p.series))
	var seen []string
	type word struct{ label, key string }
	var runs [][]word
	for _, seg := range segs {
		for _, part := range strings.Split(seg, ":") {
			var run []word
			prev := ""
			for _, orig := range titleWords(part) {
				w := wordKey(orig)
				_, afterPlatform := platformWords[prev]
				_, tail := platformTail[w]
				prev = w
				if len(seen) == maxTitleTerms || !salient(w) || afterPlatform && tail || slices.Contains(seriesWords, w) || slices.Contains(seen, w) {
					if len(run) > 0 {
						runs = append(runs, run)
					}
					run = nil
					continue
				}
				seen = append(seen, w)
				run = append(run, word{titleLabel(orig), normalizeKey(orig)})
			}
			if len(run) > 0 {
				runs = append(runs, run)
			}
		}
	}
	for _, run := range runs {
		for i := range run {
			label, key := "", ""
			for n := 0; i+n < len(run); n++ {
				if n > 0 {
					label, key = label+" ", key+" "
				}
				label, key = label+run[i+n].label, key+run[i+n].key
				p.terms, p.keys = append(p.terms, label), append(p.keys, key)
			}
		}
	}
	return p
}

// titleWords splits a title into words as written, an apostrophe inside a
// word kept ("Assassin's", "Clancy's"), so that a label reads as the title
// does; wordKey gives the word normalizeKey would.
func titleWords(s string) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '\'' && r != '\u2019'
	})
	out := ws[:0]
	for _, w := range ws {
		if w = strings.Trim(w, "'\u2019"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// wordKey is a title word as a key holds it: lowercased, apostrophes
// dropped ("Assassin's" gives "assassins").
func wordKey(w string) string { return strings.ToLower(dropApostrophes(w)) }

// titleLabel is how a title word is shown: as written when it has capitals
// ("NBA", "Mario"), capitalized when it is all lowercase.
func titleLabel(w string) string {
	if strings.ToLower(w) == w {
		return upperFirst(w)
	}
	return w
}

// maxKeyLen bounds the key of a feature (and twice that its label), so that
// a chunk's text stays within maxTextLen whatever the metadata holds.
const maxKeyLen = 60

// maxTitleTerms bounds the salient words one title gives terms from, so
// that a long accessory listing does not flood the tally.
const maxTitleTerms = 6

// trimNoise drops trailing listing noise from a segment ("PlayStation Vita
// Standard Edition" gives "PlayStation Vita").
func trimNoise(seg string) string {
	ws := strings.Fields(seg)
	for len(ws) > 1 {
		if _, noise := titleNoise[normalizeKey(ws[len(ws)-1])]; !noise {
			break
		}
		ws = ws[:len(ws)-1]
	}
	return strings.Join(ws, " ")
}

// dropBracketed removes "[...]" and "(...)" groups ("[Download]").
func dropBracketed(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[' || r == '(':
			depth++
		case (r == ']' || r == ')') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// isPlatform reports whether a title segment names a platform: at most four
// words, one of them a platform word ("Xbox 360", "Sega Game Gear").
func isPlatform(seg string) bool {
	ws := text.Words(seg)
	return len(ws) >= 1 && len(ws) <= 4 && slices.ContainsFunc(ws, func(w string) bool {
		_, ok := platformWords[w]
		return ok
	})
}

// stripSequel drops trailing sequel numbers ("Final Fantasy XIV" gives
// "Final Fantasy").
func stripSequel(s string) string {
	ws := strings.Fields(s)
	for len(ws) > 1 && isNumeral(strings.ToLower(strings.Trim(ws[len(ws)-1], ".,"))) {
		ws = ws[:len(ws)-1]
	}
	return strings.Join(ws, " ")
}

func hasSalient(s string) bool {
	return slices.ContainsFunc(text.Words(normalizeKey(s)), salient)
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// chunkText writes the natural-language text of a chunk about label in
// category, from the category's family: "Enjoys the Mario series", "Avoids
// horror", "Enjoys work by Dietrich Bonhoeffer". A label that starts with an
// article keeps it and the template drops its own ("Enjoys The Legend of
// Zelda series", never "the The Legend of Zelda").
func chunkText(category, polarity, label string) string {
	t := chunkTemplate(category, polarity)
	if hasArticle(label) {
		t = strings.Replace(t, "the %s", "%s", 1)
	}
	return fmt.Sprintf(t, label)
}

// chunkTemplate is the text of a chunk of category and polarity with %s for
// what it is about.
func chunkTemplate(category, polarity string) string {
	likes := polarity == "likes"
	pick := func(l, a string) string {
		if likes {
			return l
		}
		return a
	}
	switch category {
	case "brand", "manufacturer", "label":
		return pick("Likes the %s brand", "Avoids the %s brand")
	}
	switch categoryFamily[category] {
	case "series":
		return pick("Enjoys the %s series", "Avoids the %s series")
	case "creator":
		return pick("Enjoys work by %s", "Avoids work by %s")
	case "format":
		return pick("Prefers %s", "Avoids %s")
	case "genre":
		return pick("Enjoys %s", "Avoids %s")
	case "era":
		return pick("Enjoys titles from the %s", "Avoids titles from the %s")
	case "topic":
		return pick("Interested in %s", "Not interested in %s")
	case "tone":
		return pick("Enjoys a %s tone", "Avoids a %s tone")
	}
	cat := strings.ReplaceAll(strings.ReplaceAll(category, "_", " "), "%", "%%")
	return pick("Likes %s ("+cat+")", "Avoids %s ("+cat+")")
}

// hasArticle reports whether a label starts with "the", "a" or "an" as a
// word.
func hasArticle(label string) bool {
	w, _, _ := strings.Cut(label, " ")
	switch strings.ToLower(w) {
	case "the", "a", "an":
		return strings.Contains(label, " ")
	}
	return false
}

// categoryFamily maps category and field names to the family they belong to.
var categoryFamily = func() map[string]string {
	fams := map[string]string{
		"genre":   "genre genres category tag style subgenre type cuisine",
		"creator": "creator author writer director artist developer publisher studio brand manufacturer label composer performer actor cast",
		"series":  "series franchise collection saga universe",
		"format":  "format platform binding edition media device console system",
		"era":     "era year decade release_year release_date date published publication_year",
		"topic":   "topic subject keyword theme",
		"tone":    "tone mood",
	}
	m := map[string]string{}
	for fam, names := range fams {
		for _, n := range strings.Fields(names) {
			m[n] = fam
		}
	}
	return m
}()

var singular = map[string]string{
	"genres": "genre", "authors": "author", "creators": "creator", "categories": "category",
	"tags": "tag", "brands": "brand", "directors": "director", "artists": "artist",
	"publishers": "publisher", "developers": "developer", "platforms": "platform",
	"topics": "topic", "subjects": "subject", "keywords": "keyword", "themes": "theme",
	"formats": "format", "actors": "actor", "writers": "writer", "studios": "studio",
	"labels": "label", "moods": "mood", "styles": "style", "cuisines": "cuisine",
	"composers": "composer", "franchises": "franchise",
}

var titleFields = wordSet("title name product_title item_name")

var ignoredFields = wordSet(`
id item item_id asin url link image images img price rating ratings rank sales_rank
salesrank description summary review reviews text isbn sku upc ean count timestamp
popularity score
`)
