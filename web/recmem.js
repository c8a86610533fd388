// recmem.js: the typed JavaScript surface of the recmem module, over
// @extism/extism. It runs unchanged in the browser, in Node and in edge
// runtimes: the core path uses only standard web APIs (no fs, no process).
//
//   import { Recmem } from 'recmem';
//   const rm = await Recmem.open({ module: new URL('/out/plugin.wasm', location.href) });
//   await rm.record([{ user: 'u1', item: 'g1', action: 'like', meta: { title: 'Halo 5' }, time: 1700000000 }]);
//   const state = await rm.exportState(); // keep it where the user is (IndexedDB, a request, a row)
//
// In a browser without a bundler, map the bare specifier with an import map:
//   <script type="importmap">{"imports":{"@extism/extism":"/node_modules/@extism/extism/dist/browser/mod.js"}}</script>
import createPlugin from '@extism/extism';

// NO_LLM answers llm_complete when no model is configured: every LLM step then
// runs its LLM-free policy (docs/llm.md).
const NO_LLM = () => ({ text: '', input_tokens: 0, output_tokens: 0, error: 'no LLM configured in this host' });

// BEGIN GENERATED exports
// Every export of the module: its name, the Recmem method that calls it,
// whether a call can change the state (hosts save the state after those),
// and what it does. Generated from pkg/engine/exports.go.
export const EXPORTS = Object.freeze([
  { name: 'exports', method: 'exports', mutates: false, doc: 'the export names and the state document format this module writes' },
  { name: 'record', method: 'record', mutates: true, doc: 'append signals to the event memory, then maintain with the chosen scheduler' },
  { name: 'maintain', method: 'maintain', mutates: true, doc: 'ask the scheduler whether to maintain now, and apply its decision' },
  { name: 'plan', method: 'plan', mutates: false, doc: 'what maintain would do now, applying nothing' },
  { name: 'apply_ops', method: 'applyOps', mutates: true, doc: 'apply lifecycle ops (a user\'s edits, a planner\'s choices) atomically' },
  { name: 'get_memory', method: 'memory', mutates: false, doc: 'the three memory tiers, the newest journal entries and the parameters' },
  { name: 'load_catalog', method: 'loadCatalog', mutates: false, doc: 'load the catalog asset rank uses (binary or JSON); an asset, not user state' },
  { name: 'rank', method: 'rank', mutates: false, doc: 'order candidate items for the user\'s memory and instruction, each score explained' },
  { name: 'add_units', method: 'addUnits', mutates: true, doc: 'store agent-memory units (dialogue turns or records)' },
  { name: 'delete_units', method: 'deleteUnits', mutates: true, doc: 'remove units by id, from the store and its indexes' },
  { name: 'purge', method: 'purge', mutates: true, doc: 'remove a whole session, or every unit of a user' },
  { name: 'select_slate', method: 'selectSlate', mutates: false, doc: 'choose the units that enter a context of at most budget tokens, with no LLM call' },
  { name: 'export_state', method: 'exportState', mutates: false, doc: 'the whole state: the JSON document sealed with its checksum, or the binary state or a delta of it' },
  { name: 'import_state', method: 'importState', mutates: true, doc: 'replace the state with a JSON document or a binary state (a base and its segments), validated first' },
  { name: 'reset', method: 'reset', mutates: true, doc: 'start an empty memory, with default or given parameters' },
  { name: 'phases', method: 'phases', mutates: false, doc: 'where the last call\'s time went, phase by phase (empty unless the host gave the module a clock: config phases = on)' },
]);
// END GENERATED exports

// READ_ONLY names the exports that never change the state: a host need not
// save the state after them.
export const READ_ONLY = new Set(EXPORTS.filter((x) => !x.mutates).map((x) => x.name));

// RecmemError is a module error: its message names the input field at fault,
// and the memory is unchanged. When trapped is true the call did not return
// normally (the module ran out of memory, a host function threw, the runtime
// faulted): the instance then refuses every later call, and a new one must be
// opened (nothing the failed call did can be exported).
//
// timedOut is true for a call cut off at its deadline (Recmem's deadline,
// set by RecmemPool from its holdMs): trapped too, the instance is
// discarded.
export class RecmemError extends Error {
  constructor(exportName, message, { trapped = false, timedOut = false } = {}) {
    super(message);
    this.name = 'RecmemError';
    this.export = exportName;
    this.trapped = trapped;
    this.timedOut = timedOut;
  }
}

const MODULE_ERROR = /^Plugin-originated error: /;

// messageOf words any thrown value: an Error's message (or its name when the
// message is empty), a bare string as it is (a WASI shim throws strings such
// as "async io not supported"), anything else as JSON or String().
export function messageOf(err) {
  if (err instanceof Error) return err.message || err.name || String(err);
  if (typeof err === 'string') return err;
  try {
    const j = JSON.stringify(err);
    if (j !== undefined) return j;
  } catch { /* fall through */ }
  return String(err);
}

// llmConfig adds the LLM's manifest config keys to config: llm_steps when
// steps are named, llm_model when a model is named and an llm answers (the
// module then takes that model's measured default steps when none are
// named). An empty config value trips @extism/extism 1.0.3's config_get
// ("failed to store output"), so no key is set empty; an empty llmSteps
// with a model drops the model, whose defaults would otherwise apply.
function llmConfig(config, llm, llmSteps, llmModel) {
  const out = { ...config };
  if (llmSteps !== undefined && llmSteps !== null && !Array.isArray(llmSteps)) {
    throw new TypeError('Recmem.open: llmSteps must be an array of steps');
  }
  const named = Array.isArray(llmSteps);
  if (named && llmSteps.length) out.llm_steps = llmSteps.join(',');
  if (llm && llmModel && (!named || llmSteps.length)) out.llm_model = String(llmModel);
  return out;
}

// Recmem is one user's memory in one module instance. Calls run one at a
// time, in the order they were made.
export class Recmem {
  constructor(plugin) {
    this.plugin = plugin;
    this.queue = Promise.resolve();
    this.trap = null; // the RecmemError of the call that trapped, if any
    this.warm = false; // set by RecmemPool.acquire: the instance already held the state
    // deadline (a Date.now() time; Infinity: none) cuts off a call running
    // past it: the module's next clock reading throws, and the instance is
    // discarded (RecmemError with trapped and timedOut). Go's runtime reads
    // the clock at every garbage collection, every few milliseconds of an
    // import (workerd included). In a runtime whose clock stands still
    // between I/O (Cloudflare's hosted Workers), a call is stopped only by
    // the limits decided before it (docs/limits.md).
    this.deadline = Infinity;
  }

  // #held is the bare state (JSON text or binary bytes) the instance holds
  // as the caller holds it, when known: the state it last imported or
  // exported whole, or that state with the segments it exported since; null
  // after a call that may have changed the memory. Only what the instance
  // itself read or wrote is recorded, so a tag of #held names its memory.
  // #derived: #held was written whole from a foreign state (#foreign: a
  // binary state whose analysis the module took as written, not opened by a
  // seal) and is not its exact form: its JSON form (which analyses the text
  // afresh), or a base written after units were removed from it (#removed:
  // by a segment it imported, deleteUnits or purge), which drops the words
  // no unit names any more. It would import into another state than the
  // instance's, so it keys no warm instance.
  #held = null;
  #heldTag = null;
  #derived = false;
  #foreign = false;
  #removed = false;
  // #base is the binary state the instance last imported or exported, with
  // the segments it exported since, kept across calls that change the
  // memory: a delta against it extends it.
  #base = null;

  // open instantiates the module. module is a URL, a Response, a
  // WebAssembly.Module, bytes, or (in Node) a file path string. llm is an
  // optional synchronous function from an llm_complete request object to a
  // response object; llmSteps lists the steps that ask it, and llmModel names
  // the model behind llm (its prompt profile and the weight of its ranking;
  // with llmSteps absent, the steps measured to help with that model, and
  // none for a model nothing was measured with: docs/llm.md). state restores a
  // saved memory; catalog (bytes or a catalog object) is loaded for rank.
  // Called on a subclass of Recmem (Sub.open, or super.open in its own
  // static open), it returns an instance of that subclass, whose
  // constructor takes the plugin as Recmem's does.
  // sealKey (a string or bytes, at least 32 bytes) authenticates the state
  // documents this instance hands out and takes back, as the Go host's seal
  // does (docs/state-format.md): exportState returns the document sealed,
  // importState opens only documents sealed with this key.
  static async open({ module, llm, llmSteps, llmModel, state, catalog, config = {}, sealKey } = {}) {
    if (!module) throw new TypeError('Recmem.open: module is required');
    const seal = sealKey === undefined || sealKey === null ? null : await Seal.withKey(sealKey);
    const answer = llm || NO_LLM;
    const poll = new WasiPoll();
    const plugin = await createPlugin(manifestOf(module), {
      useWasi: true,
      config: llmConfig(config, llm, llmSteps, llmModel),
      functions: {
        // WASI shims in browsers and edge runtimes throw on poll_oneoff
        // (see WasiPoll).
        wasi_snapshot_preview1: poll.functions(),
        'extism:host/user': {
          llm_complete(cp, offset) {
            let reply;
            try {
              reply = answer(JSON.parse(cp.read(offset).text()));
            } catch (err) {
              reply = { text: '', input_tokens: 0, output_tokens: 0, error: `llm_complete: ${err.message}` };
            }
            return cp.store(JSON.stringify(reply));
          },
        },
      },
    });
    poll.memory = (await plugin.getInstance()).exports.memory;
    // new this: a subclass's open (super.open) gets an instance of itself.
    const rm = new this(plugin);
    rm.poll = poll;
    poll.deadline = () => rm.deadline;
    rm.seal = seal;
    if (state !== undefined && state !== null) await rm.importState(state);
    if (catalog !== undefined && catalog !== null) await rm.loadCatalog(catalog);
    return rm;
  }

  // call runs any export with a JSON value (or raw JSON text or bytes) as
  // input and returns the parsed output (with text set, the output's text as
  // the module wrote it).
  call(name, input, { text: asText = false } = {}) {
    const run = async () => {
      const text = input === undefined || input === null ? '' : typeof input === 'string' ? input : input instanceof Uint8Array ? exactBytes(input) : JSON.stringify(input);
      // A call that may change the memory leaves it in no state the caller
      // holds, until the next export says which; one the module refuses
      // leaves it as it was.
      const held = this.#held;
      if (!READ_ONLY.has(name)) this.#held = null;
      if (name === 'import_state' && isBinaryState(input)) {
        this.#foreign = true;
        this.#removed ||= hasSegments(input);
      }
      let out;
      try {
        out = await this.#invoke(name, text);
      } catch (err) {
        if (err instanceof RecmemError && !err.trapped) this.#held = held;
        throw err;
      }
      if (name === 'delete_units' || name === 'purge') this.#removed = this.#foreign;
      const result = out ? out.text() : '';
      if (asText) return result;
      return result === '' ? null : JSON.parse(result);
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // #invoke calls the plugin, turning whatever it throws into a RecmemError:
  // the module's own error (the memory is unchanged), or a trap, after which
  // the instance runs nothing more.
  async #invoke(name, text) {
    if (this.trap) {
      throw new RecmemError(name, `the module instance failed in an earlier call (${this.trap.export}: ${this.trap.message}); open a new one`, { trapped: true });
    }
    if (this.poll) this.poll.waits = 0;
    if (Date.now() > this.deadline) throw this.#cut(name);
    let out;
    try {
      out = await this.plugin.call(name, text);
    } catch (err) {
      const msg = messageOf(err);
      if (err instanceof Error && MODULE_ERROR.test(msg)) throw new RecmemError(name, msg.replace(MODULE_ERROR, ''));
      if (err instanceof DeadlineError || Date.now() > this.deadline) throw this.#cut(name);
      this.trap = new RecmemError(name, `the module failed while running ${name}: ${msg}`, { trapped: true });
      throw this.trap;
    }
    // A call that ended past the deadline without reading the clock: its
    // answer is not given, and the instance serves no one again, as if it
    // had been cut off.
    if (Date.now() > this.deadline) throw this.#cut(name);
    return out;
  }

  // #cut marks the instance trapped by its deadline and returns the error.
  #cut(name) {
    this.trap = new RecmemError(name, `${name}: cut off at its deadline; the instance was discarded, and nothing it did can be exported`, { trapped: true, timedOut: true });
    return this.trap;
  }

  // One method per export (generated from pkg/engine/exports.go by
  // `go generate ./pkg/engine`; EXPORTS lists them), but exportState and
  // importState, written below because they seal the state document.
  // BEGIN GENERATED methods
  // exports: the export names and the state document format this module writes.
  exports() { return this.call('exports').then((out) => out.exports); }
  // record: append signals to the event memory, then maintain with the chosen scheduler.
  record(signals, { maintain } = {}) { return this.call('record', { signals, maintain }); }
  // maintain: ask the scheduler whether to maintain now, and apply its decision.
  maintain({ now, scheduler = 'fixed', force = false } = {}) { return this.call('maintain', { now, scheduler, force }); }
  // plan: what maintain would do now, applying nothing.
  plan({ now, scheduler = 'planner', force = false } = {}) { return this.call('plan', { now, scheduler, force }); }
  // apply_ops: apply lifecycle ops (a user's edits, a planner's choices) atomically.
  applyOps(ops, { trigger = 'user', now } = {}) { return this.call('apply_ops', { ops, trigger, now }); }
  // get_memory: the three memory tiers, the newest journal entries and the parameters.
  memory({ journalLimit = 0 } = {}) { return this.call('get_memory', { journal_limit: journalLimit }); }
  // load_catalog: load the catalog asset rank uses (binary or JSON); an asset, not user state.
  loadCatalog(catalog) { return this.call('load_catalog', catalog); }
  // rank: order candidate items for the user's memory and instruction, each score explained.
  rank(candidates, { instruction, k } = {}) { return this.call('rank', { candidates, instruction, k }); }
  // add_units: store agent-memory units (dialogue turns or records).
  addUnits(units) { return this.call('add_units', { units }); }
  // delete_units: remove units by id, from the store and its indexes.
  deleteUnits(ids) { return this.call('delete_units', { ids }); }
  // purge: remove a whole session, or every unit of a user.
  purge({ session, user } = {}) { return this.call('purge', { session, user }); }
  // select_slate: choose the units that enter a context of at most budget tokens, with no LLM call.
  selectSlate(request) { return this.call('select_slate', request); }
  // reset: start an empty memory, with default or given parameters.
  reset(config) { return this.call('reset', { config }); }
  // phases: where the last call's time went, phase by phase (empty unless the host gave the module a clock: config phases = on).
  phases() { return this.call('phases'); }
  // END GENERATED methods

  // exportState returns the state. With no options (or format "json") it
  // is the JSON document (docs/state-format.md), as text exactly as the
  // module wrote it. With format "binary" it is the binary state
  // (docs/state-binary.md) as bytes: the whole state, or with base (the
  // binary state the caller holds, as bytes, or its checksum "xxh64:...")
  // only what changed since base: a segment to append to it, a whole state
  // to replace it (compaction, or an instance that does not hold base), or
  // empty bytes when nothing changed; appendState applies any of the three.
  // compactAfter and compactRatio are export_state's compact_after and
  // compact_ratio. With a sealKey, the document, or each binary piece, is
  // sealed as the Go host seals it. Cost: linear in what is written.
  async exportState({ format = 'json', base, compactAfter, compactRatio } = {}) {
    if (format !== 'json' && format !== 'binary') throw new RecmemError('export_state', `format: want "json" or "binary", got ${JSON.stringify(format)}`);
    if (format === 'json' && (base !== undefined || compactAfter !== undefined || compactRatio !== undefined)) {
      throw new RecmemError('export_state', 'base: only with the binary format ({format: "binary"})');
    }
    let sum;
    if (base !== undefined && base !== null) {
      sum = typeof base === 'string' ? base : stateChecksum(base);
      if (!sum) throw new RecmemError('export_state', 'base: not a binary state (nor its "xxh64:" checksum)');
    }
    const run = async () => {
      if (format === 'json') {
        const doc = (await this.#invoke('export_state', '')).text();
        this.#hold(doc, this.#foreign);
        return this.seal ? this.seal.seal(doc) : doc;
      }
      const input = JSON.stringify({ format, base: sum, compact_after: compactAfter, compact_ratio: compactRatio });
      const out = await this.#invoke('export_state', input);
      const piece = out ? new Uint8Array(out.bytes()) : new Uint8Array(0);
      // A segment appended to the bytes held (or nothing) keeps them exact
      // when they were; a whole state is derived from a foreign one.
      if (piece.length > 0 && isBase(piece)) this.#hold(piece, this.#foreign && this.#removed);
      else if (this.#base !== null && stateChecksum(this.#base) === sum) this.#hold(appendState(this.#base, piece), this.#derivedBase);
      else this.#hold(null);
      return this.seal && piece.length > 0 ? this.seal.sealPieces(piece) : piece;
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // importState replaces the memory with a state: a JSON document (text,
  // its UTF-8 bytes, or the parsed object) or a binary state (bytes: a base
  // and its segments, as exportState and appendState give them). With a
  // sealKey only states sealed with it are taken (each binary piece
  // sealed). A refused state leaves the memory as it was.
  async importState(state) {
    let bare;
    try {
      bare = await openState(this.seal, state);
    } catch (err) {
      throw new RecmemError('import_state', messageOf(err));
    }
    return this.importOpened(bare, { trusted: this.seal !== null });
  }

  // importOpened is importState of a state already opened (its seal checked
  // by the caller, as openState does): JSON text or binary bytes. trusted
  // says the caller knows the bytes are a state this module wrote (a seal,
  // or a tag only its server computes, checked): a binary state that is not
  // trusted is foreign, its analysis taken as written, and a whole state
  // written from it keys no warm instance (issue 22).
  importOpened(bare, { trusted = false } = {}) {
    const run = async () => {
      const held = this.#held;
      this.#held = null;
      let out;
      try {
        out = await this.#invoke('import_state', typeof bare === 'string' ? bare : exactBytes(bare));
      } catch (err) {
        if (err instanceof RecmemError && !err.trapped) this.#held = held; // refused: as it was
        throw err;
      }
      this.#base = null;
      this.#foreign = !trusted && isBinaryState(bare);
      this.#removed = this.#foreign && hasSegments(bare);
      this.#hold(bare, false);
      const text = out ? out.text() : '';
      return text === '' ? null : JSON.parse(text);
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // heldTag is the tag (stateTag) of the state the instance holds as its
  // caller holds it, the state it last imported or exported; null when a
  // call since may have changed the memory, or when those bytes were
  // written whole from a foreign state (they would import into another
  // state). RecmemPool keeps instances warm under the tag of heldState.
  async heldTag() {
    const held = this.heldState();
    if (held === null) return null;
    this.#heldTag ??= await stateTag(held);
    return this.#heldTag;
  }

  // heldState is the state (JSON text or binary bytes) whose import gives
  // exactly this instance's state, as its caller holds it, or null.
  heldState() { return this.#derived ? null : this.#held; }

  // #hold records the state the caller holds after an import or export:
  // derived when it was written whole from a foreign state.
  #hold(state, derived = false) {
    this.#held = state;
    this.#heldTag = null;
    this.#derived = state !== null && derived;
    if (state instanceof Uint8Array) [this.#base, this.#derivedBase] = [state, this.#derived];
  }

  #derivedBase = false;

  // memoryBytes is the size of the instance's linear memory. It never
  // shrinks: a host that reuses instances closes one that has grown past
  // what it wants to keep (the Go host recycles past half its cap).
  memoryBytes() { return this.poll?.memory?.buffer.byteLength ?? 0; }
  close() { return this.plugin.close(); }
}

// RecmemPool is a few module instances that stay warm: each instance it
// takes back keeps the state it holds, keyed by that state's tag, and a
// later acquire of a state with the same tag gets that instance without
// importing anything. It is a cache, never the authority: the state the
// caller brings is the truth, the pool computes every tag itself from the
// bytes (their SHA-256, or their HMAC under tagKey) and never takes one
// from its caller unchecked, and an instance is kept warm only under bytes
// whose import gives exactly its state, so that two callers meet on one
// instance only when they bring the same bytes. The least recently used
// warm instance is the one reused for another state. Instances serve one
// caller at a time; acquire waits while all are taken.
export class RecmemPool {
  // open makes a pool of at most size instances (default 2), opened as
  // needed with Recmem.open's options (module, llm, llmSteps, catalog,
  // config, sealKey). An instance whose memory grows past recycleBytes
  // (default 64 MiB) is closed when taken back (its memory never shrinks),
  // and so is one that trapped. waitMs bounds how long acquire waits for an
  // instance while all size are taken (default 10,000 ms, as recmem serve's
  // request timeout; Infinity waits for ever). holdMs bounds how long one
  // acquire may hold an instance, its import and its calls (default 10,000
  // ms; Infinity: no bound): a call past it is cut off (Recmem.deadline)
  // and the instance discarded. tagKey (a string or bytes, at least 32),
  // when set, makes the tags HMACs under it, as a server with a seal key
  // tags its states (`recmem serve --seal-key-file`, the Worker's
  // RECMEM_SEAL_KEY); a state acquired with such a tag, checked, is one the
  // server sealed, so its analysis is trusted.
  static async open({ size = 2, recycleBytes = 64 << 20, waitMs = 10000, holdMs = 10000, tagKey, ...options } = {}) {
    if (!options.module) throw new TypeError('RecmemPool.open: module is required');
    if (!Number.isInteger(size) || size < 1) throw new TypeError(`RecmemPool.open: size must be a whole number of at least 1, not ${size}`);
    checkWait('RecmemPool.open', waitMs);
    checkWait('RecmemPool.open', holdMs, 'holdMs');
    const seal = options.sealKey === undefined || options.sealKey === null ? null : await Seal.withKey(options.sealKey);
    const tagger = tagKey === undefined || tagKey === null ? null : await Seal.withKey(tagKey);
    const pool = new RecmemPool(options, size, recycleBytes, seal, waitMs);
    pool.holdMs = holdMs;
    pool.tagger = tagger;
    return pool;
  }

  constructor(options, size, recycleBytes, seal, waitMs = 10000) {
    this.options = options;
    this.size = size;
    this.recycleBytes = recycleBytes;
    this.seal = seal;
    this.waitMs = waitMs;
    this.holdMs = 10000;
    this.tagger = null; // a Seal: tags are HMACs under its key
    this.idle = []; // {rm, tag, clean, state}, the least recently used first
    this.open = 0; // instances opened and not closed, idle or taken
    this.waiters = [];
    this.hits = 0;
    this.misses = 0;
    this.tags = new WeakMap(); // the tags of states (bytes) this pool computed
  }

  // tag is the tag the pool keys a state by (text or bytes): "sha256:" and
  // its hex SHA-256, or with tagKey its seal, "hmac-sha256:..." (as
  // stateTag gives them). Linear in the state; the tag of the same bytes
  // (the same Uint8Array) is computed once.
  async tag(state) {
    const cached = typeof state === 'object' && state !== null ? this.tags.get(state) : undefined;
    if (cached !== undefined) return cached;
    const bytes = typeof state === 'string' ? new TextEncoder().encode(state) : state;
    const tag = this.tagger ? await this.tagger.sum(bytes) : await stateTag(bytes);
    if (typeof state === 'object') this.tags.set(state, tag);
    return tag;
  }

  // acquire returns an instance holding state (a state importState takes,
  // sealed when the pool has a sealKey), or an empty memory for null. Its
  // warm property tells whether the import was skipped. The pool computes
  // the state's tag (RecmemPool.tag); tag, when given, is the tag the
  // caller was given with the state (a server's request), and must be that
  // tag, else a RecmemError ("tag: does not match the state ...") and
  // nothing is taken. A state the module refuses throws the RecmemError,
  // and no instance is taken. While all size instances are taken, acquire
  // waits for a release, at most waitMs (default the pool's, 10,000 ms),
  // then throws a PoolTimeoutError and takes nothing. The instance is held
  // until deadline (a Date.now() time, default holdMs from now): an import
  // or call past it is cut off. Cost: the state is hashed; a miss imports it.
  async acquire(state = null, { tag, waitMs = this.waitMs, deadline } = {}) {
    checkWait('RecmemPool.acquire', waitMs);
    let bare = null;
    let trusted = this.seal !== null;
    if (state !== null && state !== undefined) {
      try {
        bare = await openState(this.seal, state);
      } catch (err) {
        throw new RecmemError('import_state', messageOf(err));
      }
      const own = await this.tag(bare);
      if (tag !== undefined && tag !== null && tag !== own) {
        throw new RecmemError('import_state', 'tag: does not match the state (damaged, or not the state this tag was issued with)');
      }
      // A seal only this pool's key computes, checked: the state is one a
      // server with that key wrote.
      trusted ||= this.tagger !== null && tag === own;
      tag = own;
    } else {
      tag = null;
    }
    // The hold starts when the instance is handed out (a new one is made
    // first, outside it).
    const until = () => deadline ?? Date.now() + this.holdMs;
    let entry = null;
    if (tag !== null) {
      const i = this.idle.findIndex((e) => e.tag === tag);
      if (i >= 0) [entry] = this.idle.splice(i, 1);
    }
    if (entry) {
      this.hits++;
      entry.rm.warm = true;
      entry.rm.deadline = until();
      return entry.rm;
    }
    entry = await this.#take(Date.now() + waitMs, waitMs);
    const { rm } = entry;
    rm.warm = false;
    rm.deadline = until();
    try {
      if (bare !== null) {
        this.misses++;
        await rm.importOpened(bare, { trusted });
      } else if (!entry.clean) {
        await rm.reset();
      }
    } catch (err) {
      await this.release(rm, { tag: null });
      throw err;
    }
    return rm;
  }

  // takeWarm returns the idle instance warm under tag whose state was kept
  // when it was released (release's state), as {rm, state}, or null when no
  // idle instance holds that state with its bytes (evicted, never held, or
  // taken by another caller): it neither waits nor imports. A server that
  // takes requests naming their state by tag (docs/http.md, "base_tag")
  // answers from it. The instance is held until deadline (default holdMs
  // from now). Give the instance back with release. Cost: a look-up.
  takeWarm(tag, { deadline } = {}) {
    const i = this.idle.findIndex((e) => e.tag === tag && e.state !== null);
    if (typeof tag !== 'string' || tag === '' || i < 0) return null;
    const [entry] = this.idle.splice(i, 1);
    this.hits++;
    entry.rm.warm = true;
    entry.rm.deadline = deadline ?? Date.now() + this.holdMs;
    return { rm: entry.rm, state: entry.state };
  }

  // release takes an instance back. It stays warm under the pool's tag of
  // the state whose import gives exactly its state (Recmem.heldState: the
  // state it last imported, with the segments it exported since, or a
  // state the module wrote from text or trusted input); with none (a call
  // changed the memory and no export said how, or the bytes held were
  // written whole from a foreign state), or with tag null, its memory is
  // reset before another caller gets it. tag, when given, is the tag the
  // caller expects, checked like acquire's: another one releases the
  // instance cold. state, optional, is that state as the caller holds it
  // (the same bytes, or a JSON document's text), kept with the warm
  // instance for takeWarm: it costs the state's size per warm instance.
  async release(rm, { tag, state = null } = {}) {
    rm.deadline = Infinity;
    if (rm.trap || rm.memoryBytes() > this.recycleBytes) {
      this.open--;
      await rm.close().catch(() => {});
    } else {
      const held = rm.heldState();
      let own = held === null || tag === null ? null : await this.tag(held);
      if (tag !== undefined && tag !== own) own = null;
      if (state !== null && !sameState(state, held)) state = null;
      this.idle.push({ rm, tag: own, clean: false, state: own === null ? null : state });
    }
    const next = this.waiters.shift();
    if (next) next();
  }

  // #take returns an idle instance that holds no state worth keeping, or a
  // new one while the pool is not full, or the least recently used warm
  // one, or waits for a release until deadline (a Date.now() time).
  async #take(deadline, waitMs) {
    for (;;) {
      const cold = this.idle.findIndex((e) => e.tag === null);
      if (cold >= 0) return this.idle.splice(cold, 1)[0];
      if (this.open >= this.size && this.idle.length > 0) return this.idle.shift();
      if (this.open < this.size) {
        this.open++;
        try {
          return { rm: await Recmem.open(this.options), tag: null, clean: true, state: null };
        } catch (err) {
          this.open--;
          throw err;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new PoolTimeoutError(waitMs, this.size);
      await new Promise((resolve, reject) => {
        let timer = null;
        const wake = () => { if (timer !== null) clearTimeout(timer); resolve(); };
        if (Number.isFinite(left)) {
          timer = setTimeout(() => {
            const i = this.waiters.indexOf(wake);
            if (i >= 0) this.waiters.splice(i, 1);
            reject(new PoolTimeoutError(waitMs, this.size));
          }, left);
        }
        this.waiters.push(wake);
      });
    }
  }

  // stats counts warm hits and imports (misses) since the pool opened.
  stats() { return { hits: this.hits, misses: this.misses, open: this.open, warm: this.idle.filter((e) => e.tag !== null).length }; }

  async close() {
    const idle = this.idle.splice(0);
    this.open -= idle.length;
    await Promise.all(idle.map((e) => e.rm.close().catch(() => {})));
  }
}

// PoolTimeoutError is RecmemPool.acquire finding no free instance within
// its wait (waitMs): every instance stayed taken. Nothing was taken; the
// caller may try again later (a server answers 504 or 503).
export class PoolTimeoutError extends Error {
  constructor(waitMs, size) {
    super(`RecmemPool.acquire: waitMs: no instance was free within ${waitMs} ms (all ${size} in use); release one, try again later, or open the pool with a larger size or waitMs`);
    this.name = 'PoolTimeoutError';
    this.waitMs = waitMs;
  }
}

function checkWait(where, ms, name = 'waitMs') {
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms < 0) {
    throw new TypeError(`${where}: ${name} must be a number of milliseconds, 0 or more (Infinity: no bound), not ${ms}`);
  }
}

// sameState reports whether a and b are the same state: the same text, or
// the same bytes. Linear in the state.
function sameState(a, b) {
  if (a === b) return true;
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The stateless HTTP API's wire form of a state document (docs/http.md),
// as the Go host writes it (host.PackState, host.UnpackState,
// host.StateTag): gzip, then base64; and the document's tag. Workers and
// clients of the API use them; they need only standard web APIs
// (CompressionStream, crypto.subtle).

// StateError is a packed state that cannot be unpacked: its message names
// the field ("state: not base64", "state: not gzip", "state: truncated or
// damaged", "state: too large to serve"). tooLarge is true for the last.
export class StateError extends Error {
  constructor(message, { tooLarge = false } = {}) {
    super(message);
    this.name = 'StateError';
    this.tooLarge = tooLarge;
  }
}

// packState compresses a state document (text or its UTF-8 bytes) for the
// wire: gzip, then base64. Linear in the document.
export async function packState(doc) {
  const bytes = typeof doc === 'string' ? new TextEncoder().encode(doc) : doc;
  const gz = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  return toBase64(new Uint8Array(gz));
}

// EXPANSION_FLOOR is what a packed state may always unpack to, whatever its
// packed size (unpackState's maxExpansion): 256 KiB, as recmem serve.
export const EXPANSION_FLOOR = 256 << 10;

// unpackState reverses packState and returns the document's bytes, refusing
// a document of more than maxBytes uncompressed (default 8 MiB) before
// reading it whole, and with maxExpansion (bytes a byte of its gzip) one
// that unpacks to more than maxExpansion times its packed size, or
// EXPANSION_FLOOR, whichever is more: a server's work then grows with the
// bytes a request sends (recmem serve --max-expansion, docs/http.md).
// Linear in the document.
export async function unpackState(packed, { maxBytes = 8 << 20, maxExpansion } = {}) {
  if (typeof packed !== 'string') throw new StateError(`state: a string of base64 is required, not ${packed === null ? 'null' : typeof packed}`);
  let raw;
  try {
    raw = fromBase64(packed);
  } catch (err) {
    throw new StateError(`state: not base64: ${messageOf(err)}`);
  }
  if (raw.length < 18 || raw[0] !== 0x1f || raw[1] !== 0x8b) throw new StateError('state: not gzip: no gzip header');
  const limit = maxExpansion === undefined || maxExpansion < 0 ? maxBytes : Math.min(maxBytes, Math.max(EXPANSION_FLOOR, maxExpansion * raw.length));
  const reader = new Blob([raw]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts = [];
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.length;
      if (n > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new StateError(`state: too large to serve: the state document is more than ${maxBytes} bytes uncompressed, the most this host imports into one instance; nothing was imported`, { tooLarge: true });
      }
      if (n > limit) {
        await reader.cancel().catch(() => {});
        throw new StateError(`state: too large to serve: it unpacks to more than ${sizeWords(limit)} from ${sizeWords(raw.length)} of gzip, and this server unpacks at most ${maxExpansion} bytes a byte, or ${sizeWords(EXPANSION_FLOOR)}; nothing was imported`, { tooLarge: true });
      }
      parts.push(value);
    }
  } catch (err) {
    if (err instanceof StateError) throw err;
    throw new StateError(`state: truncated or damaged: ${messageOf(err)}`);
  }
  const doc = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    doc.set(p, at);
    at += p.length;
  }
  return doc;
}

// sizeWords writes a size as the Go host does (host.sizeWords): "812
// bytes", "524 kB", "5.4 MB" (decimal units, one decimal below 100).
function sizeWords(n) {
  const one = (x) => (x < 100 ? x.toFixed(1) : x.toFixed(0));
  if (n < 1e3) return `${n} bytes`;
  if (n < 1e6) return `${one(n / 1e3)} kB`;
  if (n < 1e9) return `${one(n / 1e6)} MB`;
  return `${one(n / 1e9)} GB`;
}

// stateTag is a state's tag: "sha256:" and the hex SHA-256 of its bytes
// (a JSON document's UTF-8 bytes, or a bare binary state, base and segments
// together), as the Go host computes it (host.StateTag). With sealKey (a
// string or bytes of at least 32) it is the seal of those bytes instead,
// "hmac-sha256:" and the hex HMAC-SHA-256, as `recmem serve
// --seal-key-file` tags its states. Linear in the state.
export async function stateTag(doc, { sealKey } = {}) {
  const bytes = typeof doc === 'string' ? new TextEncoder().encode(doc) : doc;
  if (sealKey !== undefined && sealKey !== null) return (await Seal.withKey(sealKey)).sum(bytes);
  return `sha256:${hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))}`;
}

// checkTag returns why tag does not vouch for the state doc ('' when it
// does), in the words of `recmem serve`: without sealKey the tag must be
// the state's SHA-256; with it, the seal of the state under that key
// (checked in constant time).
export async function checkTag(doc, tag, { sealKey } = {}) {
  const bytes = typeof doc === 'string' ? new TextEncoder().encode(doc) : doc;
  if (sealKey === undefined || sealKey === null) {
    return tag === await stateTag(bytes) ? '' : 'tag: does not match the state (damaged, or not the state this tag was issued with)';
  }
  const mac = Seal.parse(typeof tag === 'string' ? tag : '');
  if (!mac) return 'tag: this server seals its states (hmac-sha256:...); a state without the seal it was given is refused';
  if (!(await (await Seal.withKey(sealKey)).verify(mac, bytes))) {
    return 'tag: does not match the state\'s seal (changed after it was sealed, or sealed with another key)';
  }
  return '';
}

// The binary state (docs/state-binary.md) is a base piece and the segments
// that followed it, concatenated. A piece is a 32-byte header (bytes 0-3
// "RMSB", byte 5 its kind, B a base or S a segment, bytes 8-11 the body's
// length), the body and an 8-byte checksum (XXH64, little-endian); the
// checksum of a state is its last piece's. Sealed, each piece has its seal
// line before it.
const PIECE_HEADER = 32;
const PIECE_TRAILER = 8;
const SEAL_LINE = 12 + 64 + 1; // "hmac-sha256:", 64 hex digits, "\n"

function isBare(b, at = 0) {
  return b.length >= at + 4 && b[at] === 0x52 && b[at + 1] === 0x4d && b[at + 2] === 0x53 && b[at + 3] === 0x42;
}

function isSealLine(b, at = 0) {
  if (b.length < at + SEAL_LINE) return false;
  for (let i = 0; i < 12; i++) if (b[at + i] !== Seal.PREFIX.charCodeAt(i)) return false;
  return true;
}

// isBinaryState reports whether state is a binary state, bare or sealed
// (and not a JSON document).
export function isBinaryState(state) {
  if (!(state instanceof Uint8Array)) return false;
  return isBare(state) || (isSealLine(state) && state[SEAL_LINE - 1] === 0x0a && isBare(state, SEAL_LINE));
}

// hasSegments reports whether a bare binary state has a segment after its
// base.
function hasSegments(state) {
  try {
    return isBare(state) && pieceLen(state, 0) < state.length;
  } catch {
    return false;
  }
}

// isBase reports whether a piece (bare or sealed) is a base, a whole state.
function isBase(piece) {
  const at = isBare(piece) ? 0 : SEAL_LINE;
  return isBare(piece, at) && piece.length > at + 5 && piece[at + 5] === 0x42;
}

// stateChecksum is a binary state's checksum, "xxh64:" and 16 hex digits,
// as export_state's base takes it (the last piece's checksum); '' for
// anything else. Constant time.
export function stateChecksum(state) {
  if (!isBinaryState(state) || state.length < PIECE_HEADER + PIECE_TRAILER) return '';
  let s = 'xxh64:';
  for (let i = state.length - 1; i >= state.length - PIECE_TRAILER; i--) s += state[i].toString(16).padStart(2, '0');
  return s;
}

// appendState returns the state a caller holds after exportState's piece
// ({format: 'binary', base}), as host.AppendState does: state itself when
// piece is empty (nothing changed), piece alone when it is a whole state (a
// base), else state with the segment appended. Sealed states and pieces
// work the same way. Linear in the result; state is never changed.
export function appendState(state, piece) {
  if (!piece || piece.length === 0) return state;
  if (isBase(piece)) return piece;
  const out = new Uint8Array(state.length + piece.length);
  out.set(state, 0);
  out.set(piece, state.length);
  return out;
}

// pieceLen is the length of the bare piece at b[at], or throws when b
// does not hold a whole one there.
function pieceLen(b, at) {
  if (b.length - at < PIECE_HEADER + PIECE_TRAILER || !isBare(b, at)) throw new Error('state: not a binary state piece');
  const n = PIECE_HEADER + new DataView(b.buffer, b.byteOffset + at + 8, 4).getUint32(0, true) + PIECE_TRAILER;
  if (n > b.length - at) throw new Error(`state: truncated piece: ${b.length - at} bytes of ${n}`);
  return n;
}

function concat(parts, n) {
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// openState returns the bare form of a state given to importState: a JSON
// document's text, or a binary state's bytes, its seals (one per piece)
// checked and removed when seal is set.
async function openState(seal, state) {
  if (state instanceof ArrayBuffer) state = new Uint8Array(state);
  if (state instanceof Uint8Array) {
    if (isBinaryState(state)) return seal ? seal.openPieces(state) : state;
    state = new TextDecoder().decode(state);
  } else if (typeof state !== 'string') {
    state = JSON.stringify(state);
  }
  return seal ? seal.open(state) : state;
}

function hex(b) {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i].toString(16).padStart(2, '0');
  return s;
}

// toBase64 and fromBase64 use the engine's Uint8Array base64 methods where
// it has them (recent V8, so workerd and Deno), else btoa and atob by
// chunks (Node 20).
function toBase64(b) {
  if (typeof b.toBase64 === 'function') return b.toBase64();
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(s) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s);
  const bin = atob(s);
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
  return b;
}

// Seal is pkg/seal in JavaScript: HMAC-SHA-256 of a document's UTF-8 bytes
// under a key the host holds, written as the line "hmac-sha256:<64 hex>"
// before the document. WebCrypto does the work (crypto.subtle, in browsers,
// Node 20 and edge runtimes).
class Seal {
  static PREFIX = 'hmac-sha256:';
  static keys = new Map(); // imported keys by their bytes in hex, a few per process

  constructor(key) { this.key = key; }

  static async withKey(key) {
    const raw = typeof key === 'string' ? new TextEncoder().encode(key) : new Uint8Array(key);
    if (raw.length < 32) throw new TypeError(`Recmem.open: sealKey is ${raw.length} bytes, fewer than 32`);
    const id = hex(raw);
    let seal = Seal.keys.get(id);
    if (!seal) {
      seal = new Seal(await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
      if (Seal.keys.size >= 8) Seal.keys.clear();
      Seal.keys.set(id, seal);
    }
    return seal;
  }

  // parse returns the MAC of a seal line ("hmac-sha256:<64 hex>"), or null.
  static parse(line) {
    if (!line.startsWith(Seal.PREFIX) || !/^[0-9a-f]{64}$/.test(line.slice(Seal.PREFIX.length))) return null;
    const h = line.slice(Seal.PREFIX.length);
    const mac = new Uint8Array(32);
    for (let i = 0; i < 32; i++) mac[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
    return mac;
  }

  // sum is the seal line of bytes, without its newline.
  async sum(bytes) {
    return `${Seal.PREFIX}${hex(new Uint8Array(await crypto.subtle.sign('HMAC', this.key, bytes)))}`;
  }

  verify(mac, bytes) { return crypto.subtle.verify('HMAC', this.key, mac, bytes); }

  async seal(doc) {
    return `${await this.sum(new TextEncoder().encode(doc))}\n${doc}`;
  }

  // open returns the document of a sealed text, or throws the same messages
  // as the Go host.
  async open(text) {
    const nl = text.indexOf('\n');
    const mac = Seal.parse(nl < 0 ? '' : text.slice(0, nl));
    if (!mac) throw new Error('seal: missing (this host only accepts documents it sealed)');
    const doc = text.slice(nl + 1);
    if (!(await this.verify(mac, new TextEncoder().encode(doc)))) {
      throw new Error('seal: does not match the document (changed after it was sealed, or sealed with another key)');
    }
    return doc;
  }

  // sealPieces seals every piece of a bare binary state, as the Go host
  // does (each piece after its own seal line). Linear in the state.
  async sealPieces(bare) {
    const parts = [];
    let n = 0;
    for (let at = 0; at < bare.length;) {
      const len = pieceLen(bare, at);
      const piece = bare.subarray(at, at + len);
      const line = new TextEncoder().encode(`${await this.sum(piece)}\n`);
      parts.push(line, piece);
      n += line.length + len;
      at += len;
    }
    return concat(parts, n);
  }

  // openPieces checks the seal of every piece of a sealed binary state and
  // returns the bare state, or throws as the Go host does.
  async openPieces(sealed) {
    const parts = [];
    let n = 0;
    for (let at = 0; at < sealed.length;) {
      if (!isSealLine(sealed, at) || sealed[at + SEAL_LINE - 1] !== 0x0a) throw new Error('seal: missing (this host only accepts documents it sealed)');
      const mac = Seal.parse(new TextDecoder().decode(sealed.subarray(at, at + SEAL_LINE - 1)));
      if (!mac) throw new Error('seal: missing (this host only accepts documents it sealed)');
      at += SEAL_LINE;
      const len = pieceLen(sealed, at);
      const piece = sealed.subarray(at, at + len);
      if (!(await this.verify(mac, piece))) {
        throw new Error('seal: does not match the document (changed after it was sealed, or sealed with another key)');
      }
      parts.push(piece);
      n += len;
      at += len;
    }
    return concat(parts, n);
  }
}

// WasiPoll answers the module's WASI poll_oneoff without blocking or
// throwing. Go's runtime polls (with a zero timeout) while a garbage
// collection finishes, and the WASI shims of browsers and edge runtimes throw
// the bare string "async io not supported" there, which broke the instance
// (issue 17, item 9). Here every subscription fires at once: a clock is
// reported elapsed, a file read or write (which the module never asks for)
// answers ENOTSUP. A wait on a clock that is not yet due can then only
// repeat; after maxWaits such waits in one call the poll fails with a message
// instead of spinning (an edge runtime's clock stands still during a
// request). Layouts are WASI preview 1's: a subscription is 48 bytes, an
// event 32.
//
// It also answers clock_time_get, from performance.now(), and there stops a
// call running past its instance's deadline (Recmem.deadline): Go's runtime
// reads the clock at every garbage collection, every few milliseconds of a
// call that allocates, so the DeadlineError thrown there unwinds the call
// soon after its deadline.
class WasiPoll {
  constructor() {
    this.memory = null; // the module's memory, set once instantiated
    this.waits = 0; // polls on a clock not due, in the current call
    this.deadline = () => Infinity; // the instance's deadline (Recmem.deadline)
  }

  static maxWaits = 100000;

  // check throws a DeadlineError once the deadline has passed.
  check() {
    if (Date.now() > this.deadline()) throw new DeadlineError();
  }

  // functions are the WASI functions the instance takes from this
  // WasiPoll: poll_oneoff, and where clockHook works, clock_time_get and
  // OWNER (which names this WasiPoll to the hook).
  functions() {
    const ENOTSUP = 58;
    const EINVAL = 28;
    const origin = BigInt(Math.round(performance.timeOrigin * 1e6));
    const clock = {
      [OWNER]: () => this,
      // The instance's memory is known before its initialisation reads
      // the clock (clockHook), so this clock answers from the start.
      clock_time_get: (_cp, id, _precision, ptr) => {
        if (id > 3) return EINVAL;
        this.check();
        const now = BigInt(Math.round(performance.now() * 1e6));
        // 0 is the real-time clock; the monotonic and CPU clocks count
        // from the page's (or process's) start.
        new DataView(this.memory.buffer).setBigUint64(Number(ptr), id === 0 ? origin + now : now, true);
        return 0;
      },
    };
    return {
      ...(clockHook() ? clock : {}),
      poll_oneoff: (_cp, inPtr, outPtr, n, neventsPtr) => {
        this.check();
        const dv = new DataView(this.memory.buffer);
        for (let i = 0; i < n; i++) {
          const sub = inPtr + 48 * i;
          const ev = outPtr + 32 * i;
          const tag = dv.getUint8(sub + 8);
          dv.setBigUint64(ev, dv.getBigUint64(sub, true), true);
          dv.setUint16(ev + 8, tag === 0 ? 0 : ENOTSUP, true);
          dv.setUint8(ev + 10, tag);
          dv.setBigUint64(ev + 16, 0n, true);
          dv.setUint16(ev + 24, 0, true);
          if (tag === 0 && dv.getBigUint64(sub + 24, true) > 0n && ++this.waits > WasiPoll.maxWaits) {
            throw new Error(`poll_oneoff: the module waited on a clock ${WasiPoll.maxWaits} times in one call; a sleep cannot block here`);
          }
        }
        dv.setUint32(neventsPtr, n, true);
        return 0;
      },
    };
  }
}

// OWNER names, among an instance's WASI imports, the function that returns
// its WasiPoll (WebAssembly ignores the imports a module does not declare).
const OWNER = 'recmem_owner';

// clockHook makes WebAssembly.instantiate give the memory of an instance
// made with a WasiPoll's imports (OWNER) to that WasiPoll as soon as the
// instance exists, before its initialisation runs, which reads the clock:
// @extism/extism instantiates and initialises in one call, and the memory
// is the module's own. Installed once, it passes every instantiation
// through unchanged. It returns false where WebAssembly.instantiate cannot
// be replaced: instances then keep the runtime's own clock, and a deadline
// stops a call only between calls.
let hooked = null;
function clockHook() {
  if (hooked !== null) return hooked;
  const wa = globalThis.WebAssembly;
  try {
    const instantiate = wa.instantiate;
    const hook = async function instantiateWithClock(source, imports, ...rest) {
      const owner = imports?.wasi_snapshot_preview1?.[OWNER];
      if (typeof owner !== 'function') return instantiate.call(this, source, imports, ...rest);
      // The initialisation runs inside @extism/extism after this resolves;
      // the memory is set before.
      const got = await instantiate.call(this, source, imports, ...rest);
      const instance = got instanceof wa.Instance ? got : got.instance;
      owner().memory = instance.exports.memory;
      return got;
    };
    wa.instantiate = hook;
    hooked = wa.instantiate === hook;
  } catch {
    hooked = false;
  }
  return hooked;
}

// DeadlineError unwinds a call past its instance's deadline (WasiPoll).
class DeadlineError extends Error {
  constructor() {
    super('the call passed its deadline');
    this.name = 'DeadlineError';
  }
}

// exactBytes returns bytes whose buffer holds exactly them: @extism/extism
// passes a Uint8Array's whole underlying buffer, so a view (a Node Buffer
// from readFile is one, into a shared pool) would send other bytes.
function exactBytes(b) {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
}

// manifestOf turns the accepted module forms into an Extism manifest.
function manifestOf(module) {
  if (typeof WebAssembly !== 'undefined' && module instanceof WebAssembly.Module) return { wasm: [{ module }] };
  if (module instanceof URL) return { wasm: [{ url: module.href }] };
  if (module instanceof Uint8Array || module instanceof ArrayBuffer) return { wasm: [{ data: new Uint8Array(module) }] };
  if (typeof Response !== 'undefined' && module instanceof Response) return { wasm: [{ response: module }] };
  if (typeof module === 'string') return /^[a-z]+:\/\//i.test(module) ? { wasm: [{ url: module }] } : { wasm: [{ path: module }] };
  return module; // already a manifest
}
