// Package rank is recmem's LLM-free recommendation ranker: it scores a list of
// candidate items for one user from the catalog's collaborative knowledge and
// the user's own client-held memory, and explains every score.
//
// The score of a candidate is a weighted sum of standardized features
// (Features): the user's folded-in BPR factor against the item's; transitions
// (counted and factorised) and co-occurrence from the user's recent events;
// popularity, overall and recent; lexical (BM25) and dense (word-vector)
// matches of the item's metadata against the events, the preference chunks and
// profile, and the instruction; and novelty. The weights are learned on the
// validation split (rec.LearnWeights) and shipped in the catalog. Another ranker (an LLM)
// can take the same slot: anything that implements Scorer. Features and
// DefaultWeights are read-only after init.
package rank

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/recmem/recmem/pkg/catalog"
	"github.com/recmem/recmem/pkg/cf"
	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/lexical"
	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// Features names the ranker's features in the order of a feature vector.
var Features = []string{
	"collaborative",     // <u, v_c> + b_c, u folded in from the events (cf.FoldIn)
	"transition",        // Σ_k 0.7^k P(c | e_k) over the 5 most recent events
	"cooccurrence",      // Σ_k 0.9^k cos(e_k, c) over all events
	"popularity",        // ln(1 + interactions of c)
	"history_text",      // BM25 of c's metadata against recent events' metadata (weights 0.9^k)
	"memory_text",       // BM25 of c's metadata against the preference chunks (weights strength, negative for "avoids")
	"novelty",           // 1 if c is not among the events
	"instruction",       // BM25 of c's metadata against the instruction
	"transition_log",    // ln(1 + 1000·transition): the saturating form
	"cooccurrence_log",  // ln(1 + 100·cooccurrence)
	"sequential",        // Σ_k 0.7^k <C_{e_k}, W_c> + b_c over the 5 most recent events (factorised transitions)
	"recent_popularity", // ln(1 + recency-weighted interactions of c)
	"history_dense",     // cosine of c's SIF word-vector embedding with the events' (weights 0.9^k)
	"memory_dense",      // cosine with the embedding of the chunks (weights strength)
	"instruction_dense", // cosine with the instruction's embedding
	"preference",        // Σ signed strength of the chunks about c's genre, series, era... (tiers.go)
	"profile_text",      // BM25 of c's metadata against the profile's clauses, signed (tiers.go)
	"profile_dense",     // cosine with the signed embedding of the profile's clauses
	"disliked_text",     // BM25 of c's metadata against the events the user rated low or disliked (weights 0.9^k)
}

// DefaultWeights are used for features the catalog has no learned weight for
// (a standardized weight; the instruction's cannot be learned from logs that
// hold no instructions).
var DefaultWeights = map[string]float64{"instruction": 1, "instruction_dense": 1, "memory_text": 0.2, "profile_text": 0.2}

// Feature-computation constants (documented in Features).
// Chosen on the Games-6k validation split: transition decay 0.7 beat 0.3, 0.5,
// 0.85 and 1, window 5 beat 3 and 10; co-occurrence decay 0.9 beat 0.7; text
// decay 0.9 beat 0.7.
const (
	transDecay  = 0.7
	transWindow = 5
	coocDecay   = 0.9
	textDecay   = 0.9
)

// Event is one of the user's signals, oldest first: an item id and, for items
// the catalog does not know, its metadata text.
type Event struct {
	Item string
	Text string
}

// Chunk is one preference chunk of the user's memory. Keys are what it is
// about (its key and aliases, as memory.ItemKeys gives them); Strength is
// negative for an "avoids" chunk.
type Chunk struct {
	Category string
	Text     string
	Strength float64
	Keys     []string
	// Stated: the user stated it (memory.Chunk.Stated).
	Stated bool
}

// User is what the ranker reads from one user's memory. Events are the
// signals that are not negative, Disliked the negative ones (both oldest
// first); Categories are the memory's configured categories (empty: derived
// from the metadata).
type User struct {
	Events     []Event
	Disliked   []Event
	Chunks     []Chunk
	Profile    string
	Categories []string
	// Tombstones are the preferences the user deleted (control.go).
	Tombstones []Tombstone
}

// Candidate is one item to rank; Text is used when the catalog does not know
// the item (and added to its metadata when it does).
type Candidate struct {
	ID   string
	Text string
	// Meta is the candidate's own metadata by field, when the request gave
	// it: the instruction's constraints read it beside the catalog's.
	Meta map[string][]string
}

// Request is one ranking request.
type Request struct {
	Candidates  []Candidate
	Instruction string
	K           int // keep the top K (0 = all)
	// Intent is the instruction as understood (Understand): when set, its
	// soft parts order the candidates and the text features read only its
	// positive words (instruction.go).
	Intent *intent.Intent
}

// Explanation says why a value is what it is, as a tree.
type Explanation struct {
	Value    float64       `json:"value"`
	Message  string        `json:"message"`
	Children []Explanation `json:"children,omitempty"`
}

// Ranked is one ranked candidate.
type Ranked struct {
	ID          string      `json:"id"`
	Rank        int         `json:"rank"`
	Score       float64     `json:"score"`
	Explanation Explanation `json:"explanation"`
	// Meets names what the item meets of the instruction, when there is
	// one ("PlayStation 4", "not Halo").
	Meets []string `json:"meets,omitempty"`
}

// Scorer is the ranking slot: the LLM-free Ranker fills it by default, an LLM
// ranker can replace it.
type Scorer interface {
	Rank(u User, req Request) ([]Ranked, error)
}

// Ranker is the LLM-free ranker over one catalog. Safe for concurrent use.
// New reads everything it needs of the catalog, weights included: the
// catalog must not change afterwards (build a new Ranker instead).
type Ranker struct {
	cat *catalog.Catalog
	ix  *lexical.Stats // BM25 over the catalog's item texts
	vec *vector.Table
	// items caches what the features need of each catalog item's metadata
	// text: its BM25 document and its sentence embedding.
	items []itemText
	// ws is each feature's weight times its scale (weight), in Features
	// order.
	ws []float64
	// last is the user context of the last request and the fingerprint of
	// the user and instruction it was built from: ranking again for an
	// unchanged memory (several lists on one page) reuses it.
	mu      sync.Mutex
	lastKey string
	last    *context
	// FoldIn configures the user's factor; its zero value is the default.
	FoldIn cf.FoldInConfig
	// lk grounds instructions in the catalog (pkg/intent), built at its
	// first use (linker): a first visit, with no instruction, needs none.
	lk     *intent.Linker
	lkOnce sync.Once
	// NegativeWeight weighs the penalty of an instruction's negated,
	// ungrounded words (0 = DefaultNegativeWeight), when UnknownHints.
	NegativeWeight float64
	// NoHints turns off the hints (instruction.go): the words an
	// instruction could not ground, and those grounded only in an inferred
	// facet, then change nothing.
	NoHints bool
	// SeriesCap is how many items of one series a list puts before the
	// others (0 = DefaultSeriesCap, negative = no cap; control.go).
	SeriesCap int
	// mainKind is the catalog's most frequent kind (control.go).
	mainKind string
	// keys are the catalog items' features (memory.ItemKeys), built at
	// their first use (a user with chunks or deleted preferences), not at
	// load: a first visit ranks without them.
	keysOnce  sync.Once
	keys      [][]memory.ItemKey
	keysBuilt atomic.Bool // set once keys is built
	// itemMu guards the items' BM25 documents and embeddings, each made at
	// its first use (itemDoc, itemVec).
	itemMu sync.Mutex
	// seriesNames are the keys of the catalog's series column, built at
	// their first use (seriesPrefix).
	seriesOnce  sync.Once
	seriesNames map[string]bool
	// keyID numbers the features (memory.ItemKey) of the catalog's items,
	// and keyIDs holds each item's, so that the preference feature of a
	// catalog item sums an array instead of hashing two strings per
	// feature; built with keys (itemKeys).
	keyID  map[memory.ItemKey]int32
	keyIDs [][]int32
}

// New prepares a ranker: the BM25 statistics of the catalog's item texts and
// the embedded word vectors (vector.Default); an item's BM25 document and
// embedding are made at the first request that reads them (itemDoc,
// itemVec). O(items · text length).
func New(cat *catalog.Catalog) *Ranker {
	toks := make([][]string, cat.Len())
	for i := range toks {
		toks[i] = text.Keywords(cat.MetaText(i))
	}
	r := &Ranker{cat: cat, ix: lexical.NewStats(lexical.Config{}, toks), vec: vector.Default(), items: make([]itemText, cat.Len())}
	for _, name := range Features {
		w, s := r.weight(name)
		r.ws = append(r.ws, w*s)
	}
	for i, t := range toks {
		r.items[i] = itemText{toks: t}
	}
	r.mainKind = mainKind(cat)
	return r
}

// Columns describes the catalog's facets for the instruction interpreter.
func Columns(cat *catalog.Catalog) []intent.Column {
	out := make([]intent.Column, len(cat.Facets))
	for k, f := range cat.Facets {
		out[k] = intent.Column{Name: f.Name, Type: f.Type, Unit: f.Unit, Inferred: f.Inferred, Min: f.Min, Max: f.Max}
	}
	return out
}

// addVec adds w·v to *acc, allocating it on first use. O(len(v)).
func addVec(acc *[]float64, v []float32, w float64) {
	if *acc == nil {
		*acc = make([]float64, len(v))
	}
	for k, x := range v {
		(*acc)[k] += float64(w * float64(x)) // no fused multiply-add
	}
}

// cosine is the cosine of a (any length) and the unit vector b, 0 when a is
// empty or zero. O(len(b)).
func cosine(a []float64, b []float32) float64 {
	if len(a) == 0 {
		return 0
	}
	var dot, norm float64
	for k, x := range a {
		dot += float64(x * float64(b[k]))
		norm += float64(x * x)
	}
	if norm == 0 {
		return 0
	}
	return dot / math.Sqrt(norm)
}

// itemText is one catalog item's metadata text: its tokens, read at New,
// and its BM25 document and sentence embedding, made at their first use.
type itemText struct {
	toks     []string
	doc      lexical.Doc
	vec      []float32
	prepared bool // doc is made
	embedded bool // vec is made
}

// linker returns the ranker's instruction interpreter over its catalog,
// building it at the first call. O(items · metadata length) once.
func (r *Ranker) linker() *intent.Linker {
	r.lkOnce.Do(func() {
		lk := intent.NewLinkerColumns(Columns(r.cat), r.cat.Meta, r.cat.Intent)
		lk.Common = func(w string) bool { k, ok := r.vec.Rank(w); return ok && k < DefaultCommonRank }
		lk.Known = func(w string) bool { _, ok := r.vec.Rank(w); return ok }
		lk.WordVec = r.vec.Word
		r.lk = lk
	})
	return r.lk
}

// itemVec returns catalog item i's sentence embedding, computing it at its
// first use: a request embeds only the items it reads (its candidates and
// the user's history), so the first request on a catalog of 64,000 items
// embeds a few hundred of them, not all. O(text length) the first time,
// O(1) after.
func (r *Ranker) itemVec(i int) []float32 {
	r.itemMu.Lock()
	defer r.itemMu.Unlock()
	it := &r.items[i]
	if !it.embedded {
		it.vec, it.embedded = r.vec.Sentence(it.toks), true
	}
	return it.vec
}

// itemDoc returns catalog item i's BM25 document, preparing it at its first
// use (as itemVec). O(text length) the first time, O(1) after.
func (r *Ranker) itemDoc(i int) lexical.Doc {
	r.itemMu.Lock()
	defer r.itemMu.Unlock()
	it := &r.items[i]
	if !it.prepared {
		it.doc, it.prepared = r.ix.Prepare(it.toks), true
	}
	return it.doc
}

// itemKeys returns catalog item i's features, with derived categories
// (memory.ItemKeys), building every item's at the first call. O(1) after
// that; the first call O(items · metadata length).
func (r *Ranker) itemKeys(i int) []memory.ItemKey {
	r.keysOnce.Do(func() {
		r.keys = make([][]memory.ItemKey, r.cat.Len())
		r.keyIDs = make([][]int32, r.cat.Len())
		r.keyID = map[memory.ItemKey]int32{}
		for k := range r.keys {
			r.keys[k] = memory.ItemKeys(r.cat.MetaMap(k), nil)
			ids := make([]int32, len(r.keys[k]))
			for j, key := range r.keys[k] {
				id, ok := r.keyID[key]
				if !ok {
					id = int32(len(r.keyID))
					r.keyID[key] = id
				}
				ids[j] = id
			}
			r.keyIDs[k] = ids
		}
		r.keysBuilt.Store(true)
	})
	return r.keys[i]
}

// ErrUnknownItem is wrapped when a candidate without metadata is not in the
// catalog.
var ErrUnknownItem = errors.New("unknown item")

// context is what the features need from one user, computed once per request.
type context struct {
	hist    []int // catalog indices of the events, oldest first
	seen    map[string]bool
	u       []float32
	histQ   lexical.Query
	histV   []float64 // weighted sum of the events' embeddings
	memV    []float64
	instrV  []float32
	memQ    lexical.Query
	instrQ  lexical.Query
	hasText bool
	dense   bool // the user or the instruction has an embedding: items' are read
	prefs   preferences
	// prefByID is prefs by Ranker.keyID (0 where no chunk speaks of the
	// key), for catalog items.
	prefByID []float64
	profQ    lexical.Query
	profV    []float64
	dislQ    lexical.Query
	cats     []string
}

func (r *Ranker) prepare(u User, instruction string) *context {
	x := &context{seen: map[string]bool{}, histQ: lexical.Query{}, memQ: lexical.Query{}, instrQ: lexical.Query{},
		profQ: lexical.Query{}, dislQ: lexical.Query{}, prefs: newPreferences(u.Chunks), cats: u.Categories}
	x.dense = len(u.Events)+len(u.Chunks) > 0 || u.Profile != "" || instruction != ""
	// The events behind a deleted preference are read by no feature of
	// taste, for any candidate: the list is the one the user would get had
	// they never shown it. They stay seen (novelty).
	mute, muteDisliked := silenced(u)
	w := 1.0
	for k := len(u.Events) - 1; k >= 0; k-- {
		e := u.Events[k]
		x.seen[e.Item] = true
		if mute[k] {
			continue
		}
		if i, ok := r.cat.Lookup(e.Item); ok {
			x.histQ.Add(r.items[i].toks, w)
			addVec(&x.histV, r.itemVec(i), w)
		} else {
			toks := text.Keywords(e.Text)
			x.histQ.Add(toks, w)
			addVec(&x.histV, r.vec.Sentence(toks), w)
		}
		w *= textDecay
	}
	for k, e := range u.Events {
		if i, ok := r.cat.Lookup(e.Item); ok && !mute[k] {
			x.hist = append(x.hist, i)
		}
	}
	for _, c := range u.Chunks {
		kw := memoryWords(c.Text)
		x.memQ.Add(kw, c.Strength)
		addVec(&x.memV, r.vec.Sentence(kw), c.Strength)
	}
	for _, cl := range profileClauses(u.Profile) {
		kw := memoryWords(cl.text)
		x.profQ.Add(kw, cl.weight)
		addVec(&x.profV, r.vec.Sentence(kw), cl.weight)
	}
	w = 1.0
	for k := len(u.Disliked) - 1; k >= 0; k-- {
		e := u.Disliked[k]
		if muteDisliked[k] {
			continue
		}
		if i, ok := r.cat.Lookup(e.Item); ok {
			x.dislQ.Add(r.items[i].toks, w)
		} else {
			x.dislQ.Add(text.Keywords(e.Text), w)
		}
		w *= textDecay
	}
	if len(x.prefs) > 0 && r.cat.Len() > 0 {
		r.itemKeys(0) // builds keyID
		x.prefByID = make([]float64, len(r.keyID))
		for k, v := range x.prefs {
			if id, ok := r.keyID[k]; ok {
				x.prefByID[id] = v
			}
		}
	}
	x.instrQ.Add(text.Keywords(instruction), 1)
	if instruction != "" {
		x.instrV = r.vec.Sentence(text.Keywords(instruction))
	}
	if r.cat.Dim > 0 {
		x.u = cf.FoldIn(x.hist, r.cat.Factors, r.cat.Bias, r.cat.Dim, r.FoldIn)
	}

	return x
}

// memoryWords are the keywords of a chunk's or the profile's text without
// the memory's template words ("Enjoys the Halo series" reads "halo"), so
// that "series" in a chunk does not match every title with "Series" in it.
func memoryWords(s string) []string {
	kw := text.Keywords(s)
	out := kw[:0]
	for _, w := range kw {
		if !memory.TemplateWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// contextFor is prepare, reusing the last request's context when the user,
// the instruction and the fold-in configuration are the same (equal
// fingerprints: the same events, chunks, strengths, profile, instruction and
// FoldIn, so the same context).
// O(size of the user's memory) on a hit.
func (r *Ranker) contextFor(u User, instruction string) *context {
	f := r.FoldIn
	key := fmt.Sprint(f.Epochs, ",", f.Negatives, ",", math.Float64bits(f.LR), ",", math.Float64bits(f.Reg), ",", f.Seed, ";") +
		fingerprint(u, instruction)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last != nil && r.lastKey == key {
		return r.last
	}
	x := r.prepare(u, instruction)
	r.last, r.lastKey = x, key
	return x
}

// fingerprint encodes everything prepare reads, unambiguously (every string
// is length-prefixed, every strength exact).
func fingerprint(u User, instruction string) string {
	var b []byte
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	str(instruction)
	str(u.Profile)
	for _, es := range [][]Event{u.Events, u.Disliked} {
		b = strconv.AppendInt(b, int64(len(es)), 10)
		for _, e := range es {
			str(e.Item)
			str(e.Text)
		}
	}
	b = strconv.AppendInt(b, int64(len(u.Chunks)), 10)
	for _, c := range u.Chunks {
		str(c.Category)
		str(c.Text)
		b = strconv.AppendUint(b, math.Float64bits(c.Strength), 16)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(len(c.Keys)), 10)
		for _, k := range c.Keys {
			str(k)
		}
		if c.Stated {
			b = append(b, '!')
		}
	}
	b = strconv.AppendInt(b, int64(len(u.Tombstones)), 10)
	for _, t := range u.Tombstones {
		str(t.Category)
		b = strconv.AppendInt(b, int64(len(t.Keys)), 10)
		for _, k := range t.Keys {
			str(k)
		}
		str(t.Text)
		for _, es := range [][]int{t.Events, t.Disliked} {
			b = strconv.AppendInt(b, int64(len(es)), 10)
			for _, e := range es {
				b = strconv.AppendInt(b, int64(e), 10)
				b = append(b, ',')
			}
		}
	}
	b = strconv.AppendInt(b, int64(len(u.Categories)), 10)
	for _, c := range u.Categories {
		str(c)
	}
	return string(b)
}

// keysOf returns the features the candidate's metadata gives (ci = -1 when
// the catalog does not know it), as the chunks are keyed: the catalog's
// prepared ones when nothing changes them. O(size of its metadata).
func (r *Ranker) keysOf(cats []string, c Candidate, ci int) []memory.ItemKey {
	switch {
	case ci >= 0 && len(c.Meta) == 0 && len(cats) == 0:
		return r.itemKeys(ci)
	case ci >= 0:
		m := r.cat.MetaMap(ci)
		for k, v := range c.Meta {
			m[k] = append(m[k], v...)
		}
		return memory.ItemKeys(m, cats)
	}
	return memory.ItemKeys(c.Meta, cats)
}

// features computes the feature vector of one candidate (ci = -1 when the
// catalog does not know it); keys are its features (keysOf), needed only
// when the user has chunks.
func (r *Ranker) features(x *context, c Candidate, ci int, keys []memory.ItemKey) []float64 {
	f := make([]float64, len(Features))
	if ci >= 0 {
		if x.u != nil {
			f[0] = cf.Dot(x.u, r.cat.Factor(ci)) + float64(r.cat.Bias[ci])
		}
		f[1] = cf.RecencyScore(r.cat.Transition, x.hist, ci, transDecay, transWindow)
		f[2] = cf.RecencyScore(r.cat.Similarity, x.hist, ci, coocDecay, 0)
		f[3] = math.Log1p(float64(r.cat.Pop[ci]))
	}
	var d lexical.Doc
	var cv []float32
	if ci >= 0 && c.Text == "" {
		d = r.itemDoc(ci)
		if x.dense {
			cv = r.itemVec(ci)
		}
	} else {
		// The text is read only here: a catalog item's is prepared once
		// (r.items), and concatenating it for every candidate cost more
		// than the rest of its features inside WebAssembly.
		meta := c.Text
		if ci >= 0 {
			meta = r.cat.MetaText(ci) + " " + meta
		}
		toks := text.Keywords(meta)
		d, cv = r.ix.Prepare(toks), r.vec.Sentence(toks)
	}
	f[4] = r.ix.Score(x.histQ, &d)
	f[5] = r.ix.Score(x.memQ, &d)
	if !x.seen[c.ID] {
		f[6] = 1
	}
	f[7] = r.ix.Score(x.instrQ, &d)
	if d.Len() > 0 {
		f[12] = cosine(x.histV, cv)
		f[13] = cosine(x.memV, cv)
		if x.instrV != nil {
			f[14] = vector.Dot(x.instrV, cv)
		}
	}
	f[8] = math.Log1p(1000 * f[1])
	f[9] = math.Log1p(100 * f[2])
	if ci >= 0 {
		f[11] = math.Log1p(float64(r.cat.Recent[ci]))
	}
	if ci >= 0 && r.cat.SeqDim > 0 {
		f[10] = cf.RecencyScore(r.cat.SeqScore, x.hist, ci, transDecay, transWindow) + float64(r.cat.SeqBias[ci])
	}
	if len(x.prefs) > 0 {
		if ci >= 0 && len(c.Meta) == 0 && len(x.cats) == 0 && x.prefByID != nil {
			// x.prefs.match(r.itemKeys(ci)), by numbers.
			s := 0.0
			for _, id := range r.keyIDs[ci] {
				s += x.prefByID[id]
			}
			f[15] = s
		} else {
			f[15] = x.prefs.match(keys)
		}
	}
	f[16] = r.ix.Score(x.profQ, &d)
	if d.Len() > 0 {
		f[17] = cosine(x.profV, cv)
	}
	f[18] = r.ix.Score(x.dislQ, &d)
	return f
}

// Vectors returns the feature vectors of the candidates, in order. O(candidates
// · (dim + events + text)) plus the fold-in.
func (r *Ranker) Vectors(u User, req Request) ([][]float64, error) {
	instruction := req.Instruction
	if req.Intent != nil {
		instruction = positiveText(req.Intent)
	}
	x := r.contextFor(u, instruction)
	out := make([][]float64, len(req.Candidates))
	for k, c := range req.Candidates {
		ci, ok := r.cat.Lookup(c.ID)
		if !ok {
			if c.Text == "" {
				return nil, fmt.Errorf("candidates[%d]: %w %q", k, ErrUnknownItem, c.ID)
			}
			ci = -1
		}
		var keys []memory.ItemKey
		if len(x.prefs) > 0 {
			keys = r.keysOf(u.Categories, c, ci)
		}
		out[k] = r.features(x, c, ci, keys)
	}
	return out, nil
}

// weight returns feature f's weight and scale.
func (r *Ranker) weight(name string) (w, s float64) {
	w, ok := r.cat.Weights[name]
	if !ok {
		w = DefaultWeights[name]
	}
	s, ok = r.cat.Scales[name]
	if !ok || s == 0 {
		s = 1
	}
	return w, s
}

// Rank scores and orders the candidates, best first; ties keep the input
// order. O(candidates log candidates) after Vectors.
func (r *Ranker) Rank(u User, req Request) ([]Ranked, error) {
	vecs, err := r.Vectors(u, req)
	if err != nil {
		return nil, err
	}
	out := make([]Ranked, len(vecs))
	// Every child's message is written into one buffer and sliced out of
	// one string: a concatenation per message allocates, which costs
	// inside WebAssembly. ends[i] closes message i.
	var msgs []byte
	var ends []int
	children := make([]Explanation, 0, len(vecs)*len(Features))
	for k, v := range vecs {
		ex := Explanation{Message: "sum of feature × weight (weights in Weights)"}
		first := len(children)
		for f, name := range Features {
			c := float64(r.ws[f] * v[f]) // rounded before the sum: no fused multiply-add on any host
			ex.Value += c
			if c == 0 {
				continue
			}
			msgs = append(append(msgs, name...), " = "...)
			msgs = strconv.AppendFloat(msgs, v[f], 'g', 4, 64)
			ends = append(ends, len(msgs))
			children = append(children, Explanation{Value: round6(c)})
		}
		if len(children) > first {
			ex.Children = children[first:len(children):len(children)]
		}
		ex.Value = round6(ex.Value)
		out[k] = Ranked{ID: req.Candidates[k].ID, Score: ex.Value, Explanation: ex}
	}
	all, start := string(msgs), 0
	for i, end := range ends {
		children[i].Message = all[start:end]
		start = end
	}
	if len(u.Tombstones) > 0 {
		r.noteDeleted(u, req, out)
	}
	r.steer(u, req, out)
	if req.Intent != nil {
		r.softParts(req.Intent, req, out)
	}
	slices.SortStableFunc(out, func(a, b Ranked) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	for k := range out {
		out[k].Rank = k + 1
	}
	if req.K > 0 && req.K < len(out) {
		out = out[:req.K]
	}
	return out, nil
}

// Weights returns the effective weight of every feature on its raw value
// (learned weight × standardization scale), rounded like the scores.
func (r *Ranker) Weights() map[string]float64 {
	out := make(map[string]float64, len(Features))
	for f, name := range Features {
		out[name] = round6(r.ws[f])
	}
	return out
}

// Score is the ranker's raw score of one feature vector. O(features).
func (r *Ranker) Score(v []float64) float64 {
	s := 0.0
	for f := range Features {
		s += float64(r.ws[f] * v[f])
	}
	return s
}

// round6 rounds to 6 decimals so outputs are short and identical on every
// host.
func round6(v float64) float64 { return math.Round(v*1e6)/1e6 + 0 } // + 0: never -0
