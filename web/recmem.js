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
  // input and returns the parsed output.
  call(name, input) {
    const run = async () => {
      const text = input === undefined || input === null ? '' : typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input);
      let out;
      try {
        out = await this.plugin.call(name, text);
      } catch (err) {
        throw new RecmemError(name, String(err.message).replace(/^Plugin-originated error: /, ''));
      }
      const result = out ? out.text() : '';
      return result === '' ? null : JSON.parse(result);
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // The recommendation memory (MARS).
  record(signals, { maintain } = {}) { return this.call('record', maintain ? { signals, maintain } : { signals }); }
  maintain({ now, scheduler = 'fixed', force = false } = {}) { return this.call('maintain', now === undefined ? { scheduler, force } : { now, scheduler, force }); }
  plan({ now, scheduler = 'planner', force = false } = {}) { return this.call('plan', now === undefined ? { scheduler, force } : { now, scheduler, force }); }
  applyOps(ops, { trigger = 'user', now } = {}) { return this.call('apply_ops', now === undefined ? { ops, trigger } : { ops, trigger, now }); }
  memory({ journalLimit = 0 } = {}) { return this.call('get_memory', { journal_limit: journalLimit }); }
  loadCatalog(catalog) { return this.call('load_catalog', catalog instanceof Uint8Array || typeof catalog === 'string' ? catalog : JSON.stringify(catalog)); }
  rank(candidates, { instruction, k } = {}) {
    const input = { candidates };
    if (instruction) input.instruction = instruction;
    if (k) input.k = k;
    return this.call('rank', input);
  }

  // The agent memory (AgentMemRec).
  addUnits(units) { return this.call('add_units', { units }); }
  deleteUnits(ids) { return this.call('delete_units', { ids }); }
  purge({ session, user } = {}) { return this.call('purge', { ...(session ? { session } : {}), ...(user ? { user } : {}) }); }
  selectSlate(request) { return this.call('select_slate', request); }

  // The state document (docs/state-format.md), as text exactly as the module
  // wrote it, and back.
  async exportState() {
    const run = async () => (await this.plugin.call('export_state', '')).text();
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }
  importState(state) { return this.call('import_state', typeof state === 'string' ? state : JSON.stringify(state)); }
  reset(config) { return this.call('reset', config ? { config } : {}); }
  exports() { return this.call('exports').then((o) => o.exports); }

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
