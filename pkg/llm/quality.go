package llm

import (
	"strings"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/text"
)

// Quality is what a memory holds, read the way the validators read an
// answer, so that a memory can be judged without going through a ranking
// metric: the learned ranker may weigh the memory's text about 0, and then
// garbage chunks and a good memory rank alike. Counts add over users.
type Quality struct {
	Users  int `json:"users"`
	Chunks int `json:"chunks"`
	// Grounded chunks are supported by the events they cite (at least half
	// of those still in memory share a content word or a facet with the
	// chunk); Unverifiable ones cite no event still in memory.
	Grounded     int `json:"grounded"`
	Unverifiable int `json:"unverifiable"`
	// Duplicates are chunks with the text, or the category and key, of an
	// earlier chunk.
	Duplicates int `json:"duplicates"`
	// Placeholders are chunks and profiles that hold an angle-bracket
	// placeholder or a prompt's example verbatim; TitleCopies chunks whose
	// text is a product title.
	Placeholders int `json:"placeholders"`
	TitleCopies  int `json:"title_copies"`
	// Profiles counts users with a profile; Sentences the profiles'
	// sentences that name something, and Supported those a chunk or an
	// event supports; Verbatim the profiles that copy one entry verbatim.
	Profiles  int `json:"profiles"`
	Sentences int `json:"sentences"`
	Supported int `json:"supported"`
	Verbatim  int `json:"verbatim"`
	// ModelChunks are the chunks a model's extraction created (the journal
	// entry that created them says "LLM extract"); ModelUngrounded and
	// ModelPlaceholders count those of them that are not grounded or hold
	// a placeholder or example copy: what validation must keep at 0.
	ModelChunks       int `json:"model_chunks"`
	ModelUngrounded   int `json:"model_ungrounded"`
	ModelPlaceholders int `json:"model_placeholders"`
}

// QualityReport is Quality with its shares.
type QualityReport struct {
	Quality
	// GroundedShare is Grounded / (Chunks − Unverifiable);
	// Faithfulness is Supported / Sentences; DuplicateShare is Duplicates
	// / Chunks; ChunksPerUser is Chunks / Users. A share with nothing to
	// divide is 1 (faithfulness, groundedness) or 0 (duplicates).
	GroundedShare  float64 `json:"grounded_share"`
	Faithfulness   float64 `json:"profile_faithfulness"`
	DuplicateShare float64 `json:"duplicate_share"`
	ChunksPerUser  float64 `json:"chunks_per_user"`
}

// Add adds o's counts to q.
func (q *Quality) Add(o Quality) {
	q.Users += o.Users
	q.Chunks += o.Chunks
	q.Grounded += o.Grounded
	q.Unverifiable += o.Unverifiable
	q.Duplicates += o.Duplicates
	q.Placeholders += o.Placeholders
	q.TitleCopies += o.TitleCopies
	q.Profiles += o.Profiles
	q.Sentences += o.Sentences
	q.Supported += o.Supported
	q.Verbatim += o.Verbatim
	q.ModelChunks += o.ModelChunks
	q.ModelUngrounded += o.ModelUngrounded
	q.ModelPlaceholders += o.ModelPlaceholders
}

// Report returns q with its shares.
func (q Quality) Report() QualityReport {
	r := QualityReport{Quality: q, GroundedShare: 1, Faithfulness: 1}
	if n := q.Chunks - q.Unverifiable; n > 0 {
		r.GroundedShare = float64(q.Grounded) / float64(n)
	}
	if q.Sentences > 0 {
		r.Faithfulness = float64(q.Supported) / float64(q.Sentences)
	}
	if q.Chunks > 0 {
		r.DuplicateShare = float64(q.Duplicates) / float64(q.Chunks)
	}
	if q.Users > 0 {
		r.ChunksPerUser = float64(q.Chunks) / float64(q.Users)
	}
	return r
}

// byModel returns the chunks the journal says a model's extraction created.
func byModel(s *memory.State) map[string]bool {
	out := map[string]bool{}
	for _, e := range s.Journal {
		if e.Op == "extract" && strings.HasPrefix(e.Reason, "LLM extract") && !strings.HasPrefix(e.Reason, "LLM extract not used") {
			for _, id := range e.Chunks {
				out[id] = true
			}
		}
	}
	return out
}

// MemoryQuality judges one user's memory (its journal tells which chunks a
// model made). O(journal + chunks × (chunks + cited events) + profile
// sentences × (chunks + events)).
func MemoryQuality(s *memory.State) Quality {
	q := Quality{Users: 1, Chunks: len(s.Chunks)}
	seenText, seenKey := map[string]bool{}, map[string]bool{}
	model := byModel(s)
	for _, c := range s.Chunks {
		placeholder := checkPlaceholder("", c.Text) != nil || checkExample("", c.Text, exampleTexts) != nil
		words := strings.Join(text.Words(c.Text), " ")
		key := c.Category + "\x00" + c.Key
		if seenText[words] || (c.Key != "" && seenKey[key]) {
			q.Duplicates++
		}
		seenText[words], seenKey[key] = true, true
		if placeholder {
			q.Placeholders++
		}
		ws := text.Words(c.Text)
		for _, e := range s.Events {
			if isTitleCopy(ws, titleWords(e)) {
				q.TitleCopies++
				break
			}
		}
		terms, inMemory, support := chunkTerms(c), 0, 0
		for _, id := range c.Events {
			if e, ok := eventByID(s, id); ok {
				inMemory++
				if shares(terms, eventTerms(e)) {
					support++
				}
			}
		}
		grounded := inMemory > 0 && 2*support >= inMemory
		switch {
		case inMemory == 0:
			q.Unverifiable++
		case grounded:
			q.Grounded++
		}
		if model[c.ID] {
			q.ModelChunks++
			if !grounded && inMemory > 0 {
				q.ModelUngrounded++
			}
			if placeholder {
				q.ModelPlaceholders++
			}
		}
	}
	p := s.Profile.Text
	if s.Profile.Version == 0 || p == "" {
		return q
	}
	q.Profiles = 1
	if checkPlaceholder("", p) != nil || checkExample("", p, exampleProfiles) != nil {
		q.Placeholders++
	}
	words := strings.Join(text.Words(p), " ")
	for _, c := range s.Chunks {
		if words == strings.Join(text.Words(c.Text), " ") {
			q.Verbatim = 1
		}
	}
	var known []string
	for _, c := range s.Chunks {
		known = append(known, chunkTerms(c)...)
	}
	for _, e := range s.Events {
		known = append(known, eventTerms(e)...)
	}
	for _, x := range sentences(p) {
		terms := contentTerms(x)
		if len(terms) == 0 {
			continue
		}
		q.Sentences++
		if shares(terms, known) {
			q.Supported++
		}
	}
	return q
}
