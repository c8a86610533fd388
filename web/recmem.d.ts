// Type declarations for recmem.js: the typed surface of the recmem module.

export interface Signal {
  user: string;
  item: string;
  action: 'purchase' | 'like' | 'click' | 'view' | 'rate' | 'dislike' | 'skip';
  rating?: number;
  meta?: Record<string, string | string[]>;
  /** unix seconds; time is an input, the module never reads a clock */
  time: number;
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

export interface RecordResult {
  events_added: number; evicted: string[]; fifo: Entry[]; maintenance: Maintenance;
  summary: Record<string, unknown>; llm?: LLMOutcome[];
}

export interface Op {
  op: 'extract' | 'boost' | 'demote' | 'merge' | 'forget' | 'synthesize' | 'edit' | 'delete' | 'avoid';
  chunk?: string; chunks?: string[]; category?: string; key?: string; polarity?: 'likes' | 'avoids';
  text?: string; strength?: number; events?: string[]; reason?: string;
}

export interface MemoryView {
  clock: number; config: Record<string, unknown>; counters: Record<string, number>;
  events: Event[]; chunks: Chunk[]; profile: Profile; journal: Entry[];
}

export interface Explanation { value: number; message: string; children?: Explanation[] }
export interface Ranked {
  id: string; rank: number; score: number; explanation: Explanation;
  /** With an instruction: what the item meets of it ("PlayStation 4", "not Halo"). */
  meets?: string[];
}
/** One grounded part of an instruction (docs/instructions.md). */
export interface Clause { facet: string; value: string; text: string }
export interface Understood {
  only: Clause[]; exclude: Clause[]; prefer: Clause[]; avoid: Clause[];
  unknown: string[]; conflicts: string[]; notes: string[];
}
export interface Relaxed { constraint: 'only' | 'exclude'; facet: string; value: string; reason: string }
export interface RankResult {
  ranking: Ranked[]; ranker: string; weights: Record<string, number>;
  /** Present when the input has an instruction. */
  understood?: Understood; relaxed?: Relaxed[]; kept?: number;
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
  reason: string; features?: Record<string, number>; contributions?: Record<string, number>;
}
export interface Slate { ranker: string; budget: number; tokens: number; pool: number; units: ChosenUnit[] }
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
}

export class RecmemError extends Error {
  readonly export: string;
}

export class Recmem {
  static open(opts: OpenOptions): Promise<Recmem>;
  call(name: string, input?: unknown): Promise<any>;
  record(signals: Signal[], opts?: { maintain?: 'fixed' | 'planner' | 'none' }): Promise<RecordResult>;
  maintain(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<Maintenance & { summary: Record<string, unknown>; llm?: LLMOutcome[] }>;
  plan(opts?: { now?: number; scheduler?: 'fixed' | 'planner'; force?: boolean }): Promise<{ scheduler: string; decision: string; reason: string; ops: Op[] }>;
  applyOps(ops: Op[], opts?: { trigger?: 'user' | 'planner' | 'llm'; now?: number }): Promise<{ ops: Entry[]; summary: Record<string, unknown>; llm?: LLMOutcome[] }>;
  memory(opts?: { journalLimit?: number }): Promise<MemoryView>;
  loadCatalog(catalog: Uint8Array | string | object): Promise<{ ok: boolean; items: number }>;
  rank(candidates: (string | { id: string; meta?: Record<string, string | string[]> })[], opts?: { instruction?: string; k?: number }): Promise<RankResult>;
  addUnits(units: Unit[]): Promise<UnitCounts>;
  deleteUnits(ids: string[]): Promise<UnitCounts>;
  purge(opts: { session?: string; user?: string }): Promise<UnitCounts>;
  selectSlate(req: SlateRequest): Promise<Slate>;
  exportState(): Promise<string>;
  importState(state: string | object): Promise<{ ok: boolean; version: number }>;
  reset(config?: Record<string, unknown>): Promise<{ ok: boolean }>;
  exports(): Promise<string[]>;
  close(): Promise<void>;
}
