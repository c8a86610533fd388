package rank

import (
	"slices"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/intent"
	"github.com/recmem/recmem/pkg/text"
	"github.com/recmem/recmem/pkg/vector"
)

// How the ranker keeps an instruction (pkg/intent):
//
//   - Hard parts (Only, Exclude) filter the candidates before ranking
//     (Understand), relaxing the weakest constraint only when nothing is
//     left, and are enforced again on any ranking (Enforce), so that a
//     reranker (an LLM) cannot bring an excluded item back.
//   - Soft parts order: each candidate is placed in a tier by the number of
//     preferences it meets minus the avoidances it falls under, and the tier
//     is added to its score as tier × (the spread of the scores + 1), so a
//     met preference outranks any other feature and the score stays
//     monotone with the order.
//   - The instruction's text features (instruction, instruction_dense) read
//     only what was grounded in its positive scope, in the catalog's words
//     (the value "Horror" for "spooky"): a word not understood in a positive
//     scope changes nothing. (Using such words as text hints was measured:
//     dev p10 0.9617 with them, 0.9622 without.)
//   - Negated hints: a negated word that could not be grounded ("no
//     shooters"), or one grounded only in an inferred facet (whose values
//     miss many items), subtracts NegativeWeight × its word-vector cosine
//     with the item, when positive. This is said out loud: a note in
//     understood names the hint words, and every item a hint moves says so
//     in its explanation. A negated word never adds score. NoHints turns
//     them off.

// DefaultNegativeWeight is the default weight of the negated, ungrounded
// words' word-vector penalty (raw cosine units; the page's instruction_dense
// weight is 1). Chosen on the development split of testdata/instructions
// among 2, 5, 10 and 20 (knowledge p10 0.618, 0.644, 0.685, 0.689).
const DefaultNegativeWeight = 10.0

// DefaultCommonRank is the word-vector frequency rank below which a word is
// common English (intent.Linker.Common): "son" (586) and "racing" (2,120)
// are, "mario" (5,621) and "halo" (19,901) are not.
const DefaultCommonRank = 3000

// Understanding is an instruction as the ranker keeps it for one request.
type Understanding struct {
	// Intent is the instruction as parsed (what the user is shown).
	Intent intent.Intent
	// Enforced is Intent less the relaxed constraints.
	Enforced intent.Intent
	// Keep says, per candidate of the request, whether it meets the
	// enforced hard constraints (nil: no hard constraint).
	Keep []bool
	// Relaxed lists the constraints dropped because nothing met them all.
	Relaxed []intent.Relaxed
	// Kept is the number of candidates kept.
	Kept int
}

// Linker is the ranker's instruction interpreter over its catalog.
func (r *Ranker) Linker() *intent.Linker { return r.linker() }

// items prepares the request's candidates for matching: the catalog's
// metadata plus each candidate's own.
func (r *Ranker) matchItems(cands []Candidate) []intent.Item {
	out := make([]intent.Item, len(cands))
	for k, c := range cands {
		i, ok := r.cat.Lookup(c.ID)
		if !ok {
			i = -1
		}
		out[k] = r.linker().ItemWith(i, c.Meta)
	}
	return out
}

// Understand parses the request's instruction against the catalog and the
// candidates' own metadata, and applies its hard constraints to the
// candidates. O(candidates · clauses) plus the parse.
func (r *Ranker) Understand(req Request) Understanding { return r.UnderstandWith(req, nil) }

// UnderstandWith is Understand with refine, when not nil, run on the parsed
// intent before anything reads it (hints, constraints): another reader of the
// words the interpreter left unknown (pkg/llm's parse step) adds what it
// grounded there.
func (r *Ranker) UnderstandWith(req Request, refine func(*intent.Intent)) Understanding {
	var x *intent.Extra
	var metas []map[string][]string
	for _, c := range req.Candidates {
		if len(c.Meta) > 0 {
			metas = append(metas, c.Meta)
		}
	}
	if len(metas) > 0 {
		x = intent.NewExtra(metas)
	}
	u := Understanding{Intent: r.linker().Parse(req.Instruction, x)}
	if refine != nil {
		refine(&u.Intent)
	}
	if !r.NoHints {
		hints(&u.Intent)
	}
	u.Enforced = u.Intent
	u.Kept = len(req.Candidates)
	if !u.Intent.Hard() {
		return u
	}
	items := r.matchItems(req.Candidates)
	ptrs := make([]*intent.Item, len(items))
	for k := range items {
		ptrs[k] = &items[k]
	}
	u.Keep, u.Relaxed = r.linker().Filter(&u.Intent, ptrs)
	u.Enforced = u.Intent.Without(u.Relaxed)
	u.Kept = 0
	for _, k := range u.Keep {
		if k {
			u.Kept++
		}
	}
	return u
}

// hints adds to the intent's hint words those of its clauses grounded only
// in an inferred facet, and notes what the hints are.
func hints(in *intent.Intent) {
	var inferred []string
	add := func(cs []intent.Clause, to *[]string) {
		for _, c := range cs {
			if c.How == intent.HowInferred {
				for _, w := range c.HintWords {
					if !slices.Contains(*to, w) {
						*to = append(*to, w)
					}
				}
				if !slices.Contains(inferred, c.Text) {
					inferred = append(inferred, c.Text)
				}
			}
		}
	}
	neg := len(in.Negative)
	add(in.Exclude, &in.Negative)
	add(in.Avoid, &in.Negative)
	if neg > 0 && len(in.NegatedUnknown) > 0 {
		in.Hints = append(in.Hints, in.NegatedUnknown...)
		in.Notes = append(in.Notes, "not understood: "+quoteList(in.NegatedUnknown)+": used only as a hint: items whose titles are near it by word similarity move down (each says so)")
	}
	if len(in.Negative) > neg {
		in.Hints = append(in.Hints, inferred...)
		in.Notes = append(in.Notes, "inferred: "+quoteList(inferred)+" matched values this catalog infers from its titles, which miss many items: items whose titles are near it by word similarity move down too (each says so)")
	}
}

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for k, w := range ws {
		q[k] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// Constrained returns the request with only the candidates that meet the
// hard constraints and with the enforced intent attached, for Rank.
func (u *Understanding) Constrained(req Request) Request {
	out := req
	out.Intent = &u.Enforced
	if u.Keep == nil {
		return out
	}
	out.Candidates = make([]Candidate, 0, u.Kept)
	for k, c := range req.Candidates {
		if u.Keep[k] {
			out.Candidates = append(out.Candidates, c)
		}
	}
	return out
}

// Enforce drops from a ranking any item that does not meet the request's
// enforced hard constraints (a reranker's permutation cannot bring one
// back) and renumbers the ranks. O(ranked · clauses).
func (r *Ranker) Enforce(ranked []Ranked, req Request) []Ranked {
	in := req.Intent
	if in == nil || !in.Hard() {
		return ranked
	}
	meta := map[string]map[string][]string{}
	for _, c := range req.Candidates {
		meta[c.ID] = c.Meta
	}
	out := ranked[:0:0]
	for _, x := range ranked {
		i, ok := r.cat.Lookup(x.ID)
		if !ok {
			i = -1
		}
		it := r.linker().ItemWith(i, meta[x.ID])
		if r.linker().MeetsHard(in, &it) {
			out = append(out, x)
		}
	}
	for k := range out {
		out[k].Rank = k + 1
	}
	return out
}

// positiveText is what the instruction's text features read: what the
// positive scope grounded, in the catalog's words (never a negated word nor
// one not understood; a number clause has no words).
func positiveText(in *intent.Intent) string {
	var parts []string
	for _, cs := range [][]intent.Clause{in.Prefer, in.Only} {
		for _, c := range cs {
			if !c.Numeric() {
				parts = append(parts, c.Label())
			}
		}
	}
	return strings.Join(parts, " ")
}

// softParts adds the intent's soft parts to the ranked candidates (before
// sorting): the tier of preferences met, the negated words' penalty, and an
// explanation child naming what each item meets.
func (r *Ranker) softParts(in *intent.Intent, req Request, out []Ranked) {
	items := r.matchItems(req.Candidates)
	var neg []float32
	if len(in.Negative) > 0 && !r.NoHints {
		neg = r.vec.Sentence(in.Negative)
	}
	nw := r.NegativeWeight
	if nw == 0 {
		nw = DefaultNegativeWeight
	}
	tiers := make([]int, len(out))
	parts := make([][]string, len(out))
	lo, hi := 0.0, 0.0
	for k := range out {
		p, _, _ := r.linker().Meeting(in, &items[k])
		parts[k] = p
		tiers[k] = r.tier(in, &items[k])
		if neg != nil {
			var cv []float32
			if ci, ok := r.cat.Lookup(out[k].ID); ok && req.Candidates[k].Text == "" {
				cv = r.itemVec(ci)
			} else {
				cv = r.vec.Sentence(text.Keywords(req.Candidates[k].Text))
			}
			if cos := vector.Dot(neg, cv); cos > 0 && len(cv) > 0 {
				pen := round6(-float64(nw * cos))
				out[k].Explanation.Children = append(out[k].Explanation.Children, Explanation{Value: pen,
					Message: "instruction, not wanted (a hint, by word similarity): " + strings.Join(in.Negative, " ") + " = " + strconv.FormatFloat(cos, 'g', 4, 64)})
				out[k].Explanation.Value = round6(out[k].Explanation.Value + pen)
				out[k].Score = out[k].Explanation.Value
			}
		}
		if k == 0 || out[k].Score < lo {
			lo = out[k].Score
		}
		if k == 0 || out[k].Score > hi {
			hi = out[k].Score
		}
	}
	gap := round6(hi - lo + 1)
	clauses := len(in.Only)+len(in.Exclude)+len(in.Prefer)+len(in.Avoid) > 0
	for k := range out {
		if !clauses {
			continue
		}
		bonus := round6(float64(tiers[k]) * gap)
		msg := "instruction: " + strings.Join(parts[k], " · ")
		if len(parts[k]) == 0 {
			msg = "instruction: meets none of its preferences"
		}
		if tiers[k] != 0 {
			msg += " (tier " + strconv.Itoa(tiers[k]) + " × " + strconv.FormatFloat(gap, 'g', 6, 64) + ")"
		}
		out[k].Explanation.Children = append(out[k].Explanation.Children, Explanation{Value: bonus, Message: msg})
		out[k].Explanation.Value = round6(out[k].Explanation.Value + bonus)
		out[k].Score = out[k].Explanation.Value
		out[k].Meets = parts[k]
		if out[k].Meets == nil {
			out[k].Meets = []string{}
		}
	}
}

// tier is the number of preferences met (one per phrase of the instruction,
// however many values it names) minus the avoidances met.
func (r *Ranker) tier(in *intent.Intent, it *intent.Item) int {
	t := 0
	count := func(cs []intent.Clause, sign int) {
		met := map[string]bool{}
		for _, c := range cs {
			if !met[c.Text] && r.linker().Meets(c, it) {
				met[c.Text] = true
				t += sign
			}
		}
	}
	count(in.Prefer, 1)
	count(in.Avoid, -1)
	return t
}
