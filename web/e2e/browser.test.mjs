// Browser tests: the page served by `bin/recmem serve` in Debian's headless
// chromium, driven by playwright-core (no browser download). One persistent
// profile in a fresh temporary directory, so IndexedDB survives the reloads
// the tests make and nothing leaks between runs. The page's clock is fixed
// with ?now=, so the module sees the same times on every run.
//
// Run by ./build.sh test after the Node conformance tests; by hand:
//   (cd web && node --test e2e/)
// RECMEM_SCREENSHOT=1 also refreshes docs/screenshot.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, readFileSync, copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const results = path.join(root, 'web/test-results');
const chromiumPath = process.env.RECMEM_CHROMIUM || '/usr/bin/chromium';
const recmem = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
const wasm = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
const NOW = 1717236000; // 2024-06-01 10:00 UTC: the page's clock starts here
const T = 20_000; // bound on any single wait

let server;
let base;
let context;
let page;
let userData;
let exportsList = [];
const pageErrors = [];
const timings = {};

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(recmem, ['serve', '--addr', '127.0.0.1:0', '--web', path.join(root, 'web'), '--wasm', wasm], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`recmem serve printed no URL in ${T} ms: ${out}${err}`)), T);
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve({ proc: p, url: m[0] }); }
    });
    p.stderr.on('data', (d) => { err += d; });
    p.on('exit', (code) => { clearTimeout(timer); reject(new Error(`recmem serve exited with ${code}: ${err}`)); });
  });
}

async function ready() {
  await page.waitForSelector('body[data-ready="true"]', { timeout: T });
}

async function stateText() {
  return page.evaluate(() => window.recmem.engine.exportText());
}

async function stateDoc() {
  return JSON.parse(await stateText());
}

// lastTiming returns the latency the page measured for its latest action.
async function lastTiming() {
  return page.evaluate(() => window.recmem.timings.at(-1));
}

function note(action, ms) {
  (timings[action] ??= []).push(ms);
}

async function tab(name) {
  await page.click(`nav [data-tab="${name}"]`);
  await page.waitForSelector(`#tab-${name}:not([hidden])`, { timeout: T });
}

async function shot(name) {
  mkdirSync(results, { recursive: true });
  const file = path.join(results, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

// step runs a UI action and waits until the page has finished it: a new
// entry in window.recmem.timings (the latency the page measured for calls,
// save and render), or an error shown to the user, which fails the test with
// its text. It returns the timing; with label, the timing is also noted.
async function step(fn, label) {
  const n = await page.evaluate(() => window.recmem.timings.length);
  await page.evaluate(() => { const e = document.querySelector('#error'); e.hidden = true; e.textContent = ''; });
  await fn();
  await page.waitForFunction((k) => window.recmem.timings.length > k || !document.querySelector('#error').hidden, n, { timeout: T });
  const err = page.locator('#error');
  if (!(await err.isHidden())) throw new Error(`the page shows an error: ${await err.textContent()}`);
  const t = await lastTiming();
  if (label) note(label, t.ms);
  return t;
}

// actOn acts on the catalog row of item id and waits for the page to finish.
async function actOn(id, action) {
  const row = page.locator(`#items li[data-item="${id}"]`);
  return step(async () => {
    if (action.startsWith('rate ')) {
      await row.locator('select[data-action="rate"]').selectOption(action.slice(5));
    } else {
      await row.locator(`button[data-action="${action}"]`).click();
    }
  }, 'act (record, save, re-rank, render)');
}

async function searchFor(q) {
  await page.fill('#search', q);
  await page.waitForFunction((w) => {
    const titles = [...document.querySelectorAll('#items li .item-title')];
    return titles.length > 0 && titles.every((e) => e.textContent.toLowerCase().includes(w));
  }, q, { timeout: T });
  return page.locator('#items li[data-item]').evaluateAll((els) => els.map((e) => e.dataset.item));
}

before(async () => {
  assert.ok(existsSync(chromiumPath), `${chromiumPath} is missing: apt-get install -y chromium (./build.sh test does it)`);
  assert.ok(existsSync(recmem), 'bin/recmem is missing: run ./build.sh first');
  const s = await startServer();
  server = s.proc;
  base = s.url;
  userData = mkdtempSync(path.join(tmpdir(), 'recmem-chromium-'));
  context = await chromium.launchPersistentContext(userData, {
    executablePath: chromiumPath,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
  });
  page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(T);
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => { if (msg.type() === 'error') console.log(`  [page console] ${msg.text()}`); });
});

after(async () => {
  await context?.close();
  if (server) {
    server.kill('SIGINT');
    await new Promise((r) => { server.once('exit', r); setTimeout(r, 5000); });
  }
  if (userData) rmSync(userData, { recursive: true, force: true });
  const summary = Object.entries(timings).map(([k, v]) => {
    const s = [...v].sort((a, b) => a - b);
    return `${k}: n=${s.length} median ${s[Math.floor(s.length / 2)].toFixed(1)} ms, max ${s.at(-1).toFixed(1)} ms`;
  });
  if (summary.length) console.log(`browser latency: ${summary.join('; ')}`);
});

test('the page loads the module and becomes interactive', async () => {
  const t0 = Date.now();
  await page.goto(`${base}?now=${NOW}&catalog=demo#recs`);
  await ready();
  const wall = Date.now() - t0;
  const loadMs = await page.evaluate(() => window.recmem.loadMs);
  note('first load (navigation start to interactive)', loadMs);
  console.log(`browser first load to interactive: ${loadMs.toFixed(0)} ms in the page (${wall} ms from goto)`);
  exportsList = await page.evaluate(() => [...window.recmem.engine.available]);
  assert.ok(exportsList.includes('export_state'), `exports: ${exportsList}`);
  assert.equal(await page.locator('#error').isHidden(), true, await page.locator('#error').textContent());
  assert.ok(await page.locator('#items li[data-item]').count() >= 20, 'catalog rows');
  assert.deepEqual(pageErrors, []);
});

test('acting on items updates the tiers, the journal and the recommendations', async (t) => {
  if (!exportsList.includes('record')) {
    t.skip('the module has no record export in this build');
    return;
  }
  const recsBefore = await page.locator('#recs li[data-item]').evaluateAll((els) => els.map((e) => e.dataset.item));
  // Search narrows the catalog; act on the first results.
  const halo = await searchFor('halo');
  assert.ok(halo.length >= 3, `halo items: ${halo}`);
  await actOn(halo[0], 'purchase');
  await actOn(halo[1], 'like');
  await actOn(halo[2], 'rate 5');
  const mario = await searchFor('mario');
  assert.ok(mario.length >= 3, `mario items: ${mario}`);
  await actOn(mario[0], 'dislike');
  await actOn(mario[1], 'rate 1');
  await actOn(mario[2], 'like');
  await page.fill('#search', '');

  const doc = await stateDoc();
  assert.equal(doc.memory.events.length, 6, 'six events in the FIFO');
  assert.equal(await page.locator('#events li[data-event]').count(), 6);
  assert.deepEqual(doc.memory.events.map((e) => e.time), [0, 1, 2, 3, 4, 5].map((i) => doc.memory.events[0].time + 60 * i), 'times come from the page clock');
  assert.ok(doc.memory.events[0].time >= NOW);
  const first = await page.evaluate((id) => window.recmem.catalog.get(id), halo[0]);
  assert.equal(doc.memory.events[0].item, halo[0]);
  assert.deepEqual(doc.memory.events[0].meta.title, [first.title], 'item metadata is recorded with the signal');
  if (exportsList.includes('maintain')) {
    // Maintenance runs by itself every B=5 signals, or on demand: run it now.
    await step(() => page.click('#maintain'), 'maintain');
  }
  const after = await stateDoc();
  assert.ok(after.memory.chunks.length > 0, 'preference chunks were extracted');
  assert.equal(await page.locator('#chunks li[data-chunk]').count(), after.memory.chunks.length);
  assert.ok(await page.locator('#chunks .bar').count() > 0, 'strength bars');
  // In words first; the figures with the details.
  assert.match(await page.locator('#chunks li[data-chunk] .meta').first().innerText(), /^(very strong|strong|moderate|weak) · from (one action|\d+ actions)/);
  assert.doesNotMatch(await page.locator('#chunks').innerText(), /evidence/);
  await page.check('#show-details');
  assert.match(await page.locator('#chunks').innerText(), /evidence \d+/);
  await page.uncheck('#show-details');
  assert.ok(after.memory.journal.length > 0, 'journal entries');
  assert.ok(await page.locator('#journal li[data-op]').count() > 0);
  assert.ok((await page.locator('#journal').textContent()).length > 20, 'journal shows reasons');
  if (exportsList.includes('apply_ops')) {
    // The profile is synthesized every gamma mutations, or on demand.
    await step(() => page.click('#synthesize'), 'rewrite profile');
    const d = await stateDoc();
    assert.ok(d.memory.profile.text.length > 0, 'a profile');
    assert.equal((await page.locator('#profile').textContent()).trim(), d.memory.profile.text.trim());
    assert.equal(d.memory.journal.at(-1).op, 'synthesize');
    assert.equal(d.memory.journal.at(-1).trigger, 'user');
  }

  if (exportsList.includes('rank')) {
    await page.waitForFunction(() => document.querySelectorAll('#recs li[data-item]').length > 0, null, { timeout: T });
    const recsAfter = await page.locator('#recs li[data-item]').evaluateAll((els) => els.map((e) => e.dataset.item));
    assert.notDeepEqual(recsAfter, recsBefore, 'recommendations follow the memory');
    for (const id of [...halo.slice(0, 3), ...mario.slice(0, 3)]) assert.ok(!recsAfter.includes(id), 'acted-on items are not recommended');
    assert.match(await page.locator('#recs .why').first().innerText(), /^(because you|close to your recent games|fits your|you said|popular|new to you)/);
    assert.equal(await page.locator('#recs .explain').first().isVisible(), false, 'the figures wait for the details');
    await page.check('#show-details');
    assert.match(await page.locator('#recs .explain').first().innerText(), /score/);
    await page.uncheck('#show-details');
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = await shot('games');
    if (process.env.RECMEM_SCREENSHOT === '1') copyFileSync(file, path.join(root, 'docs/screenshot.png'));
    // An instruction steers the ranking.
    await page.fill('#instruction', 'racing game for Nintendo Wii');
    await step(() => page.click('#rank'), 'rank');
    const steered = await page.locator('#recs li[data-item] .item-title').allTextContents();
    // Every item shown meets it: a Wii game the catalog knows as racing
    // (its genres are inferred from titles, so there may be few).
    assert.ok(steered.length >= 1 && steered.every((s) => /wii/i.test(s)), `instruction steers: ${steered.join(' | ')}`);
    assert.match(await page.locator('#recs .why').first().innerText(), /what you asked for|close to what you asked/);
    assert.match(await page.locator('#recs .explain').first().textContent(), /instruction/);
    // The platform filter narrows the candidates.
    await page.fill('#instruction', '');
    await step(() => page.selectOption('#platform', 'Nintendo Wii'), 'rank');
    const wii = await page.locator('#recs li[data-item]').evaluateAll((els) => els.map((e) => e.dataset.item));
    const platforms = await page.evaluate((ids) => ids.map((id) => window.recmem.catalog.get(id).platform), wii);
    assert.ok(platforms.length > 0 && platforms.every((p) => p === 'Nintendo Wii'), `platforms: ${platforms}`);
    await step(() => page.selectOption('#platform', ''), 'rank');
  } else {
    assert.match(await page.locator('#recs').textContent(), /not available in this build/);
  }

  if (exportsList.includes('apply_ops') && after.memory.chunks.length > 0) {
    // A hand edit and a hand delete are journaled operations.
    const first = page.locator('#chunks li[data-chunk]').first();
    const id = await first.getAttribute('data-chunk');
    await first.locator('button[data-do="edit"]').click();
    await page.fill('#edit-strength', '0.55');
    await step(() => page.click('#edit-save'), 'edit');
    let d = await stateDoc();
    assert.equal(d.memory.chunks.find((c) => c.id === id)?.strength, 0.55, 'edited strength');
    assert.ok(d.memory.journal.some((j) => j.op === 'edit' && j.trigger === 'user' && j.chunks?.includes(id)), 'edit journaled');
    await step(() => page.locator(`#chunks li[data-chunk="${id}"] button[data-do="delete"]`).click(), 'delete');
    d = await stateDoc();
    assert.ok(!d.memory.chunks.some((c) => c.id === id), 'chunk deleted');
    assert.ok(d.memory.journal.some((j) => j.op === 'delete' && j.trigger === 'user' && j.chunks?.includes(id)), 'delete journaled');
    assert.ok(await page.locator('#journal li[data-op="delete"]').count() > 0);
  }
  await shot('games-after-edits');
  assert.deepEqual(pageErrors, []);
});

test('the memory survives a reload', async () => {
  const before = await stateText();
  const events = await page.locator('#events li[data-event]').count();
  await page.reload();
  await ready();
  assert.equal(await stateText(), before, 'the module holds the same state after a reload');
  assert.equal(await page.locator('#events li[data-event]').count(), events);
  assert.match(await page.locator('#status').textContent(), /restored/);
  note('reload to interactive', await page.evaluate(() => window.recmem.loadMs));
});

test('export, forget me and import give back the same state', async () => {
  const original = await stateText();
  await tab('settings');
  mkdirSync(results, { recursive: true });
  const file = path.join(results, 'exported-memory.json');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: T }), page.click('#export')]);
  await download.saveAs(file);
  assert.equal(readFileSync(file, 'utf8'), original, 'the exported file is the state document');

  // "Forget me" asks first; keeping the memory changes nothing.
  await page.click('#forget');
  await page.click('#confirm-forget button[value="cancel"]');
  await page.waitForSelector('#confirm-forget', { state: 'hidden', timeout: T });
  assert.equal(await stateText(), original, 'cancelled: nothing forgotten');
  await page.click('#forget');
  await step(() => page.click('#confirm-forget-yes'), 'forget me');
  assert.match(await page.locator('#data-meta').textContent(), /forgotten/);
  const wiped = await stateDoc();
  assert.equal(wiped.memory.events.length, 0);
  assert.equal(wiped.memory.chunks.length, 0);
  const stored = await page.evaluate(async () => {
    const db = await new Promise((res, rej) => { const r = indexedDB.open('recmem', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    return new Promise((res) => { const q = db.transaction('kv').objectStore('kv').count(); q.onsuccess = () => res(q.result); });
  });
  assert.equal(stored, 0, 'IndexedDB is empty after forget me');
  await page.reload();
  await ready();
  assert.equal((await stateDoc()).memory.events.length, 0, 'still empty after a reload');
  await shot('forgotten');

  await tab('settings');
  await step(() => page.setInputFiles('#import-file', file), 'import');
  assert.equal(await stateText(), original, 'import gives back the exported state byte for byte');
  await page.reload();
  await ready();
  assert.equal(await stateText(), original, 'and it is saved');
});

test('a malformed import file shows an error and changes nothing', async () => {
  const original = await stateText();
  await tab('settings');
  await page.setInputFiles('#import-file', path.join(root, 'testdata/web/malformed-state.json'));
  await page.waitForSelector('#error:not([hidden])', { timeout: T });
  assert.match(await page.locator('#error').textContent(), /Import of malformed-state\.json failed: .+\. Your memory is unchanged\./);
  await shot('malformed-import');
  assert.equal(await stateText(), original);
  // A valid JSON document that is not a state is refused too, naming a field.
  await page.setInputFiles('#import-file', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"schema":"something.else","version":1,"memory":{}}') });
  await page.waitForFunction(() => /other\.json/.test(document.querySelector('#error').textContent), null, { timeout: T });
  assert.match(await page.locator('#error').textContent(), /schema/);
  assert.equal(await stateText(), original);
  // The page still works, and kept its memory.
  await page.reload();
  await ready();
  assert.equal(await stateText(), original);
  assert.deepEqual(pageErrors, []);
});

test('a slate query in the agent-memory view', async (t) => {
  if (!exportsList.includes('select_slate') || !exportsList.includes('add_units')) {
    t.skip(`select_slate or add_units is absent from this build of the module (exports: ${exportsList.join(', ')})`);
    return;
  }
  await tab('agent');
  // A malformed dialogue file is an error, not a crash.
  await page.setInputFiles('#dialog-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('[{"nothing": 1}]') });
  await page.waitForSelector('#error:not([hidden])', { timeout: T });
  assert.match(await page.locator('#error').textContent(), /bad\.json/);

  await step(() => page.setInputFiles('#dialog-file', path.join(root, 'testdata/web/locomo-mini.json')), 'import dialogue');
  assert.match(await page.locator('#dialog-file-meta').textContent(), /LoCoMo · handmade-1: 12 turns in \d+ sessions added/);
  await step(() => page.setInputFiles('#dialog-file', path.join(root, 'testdata/web/longmemeval-mini.json')), 'import dialogue');
  assert.match(await page.locator('#dialog-file-meta').textContent(), /LongMemEval · lme-mini-1: 6 turns in \d+ sessions added/);

  await page.fill('#turn-text', 'Remember that my favourite pottery glaze is celadon green.');
  await step(() => page.click('#turn-form button[type="submit"]'), 'add turn');
  assert.equal(await page.locator('#sources li[data-unit]').count(), 19);

  await page.fill('#question', 'What colour did Ana paint her first pottery bowl?');
  await page.fill('#budget', '60');
  await step(() => page.click('#ask-form button[type="submit"]'), 'select slate');
  const units = await page.locator('#slate li[data-unit]').evaluateAll((els) => els.map((e) => e.dataset.unit));
  assert.ok(units.includes('handmade-1/D2:2'), `the slate holds the evidence turn: ${units}`);
  const meta = await page.locator('#slate-meta').textContent();
  const m = meta.match(/(\d+) of (\d+) tokens used/);
  assert.ok(m && Number(m[1]) <= 60 && Number(m[2]) === 60, meta);
  const text = await page.locator('#slate').textContent();
  assert.match(text, /\[10:02 am on 21 March, 2023\] Ana: Messy but fun/, 'date and speaker shown');
  await shot('agent');
  // The units persist with the rest of the memory.
  await page.reload();
  await ready();
  await tab('agent');
  assert.equal(await page.locator('#sources li[data-unit]').count(), 19);
  assert.deepEqual(pageErrors, []);
});

test('the LLM setting is stored, and the module\'s llm_complete reaches the endpoint', async () => {
  await tab('settings');
  const imports = await page.evaluate(() => window.recmem.engine.importsHost('llm_complete'));
  assert.match(await page.locator('#llm-status').textContent(), /LLM-free policies run/);
  if (!imports) {
    // A build without the LLM path: the setting is only stored.
    await page.fill('#llm-endpoint', 'http://127.0.0.1:9/v1');
    await page.click('#llm-form button[type="submit"]');
    await page.waitForFunction(() => /127\.0\.0\.1:9/.test(document.querySelector('#llm-status').textContent), null, { timeout: T });
    await page.reload();
    await ready();
    assert.equal(await page.inputValue('#llm-endpoint'), 'http://127.0.0.1:9/v1');
    return;
  }
  // A stand-in OpenAI-compatible endpoint, answered inside the browser: every
  // chat completion returns a profile, the answer the synthesis step takes.
  const requests = [];
  await page.route('http://llm.test/v1/chat/completions', async (route) => {
    requests.push(JSON.parse(route.request().postData()));
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' },
      body: JSON.stringify({
        choices: [{ message: { role: 'assistant', content: '{"profile": "Written by the test model: a Zelda collector."}' } }],
        usage: { prompt_tokens: 120, completion_tokens: 12 },
      }),
    });
  });
  // No step named: the measured defaults of the model (docs/llm.md), none
  // for SmolLM2-135M, and the panel says so.
  await page.fill('#llm-endpoint', 'http://llm.test/v1');
  await page.fill('#llm-model', 'SmolLM2-135M-Instruct');
  await Promise.all([page.waitForEvent('load', { timeout: T }), page.click('#llm-form button[type="submit"]')]);
  await ready();
  await tab('settings');
  await page.waitForFunction(() => /No step asks the model/.test(document.querySelector('#llm-status').textContent), null, { timeout: T });
  assert.match(await page.locator('#llm-status').textContent(), /none was measured to help smollm2-135m-instruct .*http:\/\/llm\.test\/v1 is not called/);
  await page.fill('#llm-model', 'test-model');
  await page.fill('#llm-steps', 'synthesize');
  await Promise.all([page.waitForEvent('load', { timeout: T }), page.click('#llm-form button[type="submit"]')]);
  await ready();
  assert.equal(await page.inputValue('#llm-endpoint'), 'http://llm.test/v1');
  await tab('settings');
  await page.waitForFunction(() => /named here/.test(document.querySelector('#llm-status').textContent), null, { timeout: T });
  assert.match(await page.locator('#llm-status').textContent(), /Steps that ask the model: synthesize \(named here\)\. They ask http:\/\/llm\.test\/v1 \(model test-model\)/);
  // Five purchases: the fixed scheduler maintains and extracts.
  await tab('recs');
  const zelda = await searchFor('zelda');
  for (const id of zelda.slice(0, 5)) await actOn(id, 'purchase');
  await page.fill('#search', '');
  // The automatic synthesis in the middle of an extraction is not asked of
  // the model (its text would be stale at once, docs/llm.md); "Rewrite
  // profile" is.
  await page.click('#synthesize');
  await page.waitForFunction(() => /Written by the test model/.test(document.querySelector('#profile')?.textContent ?? ''), null, { timeout: T });
  const doc = await stateDoc();
  assert.ok(requests.length > 0, 'the endpoint was called');
  assert.equal(requests[0].model, 'test-model');
  assert.equal(requests[0].temperature, 0);
  assert.ok(requests[0].messages.length >= 1);
  assert.match(doc.memory.profile.text, /Written by the test model/);
  await tab('settings');
  assert.match(await page.locator('#llm-usage').textContent(), /This session: synthesize \d+ calls?, \d+ \+ \d+ tokens/);
  await tab('recs');
  assert.equal((await page.locator('#profile').textContent()).trim(), doc.memory.profile.text.trim());
  await shot('llm-profile');
  // Clearing the endpoint goes back to the LLM-free policies.
  await tab('settings');
  await Promise.all([page.waitForEvent('load', { timeout: T }), page.click('#llm-clear')]);
  await ready();
  assert.match(await page.locator('#llm-status').textContent(), /No LLM endpoint set: the LLM-free policies run/);
  assert.deepEqual(pageErrors, []);
});

// The typed module recmem.js in Chromium: the same calls and results as its
// Node test (web/test/recmem.test.mjs) and the Go examples, in a fresh tab.
test('recmem.js runs unchanged in the browser', async () => {
  const tabPage = await context.newPage();
  try {
    await tabPage.goto(`${base}index.html`);
    const got = await tabPage.evaluate(async () => {
      const { Recmem, RecmemError } = await import('/recmem.js');
      const rm = await Recmem.open({ module: new URL('/out/plugin.wasm', location.href) });
      const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
        'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];
      const signals = titles.map((t, i) => ({ user: 'u1', item: `g${i}`, action: 'purchase', meta: { title: t }, time: 1700000000 + i * 86400 }));
      const rec = await rm.record(signals, { maintain: 'fixed' });
      const mem = await rm.memory();
      let error = null;
      try { await rm.applyOps([{ op: 'boost', chunk: 'c9' }]); } catch (err) { error = { isRecmem: err instanceof RecmemError, message: err.message }; }
      const state = await rm.exportState();
      const again = await Recmem.open({ module: new URL('/out/plugin.wasm', location.href), state });
      const roundTrip = (await again.exportState()) === state;
      await rm.addUnits([
        { id: 'D1:1', session: '1', date: '8 May 2023', time: '2023-05-08', speaker: 'Ana', text: 'I signed up for a pottery class on Tuesdays.' },
        { id: 'D2:1', session: '2', date: '2 June 2023', time: '2023-06-02', speaker: 'Ana', text: 'My pottery class moved to Thursdays.' },
        { id: 'D2:2', session: '2', date: '2 June 2023', time: '2023-06-02', speaker: 'Ben', text: 'The marathon is in October.' },
      ]);
      const slate = await rm.selectSlate({ query: "Which day is Ana's pottery class now?", date: '2023-06-20', budget: 40 });
      return { decision: rec.maintenance.decision, chunks: mem.chunks.map((c) => [c.id, c.strength, c.text]), error, roundTrip, lines: slate.units.map((u) => u.line) };
    });
    assert.deepEqual(got, {
      decision: 'maintain',
      chunks: [['c1', 0.9, 'Prefers Xbox One']],
      error: { isRecmem: true, message: 'apply_ops: input.ops[0].chunk: unknown chunk "c9"' },
      roundTrip: true,
      lines: ['[8 May 2023] Ana: I signed up for a pottery class on Tuesdays.', '[2 June 2023] Ana: My pottery class moved to Thursdays.'],
    });
  } finally {
    await tabPage.close();
  }
});
