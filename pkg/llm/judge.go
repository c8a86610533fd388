package llm

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
	"github.com/recmem/recmem/pkg/text"
)

// The checks below read what an answer says, beyond its shape: a small model
// answers within its schema and still copies the prompt's placeholders, loops
// on one phrase, names a product title as a "preference" or writes a profile
// that no chunk or event supports. Each rejection is named by a Check, which
// the step's Outcome carries and `recmem eval rec` counts (llm_outcomes).

// Checks name why an answer was not used.
const (
	// CheckExchange: there was no answer (the exchange failed, timed out,
	// the host has no model, the budget is spent).
	CheckExchange = "exchange"
	// CheckFormat: the answer is not one JSON object of the step's schema
	// (HTML, prose, empty, truncated, too large, unknown fields).
	CheckFormat = "format"
	// CheckRefusal: the answer is prose that declines the task.
	CheckRefusal = "refusal"
	// CheckPlaceholder: a field holds an angle-bracket placeholder such as
	// "<why>" copied from a prompt.
	CheckPlaceholder = "placeholder"
	// CheckExampleCopy: the answer echoes the prompt's example values.
	CheckExampleCopy = "example_copy"
	// CheckRepetition: the answer loops: a repeated word sequence, or one
	// id or text named again and again.
	CheckRepetition = "repetition"
	// CheckUnsupported: a preference or a profile sentence that the events
	// it cites (or any chunk or event) do not support.
	CheckUnsupported = "unsupported"
	// CheckTitleCopy: a "preference" that is a product title verbatim.
	CheckTitleCopy = "title_copy"
	// CheckVerbatimCopy: a profile that copies one memory entry verbatim.
	CheckVerbatimCopy = "verbatim_copy"
	// CheckUnknownID: an id that is not a chunk, a pending event in scope
	// or a candidate.
	CheckUnknownID = "unknown_id"
	// CheckRule: an answer that breaks a rule of the step (too many ops,
	// an op outside the action space, a category not configured, a forget
	// the rule does not allow...).
	CheckRule = "rule"
	// CheckState: the ops do not apply to a copy of the state.
	CheckState = "state"
)

// Rejection is why an answer was not used: the Check it failed and what was
// found.
type Rejection struct {
	Check  string
	Detail string
}

func (r *Rejection) Error() string { return r.Detail }

func reject(check, format string, args ...any) error {
	return &Rejection{Check: check, Detail: fmt.Sprintf(format, args...)}
}

// checkOf names the check err failed: its Rejection's, else CheckRule.
func checkOf(err error) string {
	var r *Rejection
	if errors.As(err, &r) {
		return r.Check
	}
	return CheckRule
}

// placeholderRE matches a placeholder: anything in angle brackets ("<why>",
// "<3 to 6 sentences>"), or a template's variable name in square or curly
// brackets ("[category_name]", "{user}").
var placeholderRE = regexp.MustCompile(`<[^<>]{1,80}>|\[[a-z]+(?:_[a-z]+)+\]|\{[a-z]+(?:_[a-z]+)*\}`)

// checkPlaceholder rejects a field that holds a placeholder. O(len(s)).
func checkPlaceholder(at, s string) error {
	if m := placeholderRE.FindString(s); m != "" {
		return reject(CheckPlaceholder, "%s holds the placeholder %q", at, m)
	}
	return nil
}

// checkLoop rejects text that repeats a word sequence: a run of three words
// seen three times, or one sentence written twice. O(words).
func checkLoop(at, s string) error {
	ws := text.Words(s)
	seen := map[string]int{}
	for i := 0; i+3 <= len(ws); i++ {
		g := strings.Join(ws[i:i+3], " ")
		if seen[g]++; seen[g] == 3 {
			return reject(CheckRepetition, "%s repeats %q three times", at, g)
		}
	}
	var sents []string
	for _, x := range sentences(s) {
		k := strings.Join(text.Words(x), " ")
		if k == "" {
			continue
		}
		if slices.Contains(sents, k) {
			return reject(CheckRepetition, "%s writes the sentence %q twice", at, x)
		}
		sents = append(sents, k)
	}
	return nil
}

// sentences splits a text at ., !, ? and ; followed by a space or the end.
func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', '!', '?', ';':
			if i+1 == len(s) || s[i+1] == ' ' {
				if t := strings.TrimSpace(s[start : i+1]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// genericTerms are words a preference or a profile uses to say that it is
// one ("likes", "enjoys", "games", "series"): they support nothing, so a
// text made only of them is supported by nothing either. Stemmed like
// text.Terms.
var genericTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`like likes liked enjoy enjoys enjoyed enjoying love loves loved
		prefer prefers preferred preference preferences interest interested interests fan fans
		favorite favourite favorites user users player players gamer gamers person people
		play plays played playing game games gaming video videos item items product products
		buy buys bought purchase purchases purchased own owns title titles thing things
		strongly tentatively often mostly usually also mainly generally especially really
		rising fading new recent recently lately series genre genres topic topics platform
		platforms format creator era tone kind kinds type types category profile taste tastes
		avoid avoids avoided dislike dislikes disliked edition version collection
		seem seems want wants well good great many much more most some lot lots very
		record recorded yet nothing none`) {
		m[text.Stem(w)] = true
	}
	return m
}()

// contentTerms are the terms of s (text.Terms) that are not generic, not a
// single letter and not a number of one or two digits (a strength's "0.7",
// a rating): what the text names. O(len(s)).
func contentTerms(s string) []string {
	var out []string
	for _, t := range text.Terms(s) {
		if genericTerms[t] || len(t) < 2 || (len(t) <= 2 && strings.Trim(t, "0123456789") == "") || slices.Contains(out, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// eventTerms are the content terms of an event's metadata values and of the
// facet keys extraction reads from them (platform, series, kind...).
func eventTerms(e memory.Event) []string {
	var b strings.Builder
	for _, k := range sortedKeys(e.Meta) {
		for _, v := range e.Meta[k] {
			b.WriteString(v)
			b.WriteByte(' ')
		}
	}
	for _, k := range memory.ItemKeys(e.Meta, nil) {
		b.WriteString(k.Key)
		b.WriteByte(' ')
	}
	return contentTerms(b.String())
}

func shares(a, b []string) bool {
	for _, t := range a {
		if slices.Contains(b, t) {
			return true
		}
	}
	return false
}

func eventByID(s *memory.State, id string) (memory.Event, bool) {
	for _, e := range s.Events {
		if e.ID == id {
			return e, true
		}
	}
	return memory.Event{}, false
}

// prefixVerbs are the words a preference opens with before what it is
// about ("Likes", "Enjoys the", "Is interested in").
var prefixVerbs = wordSet(`likes like enjoys enjoy loves love prefers prefer avoids avoid dislikes
	is interested in into a an the fan of plays playing buys owns collects wants`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// titleWords are the words of a metadata title field of e (the first one).
func titleWords(e memory.Event) []string {
	for _, k := range []string{"title", "name"} {
		if v := e.Meta[k]; len(v) > 0 {
			return text.Words(v[0])
		}
	}
	return nil
}

// isTitleCopy reports whether the words of a preference, after its opening
// verbs, are an event's title or its first three or more words (a title the
// schema's length cut): a product, not a taste.
func isTitleCopy(pref []string, title []string) bool {
	w, title := trimVerbs(pref), trimVerbs(title)
	switch {
	case len(w) == 0 || len(title) == 0:
		return false
	case slices.Equal(w, title):
		return true
	}
	return len(w) >= 3 && len(w) < len(title) && slices.Equal(w, title[:len(w)])
}

// trimVerbs drops the opening words of ws that prefixVerbs holds.
func trimVerbs(ws []string) []string {
	i := 0
	for i < len(ws) && prefixVerbs[ws[i]] {
		i++
	}
	return ws[i:]
}

// checkPreference holds one extracted preference to the events it cites:
// it must cite at least one, it must not be a cited (or any) event's title,
// and at least half of the cited events must share a content term or a
// facet value with it. O(events × text).
func checkPreference(at, pref string, s *memory.State, cited []string) error {
	if len(cited) == 0 {
		return reject(CheckUnsupported, "%s: %q cites no event", at, pref)
	}
	words := text.Words(pref)
	for _, e := range s.Events {
		if isTitleCopy(words, titleWords(e)) {
			return reject(CheckTitleCopy, "%s: %q is the title of %s, not a preference", at, pref, e.ID)
		}
	}
	terms := contentTerms(pref)
	if len(terms) == 0 {
		return reject(CheckUnsupported, "%s: %q names nothing a signal could support", at, pref)
	}
	support := 0
	for _, id := range cited {
		if e, ok := eventByID(s, id); ok && shares(terms, eventTerms(e)) {
			support++
		}
	}
	if 2*support < len(cited) {
		return reject(CheckUnsupported, "%s: %q shares no word or facet with %d of the %d events it cites", at, pref, len(cited)-support, len(cited))
	}
	return nil
}

// chunkTerms are the content terms of a chunk's text, key and aliases.
func chunkTerms(c memory.Chunk) []string {
	return contentTerms(c.Text + " " + c.Key + " " + strings.Join(c.Aliases, " "))
}

// checkChunkEvidence holds a boost or demote to its events: at least one,
// and at least half of them sharing a content term or a facet with the
// chunk (a signal about another item is no evidence about it).
func checkChunkEvidence(at string, c memory.Chunk, s *memory.State, cited []string) error {
	if len(cited) == 0 {
		return reject(CheckUnsupported, "%s: %s of %s cites no event", at, "update", c.ID)
	}
	terms := chunkTerms(c)
	support := 0
	for _, id := range cited {
		if e, ok := eventByID(s, id); ok && shares(terms, eventTerms(e)) {
			support++
		}
	}
	if 2*support < len(cited) {
		return reject(CheckUnsupported, "%s: %d of the %d events cited share no word or facet with %s (%q)", at, len(cited)-support, len(cited), c.ID, c.Text)
	}
	return nil
}

// checkProfile reads a profile a model wrote for s: no placeholder, no
// example copy, no loop, not one chunk's text or one event's title
// verbatim, and every sentence that names something supported by a chunk
// or an event, with at least one such sentence. O(sentences × (chunks +
// events)).
func checkProfile(p string, s *memory.State) error {
	if err := checkPlaceholder("profile", p); err != nil {
		return err
	}
	if err := checkExample("profile", p, exampleProfiles); err != nil {
		return err
	}
	if err := checkLoop("profile", p); err != nil {
		return err
	}
	words := strings.Join(text.Words(p), " ")
	for _, c := range s.Chunks {
		if words == strings.Join(text.Words(c.Text), " ") {
			return reject(CheckVerbatimCopy, "profile: copies chunk %s (%q) verbatim", c.ID, c.Text)
		}
	}
	for _, e := range s.Events {
		if t := titleWords(e); len(t) > 0 && words == strings.Join(t, " ") {
			return reject(CheckVerbatimCopy, "profile: copies the title of %s verbatim", e.ID)
		}
	}
	var known []string
	for _, c := range s.Chunks {
		known = append(known, chunkTerms(c)...)
	}
	for _, e := range s.Events {
		known = append(known, eventTerms(e)...)
	}
	supported := 0
	for i, x := range sentences(p) {
		terms := contentTerms(x)
		if len(terms) == 0 {
			continue
		}
		if !shares(terms, known) {
			return reject(CheckUnsupported, "profile: sentence %d (%q) names nothing any chunk or event holds", i+1, x)
		}
		supported++
	}
	if supported == 0 {
		return reject(CheckUnsupported, "profile: no sentence names anything the memory holds")
	}
	return nil
}

// checkExample rejects text equal to one of the prompt's example values.
func checkExample(at, s string, examples []string) error {
	w := strings.Join(text.Words(s), " ")
	for _, x := range examples {
		if w == strings.Join(text.Words(x), " ") {
			return reject(CheckExampleCopy, "%s copies the prompt's example %q", at, x)
		}
	}
	return nil
}

// refusalRE matches prose that declines the task.
var refusalRE = regexp.MustCompile(`(?i)^\W*(i'?m sorry|i am sorry|sorry|i can(no|')t|i cannot|i am unable|i'm unable|as an ai|unfortunately)`)

// formatRejection names a decoding failure: a refusal when the answer is
// prose that declines, else a format error.
func formatRejection(answer string, err error) error {
	if refusalRE.MatchString(answer) {
		return reject(CheckRefusal, "answer is a refusal in prose, not a JSON object")
	}
	return &Rejection{Check: CheckFormat, Detail: err.Error()}
}
