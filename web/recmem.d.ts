// Type declarations for recmem.js: the typed surface of the recmem module.

// The inputs and outputs of the exports (generated from pkg/engine by
// `go generate ./pkg/engine`).
// BEGIN GENERATED types
/** AddUnitsInput is the input of add_units. */
export interface AddUnitsInput {
  units: Unit[];
}

/** AddUnitsOutput counts the units added and the store's size after. */
export interface AddUnitsOutput {
  added: number;
  units: number;
  sessions: number;
}

/**
 * ApplyOpsInput is the input of apply_ops: the ops, who asked for them
 * ("user", the default, "planner" or "llm") and the time (default the
 * memory's clock).
 */
export interface ApplyOpsInput {
  ops: Op[];
  trigger?: 'user' | 'planner' | 'llm';
  now?: number;
}

/**
 * ApplyOpsOutput lists the journal entries a batch of ops wrote, with the
 * memory's summary and the outcomes of LLM steps.
 */
export interface ApplyOpsOutput {
  llm?: Outcome[];
  ops: Entry[];
  summary: Summary;
}

/**
 * CatalogFacet is one metadata column of the loaded catalog: its name, its
 * type (text, list or number), a number's unit and range, and whether its
 * values are inferred from the data rather than given.
 */
export interface CatalogFacet {
  name: string;
  type: string;
  unit?: string;
  min?: number;
  max?: number;
  inferred?: boolean;
}

/** CategoryCount is the number of chunks one category holds. */
export interface CategoryCount {
  category: string;
  chunks: number;
}

/** Chosen is one unit of the slate with the reason it is there. */
export interface Chosen {
  id: string;
  session: string;
  /** the rendered unit, "[date] speaker: text" */
  line: string;
  /** ceil(characters of Line / 4) */
  tokens: number;
  /** 1 is the ranker's best */
  rank: number;
  /** the ranker's score (rounded to 1e-6) */
  score: number;
  /** "retrieved" or "context" (a neighbour of a retrieved unit) */
  reason: string;
  /**
   * Hop is how the learned ranker's pool took the unit in: "first" (the
   * fused lists' head), "context" (a turn near one of the best), "session"
   * (three or four turns from one of the best), "feedback" (the question
   * plus the best units' words) or "near" (words close in meaning to the
   * question's); empty for a baseline.
   */
  hop?: string;
  /**
   * Matched are the question's words the unit holds; Why says in words
   * why the unit is in the slate (its rank, those words, its hop, the
   * speaker, its date and what a relative date in it points to). Both are
   * left out with explain false.
   */
  matched?: string[];
  why?: string;
  features?: Record<string, number>;
  /**
   * Contributions are each feature's term of a linear model's score
   * (weight · standardized value; score = bias + their sum), or of the
   * linear part of an ensemble. A baseline ranker's score is one signal,
   * and its one term is named for the ranker: bm25 (the unit's BM25),
   * dense (its cosine), rrf (minus its position in the fused list, 0
   * best), recency (its place counted from the oldest unit, 1 oldest),
   * adaptive_k (its cosine, among the units above the largest gap).
   */
  contributions?: Record<string, number>;
  /**
   * PartScores are an ensemble's part scores (linear, then trees); the
   * ensemble's score sums 1 / (10 + the unit's rank by each part).
   */
  part_scores?: number[];
}

/** Chunk is one preference: what the user likes or avoids in one category. */
export interface Chunk {
  id: string;
  category: string;
  /**
   * Key is the normalized value the chunk is about ("mario"); Aliases are
   * the keys of chunks merged into it. Extraction matches both.
   */
  key: string;
  aliases?: string[];
  /** "likes" or "avoids" */
  polarity: 'likes' | 'avoids';
  text: string;
  /** Strength in [0,1], rounded to 3 decimals after every operation. */
  strength: number;
  /**
   * Evidence counts supporting signals, boosts and demotes: contradicting
   * evidence is evidence too.
   */
  evidence: number;
  first_seen: number;
  last_seen: number;
  /** Events are the most recent supporting event ids (Config.ChunkEvents). */
  events: string[];
  /**
   * LastDelta is the most recent change of strength (for a new chunk, its
   * initial strength); Epoch is the profile version current when it
   * happened. The synthesizer calls a chunk rising or fading when its
   * change happened after the current profile was built.
   */
  last_delta: number;
  epoch: number;
  /**
   * Stated marks a preference the user stated or set by hand (added,
   * avoided, or its strength edited): signals no longer move it, the
   * lifecycle never merges, evicts, demotes or forgets it, and a stated
   * "avoids" at full strength is a wish never to be shown what it names
   * (pkg/rank). Only the user changes or deletes it.
   */
  stated?: boolean;
}

/** ChunkRef names a chunk and its strength at the time of reference. */
export interface ChunkRef {
  chunk: string;
  strength: number;
}

/**
 * Clause is one grounded part of an intent: an entity (or a range of a
 * number facet) and the words it was read from, with how they were grounded.
 */
export interface Clause {
  facet: string;
  /**
   * Value is the facet's value; for a number clause, the range in words
   * ("1970 to 1979", "at most 30").
   */
  value: string;
  /** Text is the words as typed. */
  text: string;
  /**
   * How is how the words were grounded: exact, alias, synonym, typo,
   * inferred, number, implied, partial (the last word of a value's
   * name: "Tolkien"), or llm when the host's language model read
   * words the interpreter left unknown (the How* constants).
   */
  how: string;
  /**
   * Detail says it in words when the grounding is not the words
   * themselves: "spooky → Horror (everyday word)", "metriod → Metroid
   * (typo: one letter)", "Racing is inferred from titles and what
   * people took together".
   */
  detail?: string;
  /**
   * Min and Max bound a number clause (either may be open); Unit is
   * what the number counts (year, price, age, rating, minutes).
   */
  min?: number;
  max?: number;
  unit?: string;
  /** MinOpen and MaxOpen make a bound strict ("under $30": below 30). */
  min_open?: boolean;
  max_open?: boolean;
  /**
   * Group names the phrase that named several values at once
   * ("Nintendo": eleven platforms), so that they are shown as one.
   */
  group?: string;
}

/**
 * Config holds the memory's parameters. The zero value of every field means its
 * documented default, so Config{} is the paper's setting. A State stores the
 * resolved config (defaults filled in), so an exported document shows the
 * numbers actually in force. Durations are in seconds.
 */
export interface Config {
  /** EventCap is L_max, the capacity of the event FIFO. Default 15. */
  event_cap: number;
  /** KCat is the most chunks one category may hold. Default 4. */
  k_cat: number;
  /** DeltaPlus is the boost step. Default 0.1. */
  delta_plus: number;
  /**
   * DeltaMinus is the demote step; larger than DeltaPlus in the paper
   * (pessimistic update). Default 0.2.
   */
  delta_minus: number;
  /**
   * ForgetThreshold: a chunk may be forgotten when its strength is at or
   * below this value... Default 0.3.
   */
  forget_threshold: number;
  /** ForgetMinEvidence: ...and its evidence count is at least this. Default 2. */
  forget_min_evidence: number;
  /**
   * Gamma: a synthesis runs automatically once this many mutations have
   * been applied since the last synthesis. Default 5.
   */
  gamma: number;
  /**
   * Batch is B, the pending-signal count at which the fixed scheduler
   * maintains. Default 5; at most EventCap.
   */
  batch: number;
  /**
   * InitialStrength is the strength of a chunk extracted from one
   * supporting signal. Default 0.7.
   */
  initial_strength: number;
  /**
   * SupportStep is added to the initial strength per extra supporting
   * signal. Default 0.1.
   */
  support_step: number;
  /** MaxInitialStrength caps the initial strength. Default 0.9. */
  max_initial_strength: number;
  /**
   * MinSupport is the net positive support a metadata value (genre,
   * author, brand...) needs to become a chunk. Default 1.
   */
  min_support: number;
  /**
   * MinTitleSupport is the net support a feature guessed from titles
   * (series, platform, salient term) needs. Default 2.
   */
  min_title_support: number;
  /**
   * MinAvoidSupport is the net negative support any feature needs to
   * become an "avoids" chunk. Default 2.
   */
  min_avoid_support: number;
  /**
   * ChunkEvents bounds the supporting event ids kept per chunk (the most
   * recent ones). Default 8.
   */
  chunk_events: number;
  /** JournalCap bounds the journal; the oldest entries go first. Default 200. */
  journal_cap: number;
  /**
   * MergeJaccard is the term-overlap (Jaccard) at or above which two chunks
   * of one category and polarity are near-duplicates. Default 0.6.
   */
  merge_jaccard: number;
  /**
   * StrongStrength: a pending signal against a chunk at least this strong
   * is a contradiction the planner acts on at once. Default 0.7.
   */
  strong_strength: number;
  /**
   * StalePending: the planner extracts when the oldest pending signal is
   * this old. Default 604800 (7 days).
   */
  stale_pending: number;
  /**
   * StaleChunk: the planner demotes a chunk not seen for this long.
   * Default 7776000 (90 days).
   */
  stale_chunk: number;
  /**
   * ProfileMaxAge: the planner resynthesizes a profile this old that lags
   * behind mutations. Default 86400 (1 day).
   */
  profile_max_age: number;
  /**
   * Categories are the domain's preference categories (MARS uses six per
   * domain), normalized to lower_snake_case. Empty means derived from the
   * metadata field names of the items seen (see MetadataExtractor).
   */
  categories: string[];
}

/**
 * Counters issue ids and count mutations. NextEvent, NextChunk and NextSeq
 * are the numbers the next event ("e12"), chunk ("c7") and journal entry get.
 * Mutations counts lifecycle mutations since the last synthesis. The signals
 * waiting for maintenance are the pending events.
 */
export interface Counters {
  next_event: number;
  next_chunk: number;
  next_seq: number;
  mutations_since_synthesis: number;
}

/** Decision is a planner's answer: "maintain" with the ops to apply, or "wait". */
export interface Decision {
  scheduler: string;
  decision: 'maintain' | 'wait';
  reason: string;
  ops: Op[];
}

/** DeleteUnitsInput is the input of delete_units. */
export interface DeleteUnitsInput {
  ids: string[];
}

/** DeleteUnitsOutput counts the units deleted and the store's size after. */
export interface DeleteUnitsOutput {
  deleted: number;
  units: number;
  sessions: number;
}

/**
 * Document is the whole client-held state of one user: everything an engine
 * knows. Exported by export_state and restored by import_state; a round trip is
 * byte-identical.
 */
export interface Document {
  schema: string;
  version: number;
  /**
   * Checksum is "sha256:" and the hex SHA-256 of the document's canonical
   * form without the checksum: a damaged or altered document is refused on
   * import. Set by export_state.
   */
  checksum?: string;
  memory?: State;
  /**
   * Units is the slate-selection memory (pkg/slate): stored turns and
   * records, encoded as an array in insertion order; absent until units are
   * first added.
   */
  units?: Unit[];
}

/**
 * Entry is one journal record: an applied operation and why. The journal keeps
 * the newest Config.JournalCap entries, oldest first.
 * 
 * Op is one of JournalOps. An "extract" entry with a chunk created it; one
 * without chunks closes an extraction and lists the events it processed.
 * Before and After are the strength of the (first) chunk around the change,
 * where there is one.
 */
export interface Entry {
  seq: number;
  time: number;
  op: 'extract' | 'boost' | 'demote' | 'merge' | 'forget' | 'synthesize' | 'edit' | 'delete' | 'evict' | 'drop' | 'avoid' | 'add';
  trigger: 'user' | 'llm' | 'scheduler' | 'planner' | 'auto' | 'capacity' | 'fifo';
  chunks?: string[];
  events?: string[];
  before?: number;
  after?: number;
  reason: string;
}

/**
 * Event is one recorded signal. Events sit in FIFO order, oldest first; Pending
 * marks an event not yet seen by extraction.
 */
export interface Event {
  id: string;
  user: string;
  item: string;
  action: string;
  rating?: number;
  meta?: Record<string, string[]>;
  time: number;
  pending: boolean;
}

/** Explanation says why a value is what it is, as a tree. */
export interface Explanation {
  value: number;
  message: string;
  children?: Explanation[];
}

/**
 * ExportStateInput is the input of export_state: the form of the state,
 * and for the binary form the state the caller holds, to write only what
 * changed since (docs/state-binary.md).
 */
export interface ExportStateInput {
  /**
   * Format is "json" (the default, the document of docs/state-format.md)
   * or "binary".
   */
  format?: string;
  /**
   * Base, binary only, is the checksum ("xxh64:" and 16 hex digits) of a
   * binary state the caller holds: the output is then a segment to append
   * to it, the whole state when a segment cannot say the change or
   * compaction is due, or nothing when nothing changed.
   */
  base?: string;
  /**
   * CompactAfter (1 to 16, default 16) and CompactRatio (above 0, at
   * most 100, default 0.5): with Base, the whole state is written instead
   * of a segment when the state would pass CompactAfter segments, or its
   * segments CompactRatio times the size of its base.
   */
  compact_after?: number;
  compact_ratio?: number;
}

/**
 * ExportsOutput is the output of exports: the export names, sorted, the
 * state document format this module writes, and the LLM configuration it runs
 * with.
 */
export interface ExportsOutput {
  exports: string[];
  llm: LLMConfig;
  schema: string;
  schema_version: number;
}

/**
 * GetMemoryInput is the input of get_memory: how many of the newest journal
 * entries to return (0: all).
 */
export interface GetMemoryInput {
  journal_limit?: number;
}

/**
 * ImportStateOutput is what import_state restored. For a binary state it
 * also gives the form, the state's checksum (export_state's base for the
 * next delta) and how many segments it applied after the base.
 */
export interface ImportStateOutput {
  ok: boolean;
  summary: Summary;
  version: number;
  format?: string;
  checksum?: string;
  segments?: number;
}

/** Intent is an instruction as understood. */
export interface Intent {
  only: Clause[];
  exclude: Clause[];
  prefer: Clause[];
  avoid: Clause[];
  /**
   * Unknown lists the words (as typed) that could not be grounded in the
   * catalog, in order, each once.
   */
  unknown: string[];
  /** Conflicts explains each contradiction and how it was settled. */
  conflicts: string[];
  /**
   * Notes say what else the reader should know (an empty instruction, a
   * negation with nothing after it, an "only" that could not be grounded).
   */
  notes: string[];
  /**
   * Hints are the words, as typed, that the ranker used only as hints
   * (word similarity), never as a match: the negated words not
   * understood and those grounded only in an inferred facet. Set by the
   * ranker (pkg/rank), which decides whether hints are used.
   */
  hints?: string[];
}

/**
 * LLMConfig is the host's LLM configuration as the module applies it
 * (llm_steps, llm_model): the steps that ask the model, and the measured
 * settings of the model named (llm.ForModel), so that a host can say which
 * steps are on and why.
 */
export interface LLMConfig {
  /**
   * Steps are the steps that ask the host's LLM, in the order of
   * LLMSteps; empty when none does.
   */
  steps: string[];
  /**
   * Model is the measured model whose settings apply ("smollm2-135m-
   * instruct"), or "" for a model nothing was measured with (or none).
   */
  model?: string;
  /**
   * Helps are the steps measured to help with that model: the default
   * when the host names no steps. Empty for every model measured so far.
   */
  helps: string[];
  /** Measured says where the figures behind Helps are. */
  measured?: string;
  /** Prompts is the prompt profile: "full" or "compact". */
  prompts: string;
}

/** LoadCatalogOutput describes the catalog load_catalog loaded. */
export interface LoadCatalogOutput {
  dataset: string;
  dim: number;
  /**
   * Facets types each metadata column: what an instruction can ask of
   * it (a list's values one by one, a number's range).
   */
  facets: CatalogFacet[];
  format_version: number;
  items: number;
  meta: string[];
  ok: boolean;
}

/**
 * MaintainInput is the input of maintain and plan: the time (default the
 * memory's clock), the scheduler ("fixed", the default, or "planner") and
 * whether to maintain even when the scheduler would wait.
 */
export interface MaintainInput {
  now?: number;
  scheduler?: 'fixed' | 'planner';
  force?: boolean;
}

/**
 * MaintainOutput is a maintenance decision, the entries it applied, the
 * memory's summary and the outcomes of LLM steps.
 */
export interface MaintainOutput {
  scheduler: string;
  decision: string;
  reason: string;
  ops: Entry[];
  summary: Summary;
  llm?: Outcome[];
}

/**
 * Maintenance reports a scheduler's decision and the journal entries its ops
 * wrote (none when it waits).
 */
export interface Maintenance {
  scheduler: string;
  decision: string;
  reason: string;
  ops: Entry[];
}

/**
 * MemoryView is the output of get_memory: the three tiers, the newest
 * journal entries (oldest first), the parameters, and the preferences the
 * user deleted (absent when none).
 */
export interface MemoryView {
  clock: number;
  config: Config;
  counters: Counters;
  events: Event[];
  chunks: Chunk[];
  profile: Profile;
  journal: Entry[];
  tombstones?: Tombstone[];
}

/**
 * Model is a linear ranker over named features, each standardized:
 * 
 * 	score(x) = bias + Σ_i weight_i · (x_i - mean_i) / scale_i
 * 
 * Training fits it as a logistic regression of "the unit is evidence"
 * (TrainLogistic), so the score is a log-odds; selection only needs its order.
 * A model names its features, so a model trained on a subset (an ablation)
 * runs unchanged.
 */
export interface Model {
  /** "linear" */
  kind: string;
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** kind "gbdt": score = bias + Σ trees */
  trees?: Tree[];
  /** kind "ensemble": rank fusion of linear and gbdt parts */
  parts?: Model[];
  note?: string;
}

/**
 * Op is one lifecycle operation, as a planner, an LLM or a user's edit gives
 * it to State.Apply. Which fields an op takes:
 * 
 * 	extract     (none): run the Extractor over the pending events, or over
 * 	            the pending events listed in events
 * 	extract     category, text [, key, polarity, strength, events]: add this
 * 	            chunk (key defaults to the salient words of text, polarity to
 * 	            "likes", strength to Config.InitialStrength)
 * 	boost       chunk or chunks [, events]: strength += delta_plus, evidence+1
 * 	demote      chunk or chunks [, events]: strength -= delta_minus, evidence+1
 * 	merge       chunks (2 or more, one category and polarity) [, text]: the
 * 	            first survives
 * 	forget      chunk or chunks: only when the forget rule holds, unless the
 * 	            trigger is "user"
 * 	synthesize  (none): rebuild the profile
 * 	edit        chunk, text and/or strength (trigger "user" only)
 * 	delete      chunk or chunks (trigger "user" only)
 * 	avoid       category, key [, text, strength, aliases] (trigger "user"
 * 	            only): a standing wish never to be shown something ("never
 * 	            show me Halo"): a stated "avoids" chunk, strength 1 unless
 * 	            given; a chunk of that category and key already there is
 * 	            turned into it
 * 	add         text [, category, key, polarity, strength, aliases] (trigger
 * 	            "user" only): a preference the user states ("likes racing",
 * 	            "avoids Nintendo"; see ParseStated), a stated chunk of
 * 	            strength 1 unless given, in the topic category unless given;
 * 	            a chunk of that category and key is turned into it
 * 
 * Reason is optional everywhere; when given it is what the journal records.
 */
export interface Op {
  op: 'extract' | 'boost' | 'demote' | 'merge' | 'forget' | 'synthesize' | 'edit' | 'delete' | 'avoid' | 'add';
  chunk?: string;
  chunks?: string[];
  category?: string;
  key?: string;
  polarity?: 'likes' | 'avoids';
  text?: string;
  strength?: number;
  events?: string[];
  /**
   * Aliases are other keys the chunk is about ("avoids Nintendo": each
   * Nintendo platform), for add and avoid.
   */
  aliases?: string[];
  reason?: string;
}

/**
 * Outcome records what became of one LLM step: "accepted", or "fallback"
 * with the reason the answer was not used and the check it failed (judge.go:
 * exchange, format, refusal, placeholder, example_copy, repetition,
 * unsupported, title_copy, verbatim_copy, unknown_id, rule, state).
 */
export interface Outcome {
  purpose: 'extract' | 'plan' | 'synthesize' | 'rank' | 'parse';
  status: 'accepted' | 'fallback';
  reason?: string;
  check?: string;
}

/**
 * PhasesOutput is where the last call's time went, when the host gave the
 * engine a clock: the export timed and its phases in the order they first
 * ended, each with its nanoseconds (docs/phases.md names them). Without a
 * clock, the default, both are empty.
 */
export interface PhasesOutput {
  export: string;
  phases: Span[];
}

/** Profile is the synthesized narrative and what it was built from. */
export interface Profile {
  version: number;
  time: number;
  text: string;
  built_from: ChunkRef[];
  rising: string[];
  fading: string[];
}

/** PurgeInput is the input of purge: a session, a user or both. */
export interface PurgeInput {
  session?: string;
  user?: string;
}

/** PurgeOutput counts the units purged and the store's size after. */
export interface PurgeOutput {
  purged: number;
  units: number;
  sessions: number;
}

/** RankContext is how much of the user's memory a ranking read. */
export interface RankContext {
  chunks: number;
  events: number;
  profile: boolean;
}

/**
 * RankInput is the input of rank: candidate items (ids, or {id, meta} for
 * items the catalog does not know), an instruction, and how many to keep
 * (0: all).
 */
export interface RankInput {
  candidates: (string | { id: string; meta?: Record<string, string | string[]> })[];
  /**
   * Instruction is nil when the input has none: the output then has no
   * "understood", "kept" or "relaxed" keys.
   */
  instruction?: string;
  k?: number;
}

/**
 * RankOutput is rank's output: the ranking, best first, each item with its
 * score and explanation; the ranker and its effective weights; how much of
 * the memory the ranking read (context); and the LLM's outcomes when π_rank
 * was asked.
 * 
 * With an instruction it also has kept (the candidates that met its hard
 * constraints), relaxed (the constraints dropped because none did; empty
 * when none was), understood (the parsed intent) and each item's meets.
 */
export interface RankOutput {
  context: RankContext;
  kept?: number;
  llm?: Outcome[];
  llm_calls: number;
  ranker: string;
  ranking: Ranked[];
  relaxed?: Relaxed[];
  understood?: Intent;
  weights: Record<string, number>;
}

/** Ranked is one ranked candidate. */
export interface Ranked {
  id: string;
  rank: number;
  score: number;
  explanation: Explanation;
  /**
   * Meets names what the item meets of the instruction, when there is
   * one ("PlayStation 4", "not Halo").
   */
  meets?: string[];
}

/**
 * RecordInput is the input of record: signals, and the scheduler that
 * maintains after them ("none", "fixed" (the default) or "planner").
 */
export interface RecordInput {
  signals: Signal[];
  maintain?: 'none' | 'fixed' | 'planner';
}

/**
 * RecordOutput is what record did: events added and evicted, the entries of
 * any maintenance, the memory's summary, and the outcomes of LLM steps.
 */
export interface RecordOutput {
  events_added: number;
  /**
   * Repeated lists the client ids of signals already recorded (in an
   * earlier call or earlier in this one): acknowledged, not recorded again.
   */
  repeated?: string[];
  evicted: string[];
  /**
   * Fifo holds the entries of extractions run because a pending event was
   * about to leave the event memory.
   */
  fifo: Entry[];
  maintenance: Maintenance;
  summary: Summary;
  llm?: Outcome[];
}

/**
 * Relaxed names a hard constraint that was dropped because no candidate met
 * every constraint, and why.
 */
export interface Relaxed {
  /** "only" or "exclude" */
  constraint: string;
  facet: string;
  value: string;
  reason: string;
}

/** Request asks for one slate. */
export interface Request {
  query: string;
  /** the request date, RFC 3339 or YYYY-MM-DD */
  date?: string;
  /** tokens (default 1000) */
  budget?: number;
  /** retrieved candidates (default 128) */
  pool?: number;
  /** see Rankers (default "learned") */
  ranker?: 'learned' | 'recency' | 'bm25' | 'dense' | 'rrf' | 'adaptive_k';
  /** replaces the embedded model */
  model?: Model;
  with_pool?: boolean;
  /**
   * Explain, when false, leaves the chosen units' matched words, why,
   * features, contributions and part scores out (the rank, score, reason
   * and hop stay): an agent that only reads the slate saves about a
   * quarter of a selection inside WebAssembly. Default (nil) true.
   */
  explain?: boolean;
}

/**
 * ResetInput is the input of reset: the memory's parameters (zero fields
 * mean the documented defaults).
 */
export interface ResetInput {
  config?: Config;
}

/** ResetOutput is the parameters the new memory has. */
export interface ResetOutput {
  config: Config;
  ok: boolean;
}

/** Result is a slate: units in chronological order, within the budget. */
export interface Result {
  ranker: string;
  budget: number;
  tokens: number;
  /** candidates ranked (retrieved plus context) */
  pool: number;
  units: Chosen[];
  pool_ids?: string[];
}

/**
 * Signal is one observation to record: user u did action a on item i, whose
 * metadata is m, at time t (unix seconds). ClientID, when set, names this
 * observation for idempotency: the client gives every action its own id and
 * sends the same id again when it retries, and a signal whose id the memory
 * has seen (State.ClientIDs) is acknowledged without being recorded again.
 */
export interface Signal {
  user: string;
  item: string;
  action: 'purchase' | 'like' | 'rate' | 'click' | 'view' | 'dislike' | 'skip';
  rating?: number;
  meta?: Record<string, string | string[]>;
  /**
   * Time is in unix seconds, 0 to 4102444799 (2099-12-31): an input, the
   * module never reads a clock.
   */
  time: number;
  /**
   * ClientID names this action for idempotency: send the same id again
   * when retrying; a signal whose id the memory has seen (the newest 256)
   * with the same content is acknowledged under "repeated" and not
   * recorded again, and one with other content is refused (an id names
   * one signal, as an idempotency key names one request).
   */
  client_id?: string;
}

/** Span is one phase of a call and the nanoseconds it took. */
export interface Span {
  name: string;
  ns: number;
}

/**
 * State is one user's belief state: the three tiers, the journal and the
 * counters that keep ids unique. It encodes to JSON deterministically: slices
 * in canonical order, and maps only where encoding/json sorts the keys.
 */
export interface State {
  config: Config;
  clock: number;
  events: Event[];
  chunks: Chunk[];
  profile: Profile;
  journal: Entry[];
  counters: Counters;
  /**
   * ClientIDs are the client ids of the newest signals that carried one,
   * oldest first, at most MaxClientIDs, each with the fingerprint of its
   * signal: a signal whose client id is listed with the same fingerprint
   * has been recorded, and is acknowledged without being recorded again; a
   * different signal under a listed id is refused.
   */
  client_ids?: (string | { id: string; signal: string })[];
  /**
   * Tombstones are the preferences the user deleted, oldest first, at
   * most MaxTombstones (see Tombstone).
   */
  tombstones?: Tombstone[];
}

/** Summary is a short account of a state's size. */
export interface Summary {
  clock: number;
  events: number;
  pending: number;
  chunks: number;
  categories: CategoryCount[];
  profile_version: number;
  journal: number;
  mutations_since_synthesis: number;
}

/**
 * Tombstone marks a preference the user deleted, so that the deletion
 * steers: extraction does not make it again from the events that were in
 * memory when it was deleted (the events numbered below Before), and the
 * ranker stops reading those events as support for it (pkg/rank). Later
 * events are new evidence and count as any other. A preference the user
 * adds again by hand lifts its tombstone.
 */
export interface Tombstone {
  /** Chunk is the id the deleted chunk had; Text what it said. */
  chunk: string;
  category: string;
  key: string;
  aliases?: string[];
  polarity: string;
  text: string;
  /**
   * Before is counters.next_event at the deletion: events e1 to
   * e(Before-1) were its evidence.
   */
  before: number;
  time: number;
}

/**
 * Tree is one regression tree of a boosted model. Nodes are stored in an
 * array; node i is a split on Feature < Threshold going to Left or Right, or a
 * leaf when Feature is -1.
 */
export interface Tree {
  /** index into Model.Features, -1 for a leaf */
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  /** leaf value (0 for splits) */
  value: number[];
}

/** Unit is one stored memory unit. */
export interface Unit {
  id: string;
  session: string;
  /** shown to the reader as written, e.g. "1:56 pm on 8 May, 2023" */
  date?: string;
  /** the same date as RFC 3339 or YYYY-MM-DD, for ordering and temporal cues */
  time?: string;
  speaker?: string;
  text: string;
  /** owner, for purging a user */
  user?: string;
  /** "" or "turn" for a dialogue turn, "record" for a write-time record */
  kind?: '' | 'turn' | 'record';
}
// END GENERATED types

// Names these declarations had before they were generated, kept so that
// code written against them still compiles.
export type LLMOutcome = Outcome;
export type RecordResult = RecordOutput;
export type RankResult = RankOutput;
export type Understood = Intent;
export type SlateRequest = Request;
export type ChosenUnit = Chosen;
export type Slate = Result;
export type UnitCounts = AddUnitsOutput | DeleteUnitsOutput | PurgeOutput;

export interface LLMRequest {
  purpose: 'extract' | 'plan' | 'synthesize' | 'rank'; user?: string;
  messages: { role: string; content: string }[]; max_tokens: number; temperature: number; response_format?: string;
}
export interface LLMResponse { text: string; input_tokens: number; output_tokens: number; error?: string }

export interface OpenOptions {
  /** a URL, a Response, a compiled module, the bytes, or (Node) a file path */
  module: URL | Response | WebAssembly.Module | Uint8Array | ArrayBuffer | string;
  /** answers llm_complete synchronously; absent: the LLM-free policies run */
  llm?: (req: LLMRequest) => LLMResponse;
  llmSteps?: ('extract' | 'plan' | 'synthesize' | 'rank')[];
  /** a saved state to restore: a JSON document (text, bytes or object) or a binary state (bytes) */
  state?: string | Uint8Array | object;
  /** a catalog asset for rank */
  catalog?: Uint8Array | string | object;
  config?: Record<string, string>;
  /**
   * at least 32 bytes: exportState returns documents sealed with it (HMAC-SHA-256), a binary state
   * sealed piece by piece, as the Go host seals them; importState opens only states sealed with it
   * (docs/state-format.md, docs/state-binary.md)
   */
  sealKey?: string | Uint8Array;
}

/** Every export: its name, its method, whether it can change the state, what it does. */
export const EXPORTS: readonly { name: string; method: string; mutates: boolean; doc: string }[];
/** The exports that never change the state. */
export const READ_ONLY: Set<string>;

export class RecmemError extends Error {
  readonly export: string;
  /** the call did not return normally; the instance runs nothing more (open a new one) */
  readonly trapped: boolean;
}

/** words any thrown value: an Error's message, a bare string as it is, anything else as JSON */
export function messageOf(err: unknown): string;

/** a packed state that cannot be unpacked; the message names the field ("state: not gzip", ...) */
export class StateError extends Error {
  /** the document is larger than the limit given to unpackState */
  readonly tooLarge: boolean;
}
/** a state document for the stateless HTTP API (docs/http.md): gzip, then base64, as the Go host packs it */
export function packState(doc: string | Uint8Array): Promise<string>;
/** the document's bytes of a packed state; throws a StateError (maxBytes defaults to 8 MiB) */
export function unpackState(packed: string, opts?: { maxBytes?: number }): Promise<Uint8Array>;
/**
 * a state's tag: "sha256:" and the hex SHA-256 of its bytes (a JSON document's UTF-8 bytes, or a bare
 * binary state), as the Go host tags it; with sealKey, the seal "hmac-sha256:..." of those bytes, as
 * `recmem serve --seal-key-file` tags its states
 */
export function stateTag(doc: string | Uint8Array, opts?: { sealKey?: string | Uint8Array }): Promise<string>;
/** why tag does not vouch for the state ('' when it does), in the words of `recmem serve` */
export function checkTag(doc: string | Uint8Array, tag: string, opts?: { sealKey?: string | Uint8Array }): Promise<string>;
/** whether bytes are a binary state (docs/state-binary.md), bare or sealed */
export function isBinaryState(state: unknown): boolean;
/** a binary state's checksum, "xxh64:" and 16 hex digits (export_state's base); '' for anything else */
export function stateChecksum(state: Uint8Array): string;
/**
 * the state to hold after exportState's binary piece, as host.AppendState: state when the piece is
 * empty, the piece when it is a whole state, else state with the segment appended
 */
export function appendState(state: Uint8Array, piece: Uint8Array): Uint8Array;

/** exportState's options for the binary state (docs/state-binary.md) */
export interface BinaryExportOptions {
  format: 'binary';
  /**
   * the binary state the caller holds (bytes, sealed or not) or its checksum: the result is then a
   * segment to append to it, a whole state to replace it, or empty bytes when nothing changed
   */
  base?: Uint8Array | string;
  /** export_state's compact_after: a whole state past this many segments (default 16) */
  compactAfter?: number;
  /** export_state's compact_ratio: a whole state when the segments pass this fraction of the base (default 0.5) */
  compactRatio?: number;
}

export interface PoolOptions extends Omit<OpenOptions, 'state'> {
  /** instances at most, each kept warm with the state it served last (default 2) */
  size?: number;
  /** an instance whose memory passes this many bytes is closed when released (default 64 MiB) */
  recycleBytes?: number;
  /** how long acquire waits for an instance while all are taken, in ms (default 10,000; Infinity: no bound) */
  waitMs?: number;
}

/** RecmemPool.acquire found no free instance within waitMs; nothing was taken */
export class PoolTimeoutError extends Error {
  name: 'PoolTimeoutError';
  waitMs: number;
}

/**
 * A few instances kept warm by the tag of the state each holds: acquiring a state whose tag matches a
 * warm instance skips the import. A cache, never the authority: a mismatch always imports, and a tag
 * covers the whole state.
 */
export class RecmemPool {
  static open(opts: PoolOptions): Promise<RecmemPool>;
  /**
   * an instance holding state (null: an empty memory); tag, when given, is the state's tag the caller
   * has checked (default: the SHA-256 of the bare state). The instance's warm is true on a hit.
   */
  acquire(state?: string | Uint8Array | object | null, opts?: { tag?: string; waitMs?: number }): Promise<Recmem>;
  /**
   * the idle instance warm under tag whose state was kept at release, with that state; null when none
   * holds it (it neither waits nor imports)
   */
  takeWarm(tag: string): { rm: Recmem; state: string | Uint8Array } | null;
  /**
   * takes the instance back, warm under tag (default: its heldTag()), keeping state (the state the
   * instance holds, as its caller holds it) for takeWarm; a trapped one is closed
   */
  release(rm: Recmem, opts?: { tag?: string | null; state?: string | Uint8Array | null }): Promise<void>;
  stats(): { hits: number; misses: number; open: number; warm: number };
  close(): Promise<void>;
}

export class Recmem {
  /** called on a subclass (or as super.open in its static open), an instance of that subclass */
  static open<T extends typeof Recmem>(this: T, opts: OpenOptions): Promise<InstanceType<T>>;
  call(name: string, input?: unknown, opts?: { text?: boolean }): Promise<any>;
  // BEGIN GENERATED methods
  /** the export names and the state document format this module writes (export exports) */
  exports(): Promise<string[]>;
  /** append signals to the event memory, then maintain with the chosen scheduler (export record) */
  record(signals: Signal[], opts?: { maintain?: 'none' | 'fixed' | 'planner' }): Promise<RecordOutput>;
  /** ask the scheduler whether to maintain now, and apply its decision (export maintain) */
  maintain(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<MaintainOutput>;
  /** what maintain would do now, applying nothing (export plan) */
  plan(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<Decision>;
  /** apply lifecycle ops (a user's edits, a planner's choices) atomically (export apply_ops) */
  applyOps(ops: Op[], opts?: { trigger?: 'user' | 'planner' | 'llm'; now?: number }): Promise<ApplyOpsOutput>;
  /** the three memory tiers, the newest journal entries and the parameters (export get_memory) */
  memory(opts?: { journalLimit?: number }): Promise<MemoryView>;
  /** load the catalog asset rank uses (binary or JSON); an asset, not user state (export load_catalog) */
  loadCatalog(catalog: string | Uint8Array | object): Promise<LoadCatalogOutput>;
  /** order candidate items for the user's memory and instruction, each score explained (export rank) */
  rank(candidates: (string | { id: string; meta?: Record<string, string | string[]> })[], opts?: { instruction?: string; k?: number }): Promise<RankOutput>;
  /** store agent-memory units (dialogue turns or records) (export add_units) */
  addUnits(units: Unit[]): Promise<AddUnitsOutput>;
  /** remove units by id, from the store and its indexes (export delete_units) */
  deleteUnits(ids: string[]): Promise<DeleteUnitsOutput>;
  /** remove a whole session, or every unit of a user (export purge) */
  purge(opts?: { session?: string; user?: string }): Promise<PurgeOutput>;
  /** choose the units that enter a context of at most budget tokens, with no LLM call (export select_slate) */
  selectSlate(request: Request): Promise<Result>;
  /** the whole state: the JSON document sealed with its checksum, or the binary state or a delta of it (export export_state) */
  exportState(): Promise<string>;
  /** replace the state with a JSON document or a binary state (a base and its segments), validated first (export import_state) */
  importState(state: string | Uint8Array | object): Promise<ImportStateOutput>;
  /** start an empty memory, with default or given parameters (export reset) */
  reset(config?: Config): Promise<ResetOutput>;
  /** where the last call's time went, phase by phase (empty unless the host gave the module a clock: config phases = on) (export phases) */
  phases(): Promise<PhasesOutput>;
  // END GENERATED methods
  /**
   * the binary state as bytes: the whole state, or with base only what changed since (a segment, a
   * whole state, or empty bytes); each piece sealed when the instance has a sealKey
   */
  exportState(opts: BinaryExportOptions): Promise<Uint8Array>;
  /** the JSON document, as text (sealed when the instance has a sealKey) */
  exportState(opts?: { format?: 'json' }): Promise<string>;
  /** importState of a state whose seal the caller has checked: JSON text or binary bytes */
  importOpened(state: string | Uint8Array): Promise<ImportStateOutput>;
  /** the tag of the state the instance last imported or exported, null if a call may have changed it since */
  heldTag(): Promise<string | null>;
  /** set by RecmemPool.acquire: the instance already held the state, nothing was imported */
  warm: boolean;
  /** the instance's linear memory in bytes (it never shrinks) */
  memoryBytes(): number;
  close(): Promise<void>;
}
