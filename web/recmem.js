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
  { name: 'export_state', method: 'exportState', mutates: false, doc: 'the whole state document, sealed with its checksum' },
  { name: 'import_state', method: 'importState', mutates: true, doc: 'replace the state with a document, validated first' },
  { name: 'reset', method: 'reset', mutates: true, doc: 'start an empty memory, with default or given parameters' },
]);
// END GENERATED exports

// READ_ONLY names the exports that never change the state: a host need not
// save the state after them.
export const READ_ONLY = new Set(EXPORTS.filter((x) => !x.mutates).map((x) => x.name));

// RecmemError is a module error: its message names the input field at fault,
// and the memory is unchanged.
export class RecmemError extends Error {
  constructor(exportName, message) {
    super(message);
    this.name = 'RecmemError';
    this.export = exportName;
  }
}

// Recmem is one user's memory in one module instance. Calls run one at a
// time, in the order they were made.
export class Recmem {
  constructor(plugin) {
    this.plugin = plugin;
    this.queue = Promise.resolve();
  }

  // open instantiates the module. module is a URL, a Response, a
  // WebAssembly.Module, bytes, or (in Node) a file path string. llm is an
  // optional synchronous function from an llm_complete request object to a
  // response object; llmSteps lists the steps that ask it. state restores a
  // saved memory; catalog (bytes or a catalog object) is loaded for rank.
  static async open({ module, llm, llmSteps = [], state, catalog, config = {} } = {}) {
    if (!module) throw new TypeError('Recmem.open: module is required');
    const answer = llm || NO_LLM;
    const plugin = await createPlugin(manifestOf(module), {
      useWasi: true,
      // An empty config value trips @extism/extism 1.0.3's config_get
      // ("failed to store output"), so llm_steps is set only when non-empty.
      config: llmSteps.length ? { ...config, llm_steps: llmSteps.join(',') } : config,
      functions: {
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
    const rm = new Recmem(plugin);
    if (state !== undefined && state !== null) await rm.importState(state);
    if (catalog !== undefined && catalog !== null) await rm.loadCatalog(catalog);
    return rm;
  }

  // call runs any export with a JSON value (or raw JSON text or bytes) as
  // input and returns the parsed output (with text set, the output's text as
  // the module wrote it).
  call(name, input, { text: asText = false } = {}) {
    const run = async () => {
      const text = input === undefined || input === null ? '' : typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input);
      let out;
      try {
        out = await this.plugin.call(name, text);
      } catch (err) {
        throw new RecmemError(name, String(err.message).replace(/^Plugin-originated error: /, ''));
      }
      const result = out ? out.text() : '';
      if (asText) return result;
      return result === '' ? null : JSON.parse(result);
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // One method per export (generated from pkg/engine/exports.go by
  // `go generate ./pkg/engine`; EXPORTS lists them).
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
  // export_state: the whole state document, sealed with its checksum.
  exportState() { return this.call('export_state', undefined, { text: true }); }
  // import_state: replace the state with a document, validated first.
  importState(state) { return this.call('import_state', state); }
  // reset: start an empty memory, with default or given parameters.
  reset(config) { return this.call('reset', { config }); }
  // END GENERATED methods

  close() { return this.plugin.close(); }
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
