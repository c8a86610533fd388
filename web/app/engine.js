// engine.js: the recmem module in this tab. Engine is a Recmem (../recmem.js,
// over @extism/extism's browser build, mapped in index.html), so the page
// calls the module through recmem.js's typed methods, one per export
// (app.engine.rank(candidates, {instruction, k}), app.engine.record(...),
// generated from pkg/engine/exports.go): go-to-definition on a page call
// lands on the method, whose this.call('rank', ...) names the export.
// Engine overrides the three ways into the module (call, which every
// generated method uses, importState and exportState) to add what the page
// needs around each export:
//   - calls are serialised (one at a time, in the order they were made);
//   - an export the module does not serve throws NotAvailable;
//   - after every call that can change the state, the state is saved to
//     IndexedDB in its binary form (docs/state-binary.md: what changed is
//     exported as a delta and appended to the saved bytes), so a reload
//     restores exactly what the module held, and fast. READ_ONLY (generated
//     from the export declarations) names the exports that never change the
//     state: no save after them. load_catalog loads an asset (the catalog the
//     ranker uses), not user state.
// The JSON document remains what the user downloads and imports; a JSON
// state saved by an older page still restores, and is saved in the binary
// form from then on.
import { Recmem, READ_ONLY, appendState } from '../recmem.js';
import * as store from './store.js';

export class Engine extends Recmem {
  // The constructor is Recmem's (Recmem.open makes the instance, with
  // new this(plugin)); open fills in what the module serves.
  constructor(plugin) {
    super(plugin);
    this.available = new Set(); // the exports the module serves (has)
    this.imports = []; // the module's imports, "module/name"
    this.lastSave = null; // the binary state last written to IndexedDB
    this.pending = Promise.resolve(); // the page's queue of calls
  }

  // #saving is false while unsaved runs its function: the calls it starts
  // are not followed by a save.
  #saving = true;

  // open loads the module, and restores the saved state when there is one.
  // llm answers llm_complete requests (an object in, an object out) for the
  // steps in llmSteps, or, with llmSteps absent, for the steps measured to
  // help llmModel (none for a model nothing was measured with: recmem.js's
  // rule); with llmSteps empty the LLM-free policies run.
  static async open({ wasmUrl = '/out/plugin.wasm', llm, llmSteps, llmModel } = {}) {
    // The saved state is read while the module starts.
    const reading = store.get('state').catch(() => undefined);
    const eng = await super.open({ module: new URL(wasmUrl, location.href), llm, llmSteps, llmModel });
    const exps = (await eng.plugin.getExports()).filter((e) => e.kind === 'function').map((e) => e.name);
    eng.imports = (await eng.plugin.getImports()).map((i) => `${i.module}/${i.name}`);
    // An export is available when the module exports the function and its
    // engine serves the name (the plugin may declare exports ahead of them).
    eng.available = new Set(exps);
    try {
      const listed = await eng.exports();
      if (Array.isArray(listed)) eng.available = new Set(exps.filter((n) => listed.includes(n)));
    } catch { /* an old module without "exports": trust the wasm exports */ }
    const saved = await reading;
    let restored = null;
    if (saved) {
      const t0 = performance.now();
      try {
        restored = await eng.unsaved(() => eng.importState(saved));
        restored.ms = performance.now() - t0;
        if (saved instanceof Uint8Array) eng.lastSave = saved;
        else await eng.save(); // an older page's JSON save: binary from now on
      } catch (err) {
        // A saved state this module refuses is kept, under its own key, where
        // the next save cannot overwrite it.
        await store.put(REFUSED, saved).catch(() => {});
        restored = { error: err.message, kept: REFUSED };
      }
    }
    return { engine: eng, restored };
  }

  has(name) { return this.available.has(name); }
  importsHost(name) { return this.imports.includes(`extism:host/user/${name}`); }

  // call runs one export, as Recmem.call does (a JSON value, or raw JSON
  // text or bytes, in; the parsed output out; a module error thrown as a
  // RecmemError carrying the module's own message), in the page's queue,
  // and saves the state after it unless the export is read-only. Every
  // generated method (rank, record, applyOps, ...) comes through here.
  call(name, input, options) {
    return this.#queue(name, () => super.call(name, input, options));
  }

  // importState replaces the memory with a state (the JSON document's text
  // or a binary state's bytes), as Recmem.importState, in the queue, and
  // saves it.
  importState(state) {
    return this.#queue('import_state', () => super.importState(state));
  }

  // exportState returns the state, as Recmem.exportState (by default the
  // JSON document's text, exactly as the module wrote it), in the queue.
  exportState(options) {
    return this.#queue('export_state', () => super.exportState(options));
  }

  // exportText returns the state document's text, exactly as the module wrote it.
  exportText() { return this.exportState(); }

  // llmConfig returns the LLM configuration the module applied (the exports
  // export's llm: steps, model, helps, measured, prompts), which recmem.js's
  // exports() leaves out; undefined from a module older than it.
  async llmConfig() { return (await this.call('exports'))?.llm; }

  // unsaved runs fn and returns what it returns; the calls fn starts before
  // it returns (a typed method's call starts at once) are not followed by a
  // save. Forget-me resets the memory and then clears the storage; the
  // restore at open imports what is already saved.
  unsaved(fn) {
    const was = this.#saving;
    this.#saving = false;
    try {
      return fn();
    } finally {
      this.#saving = was;
    }
  }

  // save writes the state to IndexedDB, in the queue (after every call made
  // before it), and returns the saved bytes.
  save() {
    return this.#queue(null, () => this.#write());
  }

  // #queue runs fn after every call made before it, checks first that the
  // module serves name (null: no export, a save), and writes the state
  // after it when name can change the state and no unsaved is running.
  #queue(name, fn) {
    const save = name !== null && this.#saving && !READ_ONLY.has(name);
    const run = async () => {
      if (name !== null && !this.available.has(name)) throw new NotAvailable(name);
      const result = await fn();
      if (save) await this.#write();
      return result;
    };
    const p = this.pending.then(run, run);
    this.pending = p.catch(() => {});
    return p;
  }

  // #write writes the state to IndexedDB in its binary form: what changed
  // since the last save (a segment, appended to the saved bytes), or the
  // whole state when one is due (the first save, compaction, an import).
  // Nothing is written when nothing changed. It runs inside the queue, and
  // calls Recmem's exportState, not the queued one.
  async #write() {
    const piece = await super.exportState({ format: 'binary', base: this.lastSave ?? undefined });
    const next = this.lastSave ? appendState(this.lastSave, piece) : piece;
    if (next !== this.lastSave) await store.put('state', next);
    this.lastSave = next;
    return next;
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
