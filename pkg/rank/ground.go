package rank

import "github.com/recmem/recmem/pkg/intent"

// maxGrounded bounds the values Ground returns (a chunk's aliases).
const maxGrounded = 32

// Ground finds what a person's words name in the catalog, for a preference
// stated by hand ("Nintendo", "Comedy", "Zelda"): the facet and its values
// that the instruction interpreter grounds them in (pkg/intent: the facets'
// values and the domain table's aliases), the facet of the first grounded
// part, at most 32 values. ok is false unless every word is grounded and in
// a facet (no title phrase, no word left unknown, no negation). O(parse).
func (r *Ranker) Ground(words string) (facet string, values []string, ok bool) {
	in := r.linker().Parse(words, nil)
	if len(in.Unknown)+len(in.Positive)+len(in.Negative)+len(in.Exclude)+len(in.Avoid) > 0 {
		return "", nil, false
	}
	for _, cs := range [][]intent.Clause{in.Only, in.Prefer} {
		for _, c := range cs {
			if c.How == intent.HowImplied {
				continue // "nintendo" implies games first: not what it names
			}
			if c.Facet == "title" || c.How == intent.HowNumber {
				return "", nil, false
			}
			if facet == "" {
				facet = c.Facet
			}
			if c.Facet == facet && len(values) < maxGrounded {
				values = append(values, c.Value)
			}
		}
	}
	return facet, values, facet != ""
}
