// Restoring a memory in Chromium (issue 18's "restore of 10,000 units in
// Chromium", target 50 ms): the time from the saved bytes to a memory ready
// to answer, with the JSON document and with the binary state.
//
//   node web/bench/restore.mjs [--units 10000] [--iters 7] [--data FILE] [--json]
//
// It serves recmem.js, @extism/extism and the module (out/plugin.wasm, or
// RECMEM_WASM) on loopback, opens Debian's chromium (or RECMEM_CHROMIUM)
// headless through playwright-core, and in the page:
// fills a memory with LoCoMo turns (the first --units, cycling through the
// conversations as pkg/workload's LoCoMoMemory does, ids made unique per
// round), exports it in both forms, keeps each in IndexedDB as the page
// does, and then, --iters times per form, times
//   - import: importState(bytes) on an open instance (the module compiled
//     and instantiated already, as in a page that has started);
//   - restore: the bytes read from IndexedDB, a new instance of the compiled
//     module (Recmem.open), the import, and a first select_slate answered.
// Medians and p90 go to stdout (one JSON object with --json); progress to
// stderr.
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    units: { type: 'string', default: '10000' },
    iters: { type: 'string', default: '7' },
    data: { type: 'string', default: path.join(root, '../shared/data/locomo/locomo8.json') },
    json: { type: 'boolean', default: false },
  },
});
const n = Number(args.units);
const iters = Number(args.iters);
if (!(n >= 1) || !(iters >= 1)) {
  console.error('usage: node web/bench/restore.mjs [--units N] [--iters N] [--data LOCOMO.json] [--json]');
  process.exit(2);
}
const progress = (s) => process.stderr.write(`restore: ${s}\n`);

// LoCoMo turns as units, as pkg/workload.LoCoMoMemory lists them.
function units(file, count) {
  const convs = JSON.parse(readFileSync(file, 'utf8'));
  const out = [];
  const questions = [];
  for (let round = 0; out.length < count; round++) {
    for (const c of convs) {
      if (round === 0) for (const q of c.qa ?? []) questions.push(String(q.question));
      const conv = c.conversation;
      for (let s = 1; conv[`session_${s}`]; s++) {
        for (const t of conv[`session_${s}`]) {
          if (out.length === count) return { units: out, questions };
          out.push({ id: `${c.sample_id}/${round}/${t.dia_id}`, session: `${c.sample_id}/${round}/${s}`, date: conv[`session_${s}_date_time`], speaker: t.speaker, text: t.text });
        }
      }
    }
  }
  return { units: out, questions };
}

const wasm = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
const chromiumPath = process.env.RECMEM_CHROMIUM || '/usr/bin/chromium';
const extism = path.join(root, 'web/node_modules/@extism/extism/dist/browser/mod.js');
for (const f of [wasm, chromiumPath, args.data, extism]) {
  if (!existsSync(f)) {
    console.error(`restore: ${f} is missing (./build.sh builds out/plugin.wasm and installs web/node_modules; chromium is a Debian package)`);
    process.exit(1);
  }
}

// The four files the page needs, on loopback.
const files = {
  '/': ['text/html', '<!doctype html><script type="importmap">{"imports":{"@extism/extism":"/extism.js"}}</script><title>restore</title>'],
  '/recmem.js': ['text/javascript', path.join(root, 'web/recmem.js')],
  '/extism.js': ['text/javascript', extism],
  '/out/plugin.wasm': ['application/wasm', wasm],
};
const server = createServer((req, res) => {
  const f = files[req.url];
  if (!f) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': f[0] }).end(req.url === '/' ? f[1] : readFileSync(f[1]));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const { units: list, questions } = units(args.data, n);
const userData = mkdtempSync(path.join(tmpdir(), 'recmem-restore-'));
let context;
try {
  context = await chromium.launchPersistentContext(userData, {
    executablePath: chromiumPath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(600000);
  await page.goto(base);
  progress(`${list.length} units into a memory, in Chromium ${context.browser()?.version() ?? ''}`);
  const result = await page.evaluate(async ({ list, questions, iters }) => {
    const { Recmem } = await import('/recmem.js');
    const module = await WebAssembly.compileStreaming(fetch('/out/plugin.wasm'));
    const maker = await Recmem.open({ module });
    for (let i = 0; i < list.length; i += 2000) await maker.addUnits(list.slice(i, i + 2000));
    const saved = { json: new TextEncoder().encode(await maker.exportState()), binary: await maker.exportState({ format: 'binary' }) };
    await maker.close();
    // IndexedDB, as the page keeps the state.
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('recmem-restore-bench', 1);
      r.onupgradeneeded = () => r.result.createObjectStore('state');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const idb = (mode, fn) => new Promise((resolve, reject) => {
      const tx = db.transaction('state', mode);
      const r = fn(tx.objectStore('state'));
      tx.oncomplete = () => resolve(r.result);
      tx.onerror = () => reject(tx.error);
    });
    for (const [k, v] of Object.entries(saved)) await idb('readwrite', (s) => s.put(v, k));
    const stat = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return { n: s.length, median: s[Math.floor((s.length - 1) / 2)], p90: s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)] };
    };
    const out = { bytes: {}, import_ms: {}, restore_ms: {} };
    const open = await Recmem.open({ module });
    for (const form of ['json', 'binary']) {
      out.bytes[form] = saved[form].length;
      const state = form === 'json' ? new TextDecoder().decode(saved[form]) : saved[form];
      const imports = [];
      const restores = [];
      for (let i = 0; i < iters + 1; i++) {
        let t0 = performance.now();
        await open.importState(state);
        const t1 = performance.now();
        await open.reset();
        // A restore: from IndexedDB to a first answer, on a new instance.
        t0 = [t1 - t0, performance.now()];
        const bytes = await idb('readonly', (s) => s.get(form));
        const rm = await Recmem.open({ module, state: form === 'json' ? new TextDecoder().decode(bytes) : bytes });
        const slate = await rm.selectSlate({ query: questions[i % questions.length], budget: 2000 });
        const t2 = performance.now();
        await rm.close();
        if (!slate.units.length) throw new Error('restore: the restored memory chose no unit');
        if (i === 0) continue; // a warm-up round
        imports.push(t0[0]);
        restores.push(t2 - t0[1]);
      }
      out.import_ms[form] = stat(imports);
      out.restore_ms[form] = stat(restores);
    }
    await open.close();
    db.close();
    return out;
  }, { list, questions, iters });
  result.units = list.length;
  result.chromium = context.browser()?.version() ?? '';
  result.what = 'import_ms: importState(bytes) on an open instance; restore_ms: the bytes read from IndexedDB, Recmem.open of the compiled module with the state, and a first select_slate at B=2000';
  if (args.json) {
    console.log(JSON.stringify(result));
  } else {
    for (const form of ['json', 'binary']) {
      const i = result.import_ms[form];
      const r = result.restore_ms[form];
      console.log(`${form.padEnd(6)} ${result.units} units, ${result.bytes[form]} bytes: import ${i.median.toFixed(1)} ms (p90 ${i.p90.toFixed(1)}), restore to a first answer ${r.median.toFixed(1)} ms (p90 ${r.p90.toFixed(1)}), ${r.n} runs`);
    }
  }
} finally {
  await context?.close();
  server.close();
  rmSync(userData, { recursive: true, force: true });
}
