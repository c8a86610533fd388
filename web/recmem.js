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
export class RecmemError extends Error {
  constructor(exportName, message, { trapped = false } = {}) {
    super(message);
    this.name = 'RecmemError';
    this.export = exportName;
    this.trapped = trapped;
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

// Recmem is one user's memory in one module instance. Calls run one at a
// time, in the order they were made.
export class Recmem {
  constructor(plugin) {
    this.plugin = plugin;
    this.queue = Promise.resolve();
    this.trap = null; // the RecmemError of the call that trapped, if any
  }

  // open instantiates the module. module is a URL, a Response, a
  // WebAssembly.Module, bytes, or (in Node) a file path string. llm is an
  // optional synchronous function from an llm_complete request object to a
  // response object; llmSteps lists the steps that ask it. state restores a
  // saved memory; catalog (bytes or a catalog object) is loaded for rank.
  // sealKey (a string or bytes, at least 32 bytes) authenticates the state
  // documents this instance hands out and takes back, as the Go host's seal
  // does (docs/state-format.md): exportState returns the document sealed,
  // importState opens only documents sealed with this key.
  static async open({ module, llm, llmSteps = [], state, catalog, config = {}, sealKey } = {}) {
    if (!module) throw new TypeError('Recmem.open: module is required');
    const seal = sealKey === undefined || sealKey === null ? null : await Seal.withKey(sealKey);
    const answer = llm || NO_LLM;
    const poll = new WasiPoll();
    const plugin = await createPlugin(manifestOf(module), {
      useWasi: true,
      // An empty config value trips @extism/extism 1.0.3's config_get
      // ("failed to store output"), so llm_steps is set only when non-empty.
      config: llmSteps.length ? { ...config, llm_steps: llmSteps.join(',') } : config,
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
    const rm = new Recmem(plugin);
    rm.poll = poll;
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
      const out = await this.#invoke(name, text);
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
    try {
      return await this.plugin.call(name, text);
    } catch (err) {
      const msg = messageOf(err);
      if (err instanceof Error && MODULE_ERROR.test(msg)) throw new RecmemError(name, msg.replace(MODULE_ERROR, ''));
      this.trap = new RecmemError(name, `the module failed while running ${name}: ${msg}`, { trapped: true });
      throw this.trap;
    }
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
  // END GENERATED methods

  // The state document (docs/state-format.md), as text exactly as the module
  // wrote it, and back.
  async exportState() {
    const run = async () => {
      const doc = (await this.#invoke('export_state', '')).text();
      return this.seal ? this.seal.seal(doc) : doc;
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }
  async importState(state) {
    let doc = typeof state === 'string' ? state : state instanceof Uint8Array ? new TextDecoder().decode(state) : JSON.stringify(state);
    if (this.seal) {
      try {
        doc = await this.seal.open(doc);
      } catch (err) {
        throw new RecmemError('import_state', messageOf(err));
      }
    }
    return this.call('import_state', doc);
  }
  // memoryBytes is the size of the instance's linear memory. It never
  // shrinks: a host that reuses instances closes one that has grown past
  // what it wants to keep (the Go host recycles past half its cap).
  memoryBytes() { return this.poll?.memory?.buffer.byteLength ?? 0; }
  close() { return this.plugin.close(); }
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

// unpackState reverses packState and returns the document's bytes, refusing
// a document of more than maxBytes uncompressed (default 8 MiB) before
// reading it whole. Linear in the document.
export async function unpackState(packed, { maxBytes = 8 << 20 } = {}) {
  if (typeof packed !== 'string') throw new StateError(`state: a string of base64 is required, not ${packed === null ? 'null' : typeof packed}`);
  let raw;
  try {
    raw = fromBase64(packed);
  } catch (err) {
    throw new StateError(`state: not base64: ${messageOf(err)}`);
  }
  if (raw.length < 18 || raw[0] !== 0x1f || raw[1] !== 0x8b) throw new StateError('state: not gzip: no gzip header');
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

// stateTag is a state document's tag: "sha256:" and the hex SHA-256 of its
// UTF-8 bytes, as the Go host computes it (host.StateTag). With a seal key
// the tag is the seal instead: the first line of exportState's sealed text.
export async function stateTag(doc) {
  const bytes = typeof doc === 'string' ? new TextEncoder().encode(doc) : doc;
  return `sha256:${hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))}`;
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

  constructor(key) { this.key = key; }

  static async withKey(key) {
    const raw = typeof key === 'string' ? new TextEncoder().encode(key) : new Uint8Array(key);
    if (raw.length < 32) throw new TypeError(`Recmem.open: sealKey is ${raw.length} bytes, fewer than 32`);
    return new Seal(await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  }

  async seal(doc) {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', this.key, new TextEncoder().encode(doc)));
    return `${Seal.PREFIX}${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}\n${doc}`;
  }

  // open returns the document of a sealed text, or throws the same messages
  // as the Go host.
  async open(text) {
    const nl = text.indexOf('\n');
    const line = nl < 0 ? '' : text.slice(0, nl);
    if (!line.startsWith(Seal.PREFIX) || !/^[0-9a-f]{64}$/.test(line.slice(Seal.PREFIX.length))) {
      throw new Error('seal: missing (this host only accepts documents it sealed)');
    }
    const hex = line.slice(Seal.PREFIX.length);
    const mac = new Uint8Array(32);
    for (let i = 0; i < 32; i++) mac[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    const doc = text.slice(nl + 1);
    if (!(await crypto.subtle.verify('HMAC', this.key, mac, new TextEncoder().encode(doc)))) {
      throw new Error('seal: does not match the document (changed after it was sealed, or sealed with another key)');
    }
    return doc;
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
class WasiPoll {
  constructor() {
    this.memory = null; // the module's memory, set once instantiated
    this.waits = 0; // polls on a clock not due, in the current call
  }

  static maxWaits = 100000;

  functions() {
    const ENOTSUP = 58;
    return {
      poll_oneoff: (_cp, inPtr, outPtr, n, neventsPtr) => {
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
