// Type declarations for recmem.js: the typed surface of the recmem module.

export interface Signal {
  user: string;
  item: string;
  action: 'purchase' | 'like' | 'click' | 'view' | 'rate' | 'dislike' | 'skip';
  rating?: number;
  meta?: Record<string, string | string[]>;
  /** unix seconds, 0 to 4102444799 (2099-12-31); time is an input, the module never reads a clock */
  time: number;
  /**
   * names this action for idempotency: send the same id again when retrying; a signal whose id the
   * memory has seen (the newest 256) is acknowledged under `repeated` and not recorded again
   */
  client_id?: string;
}

export interface Entry {
  seq: number; time: number; op: string; trigger: string;
  chunks?: string[]; events?: string[]; before?: number; after?: number; reason: string;
}

export interface Chunk {
  id: string; category: string; key: string; aliases?: string[]; polarity: 'likes' | 'avoids';
  text: string; strength: number; evidence: number; first_seen: number; last_seen: number;
  events: string[]; last_delta: number; epoch: number;
}

export interface Event {
  id: string; user: string; item: string; action: string; rating?: number;
  meta?: Record<string, string[]>; time: number; pending: boolean;
}

export interface Profile {
  version: number; time: number; text: string;
  built_from: { chunk: string; strength: number }[]; rising: string[]; fading: string[];
}

export interface LLMOutcome { purpose: string; status: 'accepted' | 'fallback'; reason?: string }

export interface Maintenance { scheduler: string; decision: 'maintain' | 'wait'; reason: string; ops: Entry[] }

/** the size of the memory after a call */
export interface Summary {
  clock: number; events: number; pending: number; chunks: number;
  categories: { category: string; chunks: number }[];
  profile_version: number; journal: number; mutations_since_synthesis: number;
}

export interface RecordResult {
  events_added: number;
  /** client ids of signals already recorded: acknowledged, not recorded again */
  repeated?: string[];
  evicted: string[]; fifo: Entry[]; maintenance: Maintenance;
  summary: Summary; llm?: LLMOutcome[];
}

/** memory.config: the parameters in force (docs/state-format.md) */
export interface Config {
  event_cap: number; k_cat: number; delta_plus: number; delta_minus: number; forget_threshold: number;
  forget_min_evidence: number; gamma: number; batch: number; initial_strength: number; support_step: number;
  max_initial_strength: number; min_support: number; min_title_support: number; min_avoid_support: number;
  chunk_events: number; journal_cap: number; merge_jaccard: number; strong_strength: number;
  stale_pending: number; stale_chunk: number; profile_max_age: number; categories: string[];
}

export interface Counters { next_event: number; next_chunk: number; next_seq: number; mutations_since_synthesis: number }

export interface Op {
  op: 'extract' | 'boost' | 'demote' | 'merge' | 'forget' | 'synthesize' | 'edit' | 'delete';
  chunk?: string; chunks?: string[]; category?: string; key?: string; polarity?: 'likes' | 'avoids';
  text?: string; strength?: number; events?: string[]; reason?: string;
}

export interface MemoryView {
  clock: number; config: Config; counters: Counters;
  events: Event[]; chunks: Chunk[]; profile: Profile; journal: Entry[];
}

export interface Explanation { value: number; message: string; children?: Explanation[] }
export interface Ranked { id: string; rank: number; score: number; explanation: Explanation }
export interface RankResult {
  /** what of the memory the ranking used */
  context: { chunks: number; events: number; profile: boolean };
  llm?: LLMOutcome[];
  /** LLM calls the ranking made (0 without the rank step) */
  llm_calls: number;
  ranker: string; ranking: Ranked[]; weights: Record<string, number>;
}

export interface Unit {
  id: string; session: string; date?: string; time?: string; speaker?: string; text: string;
  user?: string; kind?: '' | 'turn' | 'record';
}
export interface SlateRequest {
  query: string; date?: string; budget?: number; pool?: number;
  ranker?: 'learned' | 'recency' | 'bm25' | 'dense' | 'rrf' | 'adaptive_k'; with_pool?: boolean;
  /** false leaves out each unit's features, contributions and part_scores (default true). */
  explain?: boolean;
}
export interface ChosenUnit {
  id: string; session: string; line: string; tokens: number; rank: number; score: number;
  reason: 'retrieved' | 'context'; features?: Record<string, number>; contributions?: Record<string, number>;
  /** an ensemble's part scores (linear, then trees) */
  part_scores?: number[];
}
export interface Slate {
  ranker: string; budget: number; tokens: number; pool: number; units: ChosenUnit[];
  /** the candidate pool's unit ids, with `with_pool: true` */
  pool_ids?: string[];
}
export interface UnitCounts { added?: number; deleted?: number; purged?: number; units: number; sessions: number }

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
  /** a saved state document to restore */
  state?: string | object;
  /** a catalog asset for rank */
  catalog?: Uint8Array | string | object;
  config?: Record<string, string>;
  /**
   * at least 32 bytes: exportState returns documents sealed with it (HMAC-SHA-256), importState opens
   * only documents sealed with it (docs/state-format.md)
   */
  sealKey?: string | Uint8Array;
}

export class RecmemError extends Error {
  readonly export: string;
  /** the call did not return normally; the instance runs nothing more (open a new one) */
  readonly trapped: boolean;
}

/** words any thrown value: an Error's message, a bare string as it is, anything else as JSON */
export function messageOf(err: unknown): string;

export class Recmem {
  static open(opts: OpenOptions): Promise<Recmem>;
  call(name: string, input?: unknown): Promise<any>;
  record(signals: Signal[], opts?: { maintain?: 'fixed' | 'planner' | 'none' }): Promise<RecordResult>;
  maintain(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<Maintenance & { summary: Summary; llm?: LLMOutcome[] }>;
  plan(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<{ scheduler: string; decision: string; reason: string; ops: Op[] }>;
  applyOps(ops: Op[], opts?: { trigger?: 'user' | 'planner' | 'llm'; now?: number }): Promise<{ ops: Entry[]; summary: Summary; llm?: LLMOutcome[] }>;
  memory(opts?: { journalLimit?: number }): Promise<MemoryView>;
  loadCatalog(catalog: Uint8Array | string | object): Promise<{ ok: boolean; dataset: string; items: number; dim: number; meta: string[]; format_version: number }>;
  rank(candidates: (string | { id: string; meta?: Record<string, string | string[]> })[], opts?: { instruction?: string; k?: number }): Promise<RankResult>;
  addUnits(units: Unit[]): Promise<UnitCounts>;
  deleteUnits(ids: string[]): Promise<UnitCounts>;
  purge(opts: { session?: string; user?: string }): Promise<UnitCounts>;
  selectSlate(req: SlateRequest): Promise<Slate>;
  exportState(): Promise<string>;
  importState(state: string | Uint8Array | object): Promise<{ ok: boolean; version: number; summary: Summary }>;
  reset(config?: Partial<Config>): Promise<{ ok: boolean; config: Config }>;
  exports(): Promise<string[]>;
  close(): Promise<void>;
}
