// A first visit to the games page in Chromium (issue 24's "time to the
// first recommendation on a first visit", target 1.5 s): the page as a new
// user opens it, from navigation start to the first recommendations shown.
//
//   node web/bench/firstvisit.mjs [--iters 5] [--json]
//
// It starts bin/recmem serve (RECMEM_BIN; the module is out/plugin.wasm or
// RECMEM_WASM) on loopback and, --iters times, opens Debian's chromium (or
// RECMEM_CHROMIUM) headless through playwright-core on a fresh profile (no
// cache, no IndexedDB: a first visit) at the page's address with no query,
// and reads what the page measured with performance.now() (and its steps:
// the module compiled, the catalog loaded, the first list): firstRecsMs,
// when the first list of recommendations was rendered (fetching and
// compiling the module, an empty memory, the demo catalog fetched and
// loaded, the first ranking of 1,000 candidates), and loadMs, when the page
// became interactive. Medians and p90 go to stdout (one JSON object with
// --json); progress to stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({ options: { iters: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const iters = Number(args.iters);
if (!(iters >= 1)) {
  console.error('usage: node web/bench/firstvisit.mjs [--iters N] [--json]');
  process.exit(2);
}
const chromiumPath = process.env.RECMEM_CHROMIUM || '/usr/bin/chromium';
const recmem = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
const wasm = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
for (const f of [chromiumPath, recmem, wasm]) {
  if (!existsSync(f)) {
    console.error(`firstvisit: ${f} is missing`);
    process.exit(1);
  }
}
const progress = (s) => process.stderr.write(`firstvisit: ${s}\n`);

const server = spawn(recmem, ['serve', '--addr', '127.0.0.1:0', '--web', path.join(root, 'web'), '--wasm', wasm], { stdio: ['ignore', 'pipe', 'inherit'] });
const stop = () => server.kill('SIGINT');
const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor((s.length - 1) / 2)], p90: s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)], n: s.length };
};

try {
  const base = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from recmem serve: ${out}`)), 30_000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
  });
  const first = [];
  const ready = [];
  const phases = {}; // the page's steps: module compiled, catalog loaded, first recommendations
  let version = '';
  for (let i = 0; i < iters; i++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'recmem-firstvisit-'));
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: chromiumPath, headless: true, viewport: { width: 1400, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
    });
    try {
      const page = context.pages()[0] ?? await context.newPage();
      version = (await page.evaluate(() => navigator.userAgent)).match(/Chrome\/([\d.]+)/)?.[1] ?? version;
      await page.goto(base);
      await page.waitForFunction(() => window.recmem?.firstRecsMs > 0, null, { timeout: 60_000 });
      const t = await page.evaluate(() => ({ first: window.recmem.firstRecsMs, ready: window.recmem.loadMs, phases: window.recmem.phases }));
      first.push(t.first);
      ready.push(t.ready ?? t.first);
      for (const [k, v] of Object.entries(t.phases ?? {})) (phases[k] ??= []).push(v);
      progress(`visit ${i + 1}: first recommendations after ${t.first.toFixed(0)} ms (${Object.entries(t.phases ?? {}).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')})`);
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const out = { chromium: version, what: 'a new user opens the page (fresh profile): navigation start to the first recommendations shown, and to interactive', first_recs_ms: stat(first), ready_ms: stat(ready),
    phases_ms: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, stat(v)])) };
  console.log(args.json ? JSON.stringify(out) : `first visit in Chromium ${version}: first recommendations ${out.first_recs_ms.median.toFixed(0)} ms (p90 ${out.first_recs_ms.p90.toFixed(0)}), interactive ${out.ready_ms.median.toFixed(0)} ms, over ${iters} visits`);
} finally {
  stop();
}
