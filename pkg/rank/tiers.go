package rank

import (
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/memory"
)

// Tiers of MARS's memory that the ranker reads (seeds/000 §3.2), and the
// features each one feeds. Features of no tier (popularity, the instruction)
// come from the catalog or the request. The tier study (Mask) drops a tier by
// zeroing its features.
const (
	TierEvent      = "event"      // the event FIFO: the items themselves
	TierPreference = "preference" // the preference chunks
	TierProfile    = "profile"    // the synthesized profile
)

// FeatureTier maps each feature to the memory tier it reads, "" for none.
var FeatureTier = map[string]string{
	"collaborative": TierEvent, "transition": TierEvent, "cooccurrence": TierEvent,
	"history_text": TierEvent, "novelty": TierEvent, "transition_log": TierEvent,
	"cooccurrence_log": TierEvent, "sequential": TierEvent, "history_dense": TierEvent,
	"disliked_text": TierEvent,
	"memory_text":   TierPreference, "memory_dense": TierPreference, "preference": TierPreference,
	"profile_text": TierProfile, "profile_dense": TierProfile,
}

// Mask zeroes, in place, the features of v that read a tier not in keep.
// O(features).
func Mask(v []float64, keep map[string]bool) {
	for f, name := range Features {
		if t := FeatureTier[name]; t != "" && !keep[t] {
			v[f] = 0
		}
	}
}

// preferences indexes the user's chunks by what they are about: for each
// (category, key or alias), the sum of the strengths of the chunks about it,
// negative for "avoids".
type preferences map[memory.ItemKey]float64

func newPreferences(cs []Chunk) preferences {
	p := preferences{}
	for _, c := range cs {
		for _, k := range c.Keys {
			p[memory.ItemKey{Category: c.Category, Key: k}] += c.Strength
		}
	}
	return p
}

// match is the "preference" feature: Σ over the item's features of the
// signed strength of the chunks about them ("Enjoys Drama" 0.9 and "Avoids
// Horror" 0.7 give a horror drama 0.2). O(item features).
func (p preferences) match(keys []memory.ItemKey) float64 {
	s := 0.0
	for _, k := range keys {
		s += p[k]
	}
	return s
}

// negationCues mark a clause of a profile that speaks against what it names.
var negationCues = map[string]bool{
	"avoids": true, "avoid": true, "avoided": true, "dislikes": true, "dislike": true, "disliked": true,
	"hates": true, "hate": true, "not": true, "never": true, "no": true, "nothing": true,
}

// profileClause is one clause of a profile and the sign it is read with.
type profileClause struct {
	text   string
	weight float64
}

// profileClauses reads a profile as signed clauses, so that a lexical match
// can follow what the profile says rather than only what it names.
// Sentences end at a period followed by a space or the end; a sentence's head
// before its first colon ("Genre: ...") names a section; clauses are split at
// semicolons. A clause with a negation cue (avoids, dislikes, not...) counts
// -1, others +1. What changed lately counts half: "more into X" and "more
// open to X" +0.5, "less into X" -0.5 (the LLM-free synthesizer's last
// sentence, memory.TemplateSynthesizer), as do a "Rising" section's likings
// (+0.5) and a "Fading" one's (-0.5). Plain prose reads the same way.
// O(len(text)).
func profileClauses(text string) []profileClause {
	var out []profileClause
	for _, sent := range splitSentences(text) {
		head, body, ok := strings.Cut(sent, ":")
		section := ""
		if ok && len(strings.Fields(head)) <= 3 {
			section = strings.ToLower(strings.TrimSpace(head))
		} else {
			body = sent
		}
		for _, cl := range strings.Split(body, ";") {
			words := strings.FieldsFunc(strings.ToLower(cl), func(r rune) bool { return !(r >= 'a' && r <= 'z') })
			w := 1.0
			for _, word := range words {
				if negationCues[word] {
					w = -1
					break
				}
			}
			if len(words) > 0 && words[0] == "lately" {
				words = words[1:]
			}
			switch {
			case section == "fading" && w > 0:
				w = -0.5
			case section == "rising" && w > 0:
				w = 0.5
			case hasWords(words, "less", "into"):
				w = -0.5
			case hasWords(words, "more", "into"), hasWords(words, "more", "open", "to"):
				w = 0.5
			}
			if cl = strings.TrimSpace(cl); cl != "" {
				out = append(out, profileClause{cl, w})
			}
		}
	}
	return out
}

// hasWords reports whether words starts with prefix.
func hasWords(words []string, prefix ...string) bool {
	return len(words) >= len(prefix) && slices.Equal(words[:len(prefix)], prefix)
}

// splitSentences splits at ". " and a final ".", keeping decimals ("0.9")
// whole.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n') || s[i] == '\n' {
			if t := strings.TrimSpace(s[start:i]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// ScoreWith is the ranker's score of a feature vector under the given
// learned weights and scales (a feature without a learned weight takes its
// DefaultWeights entry, a missing scale is 1), as Ranker.Score does with the
// catalog's. O(features).
func ScoreWith(weights, scales map[string]float64, v []float64) float64 {
	s := 0.0
	for f, name := range Features {
		w, ok := weights[name]
		if !ok {
			w = DefaultWeights[name]
		}
		sc, ok := scales[name]
		if !ok || sc == 0 {
			sc = 1
		}
		s += float64(float64(w*sc) * v[f])
	}
	return s
}
