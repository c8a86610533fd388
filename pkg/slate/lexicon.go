package slate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// lexicon is every distinct piece of text a store has seen, in three tables
// that only grow (a deleted unit's pieces stay, as a vocabulary does):
//
//   - tokens: a unit's text cut by text.Pieces, each word carrying the one
//     space before it when there is one (" Caroline"), every other
//     separator alone ("?", a space before a separator). A unit's text is
//     its tokens joined.
//   - words: the content words (lowercased, not stop words), each with its
//     term and where its vector comes from (the table's rank, or the counts
//     of its hashed vector).
//   - terms: the BM25 index terms (the words' stems).
//
// Every unit keeps its token ids, so that a binary state (binary.go) writes
// a unit as ids into these tables and reading it back analyses nothing.
type lexicon struct {
	tok      []string
	tokWord  []int32 // the token's content word, -1 for a separator or a stop word
	tokFlag  []uint8 // tokFirstPerson, tokTimeWord, tokQMark
	tokRunes []int32 // runes of the token
	tokID    map[string]int32

	word     []string
	wordTerm []int32
	wordSrc  []source
	// wordVec holds each word's vector widened to float64 (maxsim's rows),
	// wordWeighted the same times its SIF weight (vector.Weighted: a
	// sentence vector is the sum of its words' rows, then vector.Finish).
	wordVec      []float64
	wordWeighted []float64
	wordID       map[string]int32

	term   []string
	termID map[string]int32

	// out maps each table's ids to the ids of the binary state the store was
	// last read from or written to (-1: not written yet), and n counts the
	// ids written: a segment names old pieces by those ids and defines the
	// new ones after them (binary.go).
	tokOut, wordOut, termOut    []int32
	nTokOut, nWordOut, nTermOut int32
}

// Token flags: what a token's word says about its unit.
const (
	tokFirstPerson = 1 << iota // I, my, me, we, our...
	tokTimeWord                // a time word or a year (hasTimeWord)
	tokQMark                   // holds a question mark
	tokSpace                   // a separator that is white space (unicode.IsSpace)
	tokFlags       = 1<<iota - 1
)

// source is where a content word's vector comes from: the table's word of
// rank rank, itself (kind srcExact) or without its plural s (srcPlural), or
// the counts of its hashed vector (srcHashed).
type source struct {
	kind   uint8
	rank   int32
	counts []int32
}

const (
	srcHashed = iota
	srcExact
	srcPlural
)

// vector returns the word's unit vector and SIF weight from its source.
func (src source) vector(t *vector.Table) ([]float32, float64) {
	switch src.kind {
	case srcExact:
		return t.RankVector(src.rank), vector.RankWeight(src.rank)
	case srcPlural:
		return t.RankVector(src.rank), 1
	}
	return vector.FromCounts(src.counts), 1
}

func newLexicon() lexicon {
	return lexicon{tokID: map[string]int32{}, wordID: map[string]int32{}, termID: map[string]int32{}}
}

// maps builds the maps from text to ids, which a store read from a binary
// state leaves out until a unit is added to it. Cost O(size of the tables),
// once.
func (l *lexicon) maps() {
	if l.tokID != nil {
		return
	}
	l.tokID = make(map[string]int32, len(l.tok))
	for i, t := range l.tok {
		l.tokID[t] = int32(i)
	}
	l.wordID = make(map[string]int32, len(l.word))
	for i, w := range l.word {
		l.wordID[w] = int32(i)
	}
	l.termID = make(map[string]int32, len(l.term))
	for i, t := range l.term {
		l.termID[t] = int32(i)
	}
}

// token returns the id of token tok, whose word (lowercased, "" for a
// separator) is w, adding it (and its word and term) when new. Cost: a map
// lookup; O(len(tok) + dim) the first time.
func (l *lexicon) token(tok, w string, t *vector.Table) int32 {
	if id, ok := l.tokID[tok]; ok {
		return id
	}
	id := int32(len(l.tok))
	l.tokID[tok] = id
	l.tok = append(l.tok, tok)
	l.tokOut = append(l.tokOut, -1)
	var flag uint8
	cw := int32(-1)
	if w != "" {
		if firstPerson[w] {
			flag |= tokFirstPerson
		}
		if hasTimeWord([]string{w}) {
			flag |= tokTimeWord
		}
		if !text.IsStopword(w) {
			cw = l.content(w, t)
		}
	} else {
		if strings.Contains(tok, "?") {
			flag |= tokQMark
		}
		if r, _ := utf8.DecodeRuneInString(tok); unicode.IsSpace(r) {
			flag |= tokSpace
		}
	}
	l.tokWord = append(l.tokWord, cw)
	l.tokFlag = append(l.tokFlag, flag)
	l.tokRunes = append(l.tokRunes, int32(utf8.RuneCountInString(tok)))
	return id
}

// content returns the id of content word w, adding it when new.
func (l *lexicon) content(w string, t *vector.Table) int32 {
	if id, ok := l.wordID[w]; ok {
		return id
	}
	var src source
	if r, exact, ok := t.Source(w); ok {
		src = source{kind: srcPlural, rank: r}
		if exact {
			src.kind = srcExact
		}
	} else {
		src = source{kind: srcHashed, counts: vector.HashedCounts(w, t.Dim())}
	}
	return l.addWord(w, l.termOf(text.Stem(w)), src, t)
}

// addWord appends a content word with its term and source, and its rows.
func (l *lexicon) addWord(w string, term int32, src source, t *vector.Table) int32 {
	id := int32(len(l.word))
	if l.wordID != nil {
		l.wordID[w] = id
	}
	l.word = append(l.word, w)
	l.wordTerm = append(l.wordTerm, term)
	l.wordSrc = append(l.wordSrc, src)
	l.wordOut = append(l.wordOut, -1)
	v, a := src.vector(t)
	n := len(l.wordVec)
	l.wordVec = grow2(l.wordVec, len(v))[:n+len(v)]
	l.wordWeighted = grow2(l.wordWeighted, len(v))[:n+len(v)]
	vec, wtd := l.wordVec[n:], l.wordWeighted[n:]
	for j, x := range v {
		vec[j] = float64(x)
		wtd[j] = float64(a * float64(x))
	}
	return id
}

// termOf returns the id of term t, adding it when new.
func (l *lexicon) termOf(t string) int32 {
	if id, ok := l.termID[t]; ok {
		return id
	}
	return l.addTerm(t)
}

func (l *lexicon) addTerm(t string) int32 {
	id := int32(len(l.term))
	if l.termID != nil {
		l.termID[t] = id
	}
	l.term = append(l.term, t)
	l.termOut = append(l.termOut, -1)
	return id
}

// grow makes room for nt more tokens, nw words and nm terms, so that
// reading a binary state's tables does not copy them as they grow.
func (l *lexicon) grow(nt, nw, nm, dim int) {
	l.tok = slices.Grow(l.tok, nt)
	l.tokWord = slices.Grow(l.tokWord, nt)
	l.tokFlag = slices.Grow(l.tokFlag, nt)
	l.tokRunes = slices.Grow(l.tokRunes, nt)
	l.tokOut = slices.Grow(l.tokOut, nt)
	l.word = slices.Grow(l.word, nw)
	l.wordTerm = slices.Grow(l.wordTerm, nw)
	l.wordSrc = slices.Grow(l.wordSrc, nw)
	l.wordOut = slices.Grow(l.wordOut, nw)
	l.wordVec = slices.Grow(l.wordVec, nw*dim)
	l.wordWeighted = slices.Grow(l.wordWeighted, nw*dim)
	l.term = slices.Grow(l.term, nm)
	l.termOut = slices.Grow(l.termOut, nm)
}

// addToken appends a token read from a binary state.
func (l *lexicon) addToken(tok string, word int32, flag uint8) {
	if l.tokID != nil {
		l.tokID[tok] = int32(len(l.tok))
	}
	l.tok = append(l.tok, tok)
	l.tokWord = append(l.tokWord, word)
	l.tokFlag = append(l.tokFlag, flag)
	l.tokRunes = append(l.tokRunes, int32(utf8.RuneCountInString(tok)))
	l.tokOut = append(l.tokOut, -1)
}

// tokenize cuts a unit's text into token ids, appending them to ids: each
// word piece with the space before it, when the piece before is a single
// space. Cost O(len(s)) plus a map lookup per token.
func (l *lexicon) tokenize(s string, ids []int32, t *vector.Table) []int32 {
	off := 0
	space := false // the piece before was a single space, not yet written
	text.Pieces(s, func(p, w string) {
		start := off
		off += len(p)
		if w == "" {
			if space {
				ids = append(ids, l.token(" ", "", t))
			}
			space = p == " "
			if !space {
				ids = append(ids, l.token(p, "", t))
			}
			return
		}
		if space {
			start-- // the space belongs to the word's token
			space = false
		}
		ids = append(ids, l.token(s[start:off], w, t))
	})
	if space {
		ids = append(ids, l.token(" ", "", t))
	}
	return ids
}

// grow2 makes room for n more values, doubling the capacity when it must
// grow (append grows large slices by a quarter, which for these rows, a few
// MB at 10,000 units, leaves four times their size behind as garbage).
func grow2(s []float64, n int) []float64 {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]float64, len(s), max(2*cap(s), len(s)+n, 1024))
	copy(out, s)
	return out
}
