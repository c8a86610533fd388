// engine.js: the recmem module in this tab, through the typed module
// ../recmem.js (over @extism/extism's browser build, mapped in index.html).
// Calls are serialised (one at a time, in order); after every call that can
// change the state, the state is saved to IndexedDB in its binary form
// (docs/state-binary.md: what changed is exported as a delta and appended to
// the saved bytes), so a reload restores exactly what the module held, and
// fast. The JSON document remains what the user downloads and imports; a
// JSON state saved by an older page still restores, and is saved in the
// binary form from then on.
// READ_ONLY (generated from the export declarations) names the exports that
// never change the state: no save after them. load_catalog loads an asset
// (the catalog the ranker uses), not user state.
import { Recmem, READ_ONLY, appendState } from '../recmem.js';
import * as store from './store.js';

export class Engine {
  constructor(rm, exports, imports) {
    this.rm = rm;
    this.exports = new Set(exports);
    this.imports = imports;
    this.queue = Promise.resolve();
    this.lastSave = null;
  }

  // open loads the module, and restores the saved state when there is one.
  // llm answers llm_complete requests (an object in, an object out) for the
  // steps in llmSteps; without it the LLM-free policies run.
  static async open({ wasmUrl = '/out/plugin.wasm', llm, llmSteps = [] } = {}) {
    // The saved state is read while the module starts.
    const reading = store.get('state').catch(() => undefined);
    const rm = await Recmem.open({ module: new URL(wasmUrl, location.href), llm, llmSteps });
    const plugin = rm.plugin;
    const exps = (await plugin.getExports()).filter((e) => e.kind === 'function').map((e) => e.name);
    const imps = (await plugin.getImports()).map((i) => `${i.module}/${i.name}`);
    // An export is available when the module exports the function and its
    // engine serves the name (the plugin may declare exports ahead of them).
    let served = exps;
    try {
      const listed = await rm.exports();
      if (Array.isArray(listed)) served = exps.filter((n) => listed.includes(n));
    } catch { /* an old module without "exports": trust the wasm exports */ }
    const eng = new Engine(rm, served, imps);
    const saved = await reading;
    let restored = null;
    if (saved) {
      const t0 = performance.now();
      try {
        restored = await eng.call('import_state', saved, { save: false });
        restored.ms = performance.now() - t0;
        if (saved instanceof Uint8Array) eng.lastSave = saved;
        else await eng.call('export_state', undefined, { save: true }); // an older page's JSON save: binary from now on
      } catch (err) {
        // A saved state this module refuses is kept, under its own key, where
        // the next save cannot overwrite it.
        await store.put(REFUSED, saved).catch(() => {});
        restored = { error: err.message, kept: REFUSED };
      }
    }
    return { engine: eng, restored };
  }

  has(name) { return this.exports.has(name); }
  importsHost(name) { return this.imports.includes(`extism:host/user/${name}`); }

  // call runs one export with a JSON value (or raw JSON text) as input and
  // returns the parsed output. A module error is thrown as an Error carrying
  // the module's own message.
  call(name, input, { save, raw } = {}) {
    const run = async () => {
      if (!this.exports.has(name)) throw new NotAvailable(name);
      if (raw && name === 'export_state') return this.rm.exportState();
      // importState takes the JSON document (text) or the binary state (bytes).
      const result = name === 'import_state' ? await this.rm.importState(input) : await this.rm.call(name, input);
      if (save ?? !READ_ONLY.has(name)) await this.save();
      return result;
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // save writes the state to IndexedDB in its binary form: what changed
  // since the last save (a segment, appended to the saved bytes), or the
  // whole state when one is due (the first save, compaction, an import).
  // Nothing is written when nothing changed. Called inside the queue.
  async save() {
    const piece = await this.rm.exportState({ format: 'binary', base: this.lastSave ?? undefined });
    const next = this.lastSave ? appendState(this.lastSave, piece) : piece;
    if (next !== this.lastSave) await store.put('state', next);
    this.lastSave = next;
    return next;
  }

  // exportText returns the state document's text, exactly as the module wrote it.
  exportText() {
    return this.call('export_state', undefined, { raw: true });
  }
}

// REFUSED is the storage key of a saved state the module refused to
// restore: kept there, not lost, until the user forgets everything.
export const REFUSED = 'refused-state';

export class NotAvailable extends Error {
  constructor(name) {
    super(`${name} is not available in this build of the module`);
    this.name = 'NotAvailable';
    this.export = name;
  }
}
