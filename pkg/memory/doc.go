// Package memory is recmem's three-tier recommendation memory (MARS, §3): one
// user's belief state M = (E, P, S) and the lifecycle that evolves it.
//
//   - Event memory E: a bounded FIFO of raw signals (user, item, action, item
//     metadata, time). A pending flag marks signals not yet extracted.
//   - Preference memory P: natural-language chunks, each with a category, a
//     strength in [0,1], an evidence count and the events that support it; at
//     most Config.KCat chunks per category.
//   - Profile memory S: a narrative synthesized from the chunks.
//
// The lifecycle operations (extract, boost, demote, merge, forget, synthesize,
// plus a user's edit and delete) are deterministic transitions applied in
// batches with State.Apply: a batch applies to a copy that replaces the state
// only if every operation succeeds. Every applied operation writes a journal
// entry with its reason. Time is always an input; nothing here reads a clock
// or a random source, so the same inputs give the same bytes on every host.
//
// The LLM-free policies (MetadataExtractor, TemplateSynthesizer, the Fixed and
// Heuristic planners) sit behind the Extractor, Synthesizer and Planner
// interfaces, so that LLM-backed policies can take the same slots.
package memory
