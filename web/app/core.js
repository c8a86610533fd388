// core.js: what the views share: the page's clock, the app object, error
// and status display, and act(), which runs and times one user action.
import { NotAvailable } from './engine.js';
import { RecmemError } from '../recmem.js';
import { $ } from './dom.js';

// The page's clock. Time is an input to the module: every signal carries the
// page's time. With ?now=UNIX (used by the tests) the clock starts there and
// moves 60 s per reading, so runs are repeatable; it never goes behind the
// memory's own clock.
const params = new URLSearchParams(location.search);
const fixedStart = params.has('now') ? Number(params.get('now')) : null;
let fixedTicks = 0;
export const clock = {
  floor: 0,
  now() {
    const t = fixedStart !== null ? fixedStart + 60 * fixedTicks++ : Math.floor(Date.now() / 1000);
    return Math.max(t, this.floor + (fixedStart !== null ? 60 : 0));
  },
};

// app is shared by the views; window.recmem exposes it to tests.
export const app = {
  /** @type {import('./engine.js').Engine} the module, through recmem.js's typed methods */
  engine: null,
  doc: null, // the last exported state document, parsed
  timings: [], // {action, ms}
  listeners: new Set(), // called after each state change
  loadMs: null,
  firstRecsMs: null, // performance.now() when the first recommendations were shown
  phases: {}, // performance.now() at each step of the start: module, demo (its items read), catalog (loaded), firstRecs
  /** @type {{demo?: Promise<Response>, ranker?: Promise<any>, intent?: Promise<any>} | null} the catalog files fetched while the module compiles */
  prefetched: null,
};
window.recmem = app;
// App is app's type: a view's app parameter declared @param {App} lets an
// editor follow app.engine.rank(...) to recmem.js's rank.
/** @typedef {typeof app} App */

export function showError(msg) {
  const el = $('#error');
  el.textContent = msg;
  el.hidden = false;
}
export function clearError() {
  $('#error').hidden = true;
  $('#error').textContent = '';
}
export function setStatus(msg) { $('#status').textContent = msg; }

// refresh re-reads the state document and lets every view re-render.
export async function refresh() {
  const text = await app.engine.exportText();
  app.doc = JSON.parse(text);
  clock.floor = Math.max(clock.floor, app.doc?.memory?.clock ?? 0);
  for (const f of app.listeners) await f(app.doc);
}

// act runs one user action: the module calls in fn, then a re-render. Its
// latency (calls + save to IndexedDB + render) is shown and kept for tests.
export async function act(label, fn) {
  const t0 = performance.now();
  try {
    const r = await fn();
    clearError();
    await refresh();
    const ms = performance.now() - t0;
    app.timings.push({ action: label, ms });
    $('#timing').textContent = `${label}: ${ms.toFixed(1)} ms · first load ${app.loadMs?.toFixed(0)} ms`;
    return r;
  } catch (err) {
    console.error(err);
    showError(failure(label, err));
    return undefined;
  }
}

// failure says what went wrong in words, and what it means for the memory:
// a module error changed nothing; a trap stopped the module.
export function failure(label, err) {
  if (err instanceof NotAvailable) return `${err.message}.`;
  const msg = inWords(err?.message ?? String(err));
  if (err instanceof RecmemError && err.trapped) {
    return `${label} failed: ${msg}. The module stopped and must be reloaded: reload the page (your memory as last saved is kept).`;
  }
  if (err instanceof RecmemError) return `${label} failed: ${msg}. Nothing was added or changed: your memory is as it was.`;
  return `${label} failed: ${msg}`;
}

// sizeWords writes a size the way a person reads it: "812 bytes", "340 kB",
// "33.8 MB" (decimal units, one decimal below 100).
export function sizeWords(n) {
  const one = (x) => (x < 100 ? x.toFixed(1) : x.toFixed(0));
  if (n < 1e3) return `${n} bytes`;
  if (n < 1e6) return `${one(n / 1e3)} kB`;
  if (n < 1e9) return `${one(n / 1e6)} MB`;
  return `${one(n / 1e9)} GB`;
}

// inWords rewrites the byte counts of a module message in words: "input is
// 33764247 bytes, more than the limit of 16777216" reads "input is 33.8 MB,
// more than the limit of 16.8 MB".
export function inWords(msg) {
  return String(msg)
    .replace(/\b(\d{4,}) bytes, more than the limit of (\d{4,})\b/g, (_, a, b) => `${sizeWords(Number(a))}, more than the limit of ${sizeWords(Number(b))}`)
    .replace(/\b(\d{4,}) bytes\b/g, (_, n) => sizeWords(Number(n)));
}

