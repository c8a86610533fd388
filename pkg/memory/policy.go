package memory

// Extractor turns pending events into operations: chunks to add, chunks to
// boost or demote. It reads s and must not change it; scope lists the pending
// event ids to consider, in FIFO order. The proposals are applied in order, so
// boosts and demotes of existing chunks must come before additions, which may
// evict a chunk at capacity. An LLM extractor takes the same slot.
type Extractor interface {
	Extract(s *State, scope []string) ([]Op, error)
}

// Synthesizer writes the profile from the chunks of s, filling Text,
// BuiltFrom, Rising and Fading; the caller sets Version and Time. It must not
// change s. An LLM synthesizer takes the same slot.
type Synthesizer interface {
	Synthesize(s *State) (Profile, error)
}

// Planner decides whether and how to maintain the memory at time now, giving
// a reason for the decision and for each op. It reads s and must not change
// it. Name is what the decision reports as its scheduler; Trigger is what the
// journal records for the applied ops. An LLM planner takes the same slot.
type Planner interface {
	Name() string
	Trigger() string
	Plan(s *State, now int64, force bool, pol Policy) (Decision, error)
}

// Decision is a planner's answer: "maintain" with the ops to apply, or "wait".
type Decision struct {
	Scheduler string `json:"scheduler"`
	Decision  string `json:"decision"`
	Reason    string `json:"reason"`
	Ops       []Op   `json:"ops"`

	// sim and entries, when set, are the state after applying Ops at the
	// planned time with the planner's trigger and the journal entries that
	// wrote: Maintain adopts them instead of applying the ops a second time
	// (which would run the extractor, and any LLM behind it, twice).
	sim     *State
	entries []Entry
}

// Policy holds the policies the lifecycle calls. A nil field means the
// LLM-free default: MetadataExtractor, TemplateSynthesizer.
type Policy struct {
	Extractor   Extractor
	Synthesizer Synthesizer
}

func (p Policy) extractor() Extractor {
	if p.Extractor == nil {
		return MetadataExtractor{}
	}
	return p.Extractor
}

func (p Policy) synthesizer() Synthesizer {
	if p.Synthesizer == nil {
		return TemplateSynthesizer{}
	}
	return p.Synthesizer
}
