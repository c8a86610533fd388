// The Node side of `recmem bench`: the same paths as the Go host, measured
// through the JavaScript host (web/recmem.js over @extism/extism), and the
// Orama peer (hybrid search plus recmem's greedy slate fill) on the same
// memories, queries and word vectors. The inputs come from the workload file
// written by Go (pkg/workload/file.go), so every host measures the same work.
//
// Each measuring function takes the parsed workload and returns plain
// numbers; bench.mjs prints them. Times are wall-clock (performance.now).
import { readFileSync } from 'node:fs';
import { create, insert, search } from '@orama/orama';
import { Recmem } from '../recmem.js';

// ORAMA_SEARCH are the options of every Orama query besides term and
// vector: hybrid mode (BM25 full text over the unit text, Orama's default
// tokenizer, threshold 1, tolerance 0; plus cosine similarity of the
// workload vectors; each min-max normalized and mixed 0.5/0.5, Orama's
// default weights), the best 128 hits (recmem's default candidate pool, as
// the bleve peer uses), and a cosine threshold of 0 instead of Orama's 0.8,
// so that every unit not pointing away from the query is a vector candidate.
// On LoCoMo at B = 2000, thresholds of 0.8, 0.3, 0.1 and 0 give r_slate
// 0.485, 0.561, 0.572 and 0.577, at the same latency.
export const ORAMA_SEARCH = Object.freeze({ mode: 'hybrid', limit: 128, similarity: 0 });

// Defaults of the measuring loops: iterations per path, warm-up calls, and
// the time cap per path (after at least minSamples samples).
export const DEFAULTS = Object.freeze({ iters: 200, warmup: 3, maxMs: 5000, minSamples: 5 });

// stats returns the median and the 90th percentile (nearest rank) of
// samples, each multiplied by scale and rounded to 3 decimals.
export function stats(samples, scale = 1) {
  if (samples.length === 0) return { median: null, p90: null };
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const p90 = s[Math.max(0, Math.ceil(0.9 * n) - 1)];
  const r = (x) => Math.round(x * scale * 1000) / 1000;
  return { median: r(median), p90: r(p90) };
}

// measure calls fn(i) for i = 0, 1, ... and returns the duration of each call
// in ms: at most iters calls (and at most limit, the number of distinct
// inputs), stopping early once maxMs have passed and minSamples are taken.
export async function measure(fn, { iters = DEFAULTS.iters, maxMs = DEFAULTS.maxMs, minSamples = DEFAULTS.minSamples, limit = Infinity } = {}) {
  const n = Math.min(iters, limit);
  const samples = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    const t1 = performance.now();
    samples.push(t1 - t0);
    if (t1 - start > maxMs && samples.length >= minSamples) break;
  }
  return samples;
}

// warm calls fn(i) warmup times, stopping after about a second once one
// call has run.
async function warm(fn, warmup = DEFAULTS.warmup) {
  const start = performance.now();
  for (let i = 0; i < warmup; i++) {
    await fn(i);
    if (performance.now() - start > 1000) break;
  }
}

// loadWorkload reads and parses a workload file.
export function loadWorkload(file) {
  const wl = JSON.parse(readFileSync(file, 'utf8'));
  if (wl.version !== 1) throw new Error(`workload ${file}: version ${wl.version}, want 1`);
  return wl;
}

// open instantiates the module through recmem.js (createPlugin with
// useWasi and the llm_complete stub).
export function open(module) {
  return Recmem.open({ module });
}

// addUnitsInput is the add_units input of units as JSON text.
function addUnitsInput(units) {
  return JSON.stringify({ units });
}

// withUnits returns a plugin holding the given units.
async function withUnits(module, units) {
  const rm = await open(module);
  if (units.length) await rm.call('add_units', addUnitsInput(units));
  return rm;
}

// coldStart measures starting the module: compiling the bytes
// (WebAssembly.compile), instantiating the compiled module (createPlugin via
// Recmem.open), and the first call (record of the first signal). warm_start
// is instantiate plus first call with the module already compiled; cold start
// is the same from the bytes. Medians over reps starts.
export async function coldStart(bytes, wl, { reps = 5 } = {}) {
  const compile = [], inst = [], first = [], warmStart = [], cold = [];
  const input = wl.record_inputs[0];
  for (let r = 0; r < reps; r++) {
    let t0 = performance.now();
    const module = await WebAssembly.compile(bytes);
    compile.push(performance.now() - t0);
    t0 = performance.now();
    const rm = await open(module);
    const t1 = performance.now();
    await rm.call('record', input);
    const t2 = performance.now();
    inst.push(t1 - t0);
    first.push(t2 - t1);
    warmStart.push(t2 - t0);
    await rm.close();
    t0 = performance.now();
    const rc = await open(new Uint8Array(bytes));
    await rc.call('record', input);
    cold.push(performance.now() - t0);
    await rc.close();
  }
  const med = (xs) => stats(xs).median;
  return { compile_ms: med(compile), instantiate_ms: med(inst), first_call_ms: med(first), warm_start_ms: med(warmStart), cold_start_ms: med(cold) };
}

// benchSignal measures record with one signal plus LLM-free maintenance: the
// record inputs in order on a fresh plugin (warmed up on another instance of
// the same module). Microseconds.
export async function benchSignal(module, wl, opts = {}) {
  const w = await open(module);
  await warm((i) => w.call('record', wl.record_inputs[i % wl.record_inputs.length]), opts.warmup);
  await w.close();
  const rm = await open(module);
  const samples = await measure((i) => rm.call('record', wl.record_inputs[i]), { ...opts, limit: wl.record_inputs.length });
  await rm.close();
  return { ...stats(samples, 1000), samples: samples.length };
}

// addPrefix is the size of the memory the add inputs go to
// (workload.AddPrefix).
const addPrefix = 500;

// benchAddUnit measures adding one unit to a memory of the first 500 units
// (the add inputs in order, each a fresh id). Microseconds.
export async function benchAddUnit(module, wl, opts = {}) {
  const prefix = wl.units.slice(0, addPrefix);
  const w = await withUnits(module, prefix);
  await warm((i) => w.call('add_units', addUnitsInput([{ ...prefix[i % prefix.length], id: `warm-${i}` }])), opts.warmup);
  await w.close();
  const rm = await withUnits(module, prefix);
  const samples = await measure((i) => rm.call('add_units', wl.add_inputs[i]), { ...opts, limit: wl.add_inputs.length });
  await rm.close();
  return { ...stats(samples, 1000), samples: samples.length };
}

// benchRank measures ranking ten candidates with a memory: load_catalog
// with the catalog bytes, the setup records, then the rank inputs in turn.
// Milliseconds; load_ms is the catalog load.
export async function benchRank(module, wl, catalog, opts = {}) {
  const rm = await open(module);
  const t0 = performance.now();
  await rm.loadCatalog(catalog);
  const loadMs = performance.now() - t0;
  for (const s of wl.rank.setup) await rm.call('record', s);
  const inputs = wl.rank.inputs;
  await warm((i) => rm.call('rank', inputs[inputs.length - 1 - (i % inputs.length)]), opts.warmup);
  const samples = await measure((i) => rm.call('rank', inputs[i % inputs.length]), opts);
  await rm.close();
  return { ...stats(samples), samples: samples.length, load_ms: Math.round(loadMs * 1000) / 1000 };
}

// benchRankSized measures rank for each input list of wl.rank.sized (keyed
// "200" or "200_instruction": that many candidates, without and with an
// instruction) on one plugin holding the catalog and the setup records.
// Milliseconds per key.
export async function benchRankSized(module, wl, catalog, opts = {}) {
  const rm = await open(module);
  await rm.loadCatalog(catalog);
  for (const s of wl.rank.setup) await rm.call('record', s);
  const out = {};
  for (const [key, inputs] of Object.entries(wl.rank.sized ?? {})) {
    await warm((i) => rm.call('rank', inputs[inputs.length - 1 - (i % inputs.length)]), opts.warmup);
    const samples = await measure((i) => rm.call('rank', inputs[i % inputs.length]), opts);
    out[key] = { ...stats(samples), samples: samples.length };
  }
  await rm.close();
  return out;
}

// phaseMedians runs call(i) n times on rm, a plugin opened with the config
// phases: 'on', asking the phases export after each call, and returns each
// phase's median in µs (a phase a call did not run counts 0 for it) and the
// median of the calls' sums: where the time goes inside the module through
// this host (docs/phases.md).
async function phaseMedians(rm, call, n) {
  const samples = new Map();
  const totals = [];
  for (let i = 0; i < n; i++) {
    await call(i);
    const { phases } = await rm.phases();
    let sum = 0;
    for (const p of phases) {
      if (!samples.has(p.name)) samples.set(p.name, new Array(totals.length).fill(0));
      samples.get(p.name).push(p.ns / 1000);
      sum += p.ns / 1000;
    }
    totals.push(sum);
    for (const xs of samples.values()) if (xs.length < totals.length) xs.push(0);
  }
  const med = (xs) => stats(xs).median;
  return { n, total_us: med(totals), phases: [...samples].map(([name, xs]) => ({ name, median_us: med(xs) })) };
}

// benchPhases breaks record, add, rank (200 candidates, without and with an
// instruction, when the workload has them) and select at each size down
// into the module's phases through this host: a plugin opened with the
// config phases: 'on'. Its clock is the WASI clock of @extism/extism
// (wall time).
export async function benchPhases(module, wl, catalog, sizes, opts = {}) {
  const n = Math.min(opts.iters ?? DEFAULTS.iters, 40);
  const openTimed = () => Recmem.open({ module, config: { phases: 'on' } });
  const out = {};
  let rm = await openTimed();
  for (let i = 0; i < 3; i++) await rm.call('record', wl.record_inputs[i]);
  out.signal = await phaseMedians(rm, (i) => rm.call('record', wl.record_inputs[3 + (i % (wl.record_inputs.length - 3))]), n);
  await rm.close();
  rm = await openTimed();
  await rm.call('add_units', addUnitsInput(wl.units.slice(0, addPrefix)));
  out.add_unit = await phaseMedians(rm, (i) => rm.call('add_units', wl.add_inputs[i % wl.add_inputs.length]), n);
  await rm.close();
  if (catalog && wl.rank.sized?.['200']) {
    rm = await openTimed();
    await rm.loadCatalog(catalog);
    for (const s of wl.rank.setup) await rm.call('record', s);
    for (const key of ['200', '200_instruction']) {
      const inputs = wl.rank.sized[key];
      out[`rank_${key}`] = await phaseMedians(rm, (i) => rm.call('rank', inputs[i % inputs.length]), n);
    }
    await rm.close();
  }
  for (const size of sizes) {
    rm = await openTimed();
    await rm.call('add_units', addUnitsInput(wl.units.slice(0, size)));
    await rm.call('select_slate', selectInput(wl, 0));
    out[`select_${size}`] = await phaseMedians(rm, (i) => rm.call('select_slate', selectInput(wl, i + 1)), n);
    await rm.close();
  }
  return out;
}

// selectInput is the select_slate input of the k-th query (cycled).
function selectInput(wl, k) {
  return JSON.stringify({ query: wl.queries[k % wl.queries.length].text, budget: wl.budget });
}

// benchSize measures, on a plugin holding the first n units: select_slate
// (the queries in turn at the workload's budget), export_state, and
// import_state of the exported document; and the state's size in bytes.
export async function benchSize(module, wl, n, opts = {}) {
  const t0 = performance.now();
  const rm = await withUnits(module, wl.units.slice(0, n));
  const addMs = performance.now() - t0;
  const inputs = wl.queries.map((_, k) => selectInput(wl, k));
  await warm((i) => rm.call('select_slate', inputs[(inputs.length - 1 - i + inputs.length) % inputs.length]), opts.warmup);
  const sel = await measure((i) => rm.call('select_slate', inputs[i % inputs.length]), opts);
  let state = '';
  await warm(async () => { state = await rm.exportState(); }, opts.warmup);
  const exp = await measure(async () => { state = await rm.exportState(); }, opts);
  await warm(() => rm.importState(state), opts.warmup);
  const imp = await measure(() => rm.importState(state), opts);
  await rm.close();
  return {
    select: { ...stats(sel), samples: sel.length },
    export: { ...stats(exp), samples: exp.length },
    import: { ...stats(imp), samples: imp.length },
    state_bytes: new TextEncoder().encode(state).length,
    add_all_ms: Math.round(addMs * 1000) / 1000,
  };
}

// greedyFill is recmem's fill (pkg/slate Fill): walk the ids in rank order
// and take each one whose tokens fit the remaining budget, skipping the
// others. tokens maps an id to its token count.
export function greedyFill(ids, tokens, budget) {
  const out = [];
  let used = 0;
  for (const id of ids) {
    const t = tokens.get(id);
    if (used + t > budget) continue;
    used += t;
    out.push(id);
  }
  return { ids: out, used };
}

// OramaPeer is one memory in an Orama database: each unit's text and its
// workload vector, and each unit's token count for the fill.
export class OramaPeer {
  // build indexes units (objects with id and text) with their vectors;
  // tokens[i] is unit i's token count (the workload's tokens).
  static async build(units, vectors, tokens) {
    const dim = vectors[0]?.length ?? 1;
    const db = await create({ schema: { text: 'string', embedding: `vector[${dim}]` } });
    const byID = new Map();
    for (let i = 0; i < units.length; i++) {
      const r = insert(db, { id: units[i].id, text: units[i].text, embedding: vectors[i] });
      if (r instanceof Promise) await r;
      byID.set(units[i].id, tokens[i]);
    }
    return new OramaPeer(db, byID);
  }

  constructor(db, tokens) {
    this.db = db;
    this.tokens = tokens;
  }

  // hits returns the ids of the hybrid search's hits in rank order.
  async hits(query) {
    let res = search(this.db, { ...ORAMA_SEARCH, term: query.text, vector: { value: query.vector, property: 'embedding' } });
    if (res instanceof Promise) res = await res;
    return res.hits.map((h) => h.id);
  }

  // select is the slate of query at budget: hybrid search, then the fill.
  async select(query, budget) {
    return greedyFill(await this.hits(query), this.tokens, budget);
  }
}

// benchOramaSize indexes the first n units (index_ms) and measures search
// plus fill per query, the queries in turn.
export async function benchOramaSize(wl, n, opts = {}) {
  const units = wl.units.slice(0, n);
  const t0 = performance.now();
  const peer = await OramaPeer.build(units, wl.vectors.slice(0, n), wl.tokens);
  const indexMs = performance.now() - t0;
  const q = (i) => wl.queries[i % wl.queries.length];
  await warm((i) => peer.select(q(wl.queries.length - 1 - i), wl.budget), opts.warmup);
  const sel = await measure((i) => peer.select(q(i), wl.budget), opts);
  return { select: { ...stats(sel), samples: sel.length }, index_ms: Math.round(indexMs * 1000) / 1000 };
}

// oramaQuality is slate completeness of the Orama peer at the workload's
// budget over the quality section: one database per conversation; a
// question is complete when its slate holds all of its evidence. r_slate_k2
// counts the questions whose evidence spans at least two sessions.
export async function oramaQuality(wl, budget = wl.budget) {
  let n = 0, full = 0, n2 = 0, full2 = 0;
  for (const conv of wl.quality) {
    const peer = await OramaPeer.build(conv.units, conv.vectors, conv.tokens);
    for (const q of conv.questions) {
      const { ids } = await peer.select(q, budget);
      const in_ = new Set(ids);
      const ok = q.evidence.every((e) => in_.has(e));
      n++;
      if (ok) full++;
      if (q.sessions >= 2) {
        n2++;
        if (ok) full2++;
      }
    }
  }
  const frac = (a, b) => (b ? Math.round((a / b) * 1e4) / 1e4 : 0);
  return { r_slate: frac(full, n), r_slate_k2: frac(full2, n2), questions: n };
}

// version reads the version of an installed package next to web/.
export function version(pkg) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
}

// runAll measures every path of the workload wl: bytes is the module's
// .wasm, catalog the catalog's bytes for rank (null to skip rank). opts are
// iters, warmup, maxMs, minSamples, sizes (default wl.sizes) and progress, a
// function given the name of each step as it starts. It returns the object
// `bench.mjs --json` prints; a path that fails is null, with its error in
// errors.
export async function runAll(wl, bytes, catalog, opts = {}) {
  const { sizes = wl.sizes, progress = () => {} } = opts;
  const o = { iters: opts.iters ?? DEFAULTS.iters, warmup: opts.warmup ?? DEFAULTS.warmup, maxMs: opts.maxMs ?? DEFAULTS.maxMs, minSamples: opts.minSamples ?? DEFAULTS.minSamples };
  const sized = sizes.filter((n) => n <= wl.units.length);
  const pick = ({ median, p90 }) => ({ median, p90 });
  const samples = {};
  const out = { host: 'node', node: process.version, extism: version('@extism/extism'), wasm_bytes: bytes.length };

  progress('cold start');
  Object.assign(out, await coldStart(bytes, wl));
  const module = await WebAssembly.compile(bytes);
  progress('record a signal');
  const sig = await benchSignal(module, wl, o);
  out.signal_us = pick(sig);
  samples.signal = sig.samples;
  progress('add a unit');
  const add = await benchAddUnit(module, wl, o);
  out.add_unit_us = pick(add);
  samples.add_unit = add.samples;
  out.rank10_ms = null;
  if (catalog) {
    progress('rank 10');
    try {
      const rank = await benchRank(module, wl, catalog, o);
      out.rank10_ms = pick(rank);
      out.catalog_load_ms = rank.load_ms;
      samples.rank10 = rank.samples;
    } catch (err) {
      // A catalog the module refuses (say, one written by an older build)
      // leaves rank unmeasured; the other paths still run.
      (out.errors ??= {}).rank10 = err.message;
    }
  }
  if (catalog && wl.rank.sized) {
    progress('rank 20, 200 and 1,000');
    try {
      const ranks = await benchRankSized(module, wl, catalog, o);
      out.rank_ms = {};
      out.rank_instruction_ms = {};
      for (const [key, v] of Object.entries(ranks)) {
        const [n, instructed] = key.split('_');
        (instructed ? out.rank_instruction_ms : out.rank_ms)[n] = pick(v);
        samples[`rank_${key}`] = v.samples;
      }
    } catch (err) {
      (out.errors ??= {}).rank = err.message;
    }
  }
  progress('phases');
  try {
    out.phases = await benchPhases(module, wl, catalog, sized, o);
  } catch (err) {
    // A module without the phases export (one built before it) has none.
    (out.errors ??= {}).phases = err.message;
  }
  out.select_ms = {};
  out.export_ms = {};
  out.import_ms = {};
  out.state_bytes = {};
  for (const n of sized) {
    progress(`select, export, import at ${n} units`);
    const r = await benchSize(module, wl, n, o);
    out.select_ms[n] = pick(r.select);
    out.export_ms[n] = pick(r.export);
    out.import_ms[n] = pick(r.import);
    out.state_bytes[n] = r.state_bytes;
    samples[`select_${n}`] = r.select.samples;
    samples[`export_${n}`] = r.export.samples;
    samples[`import_${n}`] = r.import.samples;
  }
  const orama = {
    version: version('@orama/orama'), mode: ORAMA_SEARCH.mode,
    search: { ...ORAMA_SEARCH, hybridWeights: { text: 0.5, vector: 0.5 } },
    select_ms: {}, index_ms: {},
  };
  for (const n of sized) {
    progress(`orama at ${n} units`);
    const r = await benchOramaSize(wl, n, o);
    orama.select_ms[n] = pick(r.select);
    orama.index_ms[n] = r.index_ms;
    samples[`orama_select_${n}`] = r.select.samples;
  }
  progress('orama quality');
  Object.assign(orama, await oramaQuality(wl));
  out.orama = orama;
  out.samples = samples;
  return out;
}
