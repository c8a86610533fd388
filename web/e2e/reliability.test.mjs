// Browser tests of issue 17's page items: repeated clicks record once, the
// Edit dialog's Cancel always closes, the status line follows an import,
// errors say sizes in words and that nothing was added, and the module's
// memory levels off over a long run in the browser's WASI shim. Same setup
// as the other page tests (harness.mjs): bin/recmem serve, Debian's chromium, a fresh profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './harness.mjs';

let page;
let base;
let context;
let pageErrors;
let close;

before(async () => {
  ({ page, base, context, pageErrors, close } = await openPage());
});

after(async () => { await close?.(); });

const doc = async () => JSON.parse(await page.evaluate(() => window.recmem.engine.exportText()));
const idle = () => page.waitForFunction(() => document.querySelectorAll('#items li[data-busy]').length === 0);

test('a double-click on Like and a triple-click on Dislike record one event each', async () => {
  await page.fill('#search', 'uncharted');
  await page.waitForFunction(() => document.querySelectorAll('#items li[data-item]').length >= 2);
  const ids = await page.locator('#items li[data-item]').evaluateAll((els) => els.map((e) => e.dataset.item));
  const before = (await doc()).memory.events.length;
  await page.locator(`#items li[data-item="${ids[0]}"] button[data-action="like"]`).dblclick();
  await page.locator(`#items li[data-item="${ids[1]}"] button[data-action="dislike"]`).click({ clickCount: 3 });
  await idle();
  await page.waitForFunction((n) => window.recmem.doc.memory.events.length >= n + 2, before);
  await page.waitForTimeout(300); // any late second click would have landed by now
  const d = await doc();
  const acts = d.memory.events.slice(before).map((e) => `${e.action} ${e.item}`);
  assert.deepEqual(acts, [`like ${ids[0]}`, `dislike ${ids[1]}`]);
  assert.equal(d.memory.client_ids?.length, 2, 'each action carried its client id');
  await page.fill('#search', '');
});

test('the Edit dialog closes on Cancel even when its input is invalid', async () => {
  await page.evaluate(() => window.recmem.engine.applyOps([{ op: 'extract', category: 'genre', text: 'Enjoys puzzles', strength: 0.8 }], { now: 1717300000 }));
  await page.reload(); // the call saved the state; the page shows it after a reload
  await page.waitForSelector('body[data-ready="true"]');
  const row = page.locator('#chunks li[data-chunk]').first();
  await row.locator('button[data-do="edit"]').click();
  await page.fill('#edit-text', '');
  await page.fill('#edit-strength', '7');
  await page.click('#edit-chunk button[value="cancel"]');
  await page.waitForSelector('#edit-chunk', { state: 'hidden' });
  assert.ok((await doc()).memory.chunks.some((c) => c.text === 'Enjoys puzzles'), 'nothing was edited');
});

test('the status line says what the last import did', async () => {
  await page.click('nav [data-tab="settings"]');
  const saved = await page.evaluate(() => window.recmem.engine.exportText());
  await page.click('#forget');
  await page.click('#confirm-forget-yes');
  await page.waitForFunction(() => /wiped/.test(document.querySelector('#status').textContent));
  await page.setInputFiles('#import-file', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(saved) });
  await page.waitForFunction(() => /mine\.json/.test(document.querySelector('#data-meta').textContent));
  const status = await page.locator('#status').textContent();
  assert.doesNotMatch(status, /wiped/);
  assert.match(status, /imported from mine\.json/);
});

test('an input too large for the module is refused in words, and nothing is added', async () => {
  await page.click('nav [data-tab="agent"]');
  const before = await page.evaluate(() => window.recmem.engine.exportText());
  // A LoCoMo file of about 20 MB: more than the module takes in one call.
  const turns = Array.from({ length: 2600 }, (_, i) => ({ speaker: 'Ann', dia_id: `D1:${i + 1}`, text: `${'pottery '.repeat(1000)}${i}` }));
  const file = JSON.stringify([{ sample_id: 'big', conversation: { speaker_a: 'Ann', speaker_b: 'Ben', session_1_date_time: '1:56 pm on 8 May, 2023', session_1: turns }, qa: [] }]);
  await page.setInputFiles('#dialog-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForSelector('#error:not([hidden])');
  const msg = await page.locator('#error').textContent();
  assert.doesNotMatch(msg, /\d{6,}/, `byte counts in: ${msg}`);
  assert.match(msg, /\d+(\.\d)? MB/, msg);
  assert.match(msg, /[Nn]othing was added/, msg);
  assert.equal(await page.evaluate(() => window.recmem.engine.exportText()), before);
});

test('recmem.js in the browser: 10,000-unit states on one instance level off, with no WASI error', async () => {
  await page.click('nav [data-tab="recs"]');
  const sizes = await page.evaluate(async () => {
    const { Recmem } = await import('/recmem.js');
    const module = await WebAssembly.compileStreaming(fetch('/out/plugin.wasm'));
    const maker = await Recmem.open({ module });
    for (let i = 0; i < 10000; i += 5000) {
      const units = [];
      for (let j = i; j < i + 5000; j++) units.push({ id: `u${j}`, session: `s${Math.floor(j / 20)}`, speaker: 'Ana', text: `turn ${j} about pottery classes and marathon training` });
      await maker.addUnits(units);
    }
    const state = await maker.exportState();
    await maker.close();
    const rm = await Recmem.open({ module });
    const memory = (await rm.plugin.getInstance()).exports.memory;
    const out = [];
    for (let k = 0; k < 8; k++) {
      await rm.importState(state);
      await rm.memory({ journalLimit: 1 });
      await rm.exportState();
      await rm.reset();
      out.push(memory.buffer.byteLength);
    }
    await rm.close();
    return out;
  });
  // Before the fix: 72, 97, 151, 208, 265, 322, 379, 437 MiB (Node).
  const mb = sizes.map((s) => (s / 1048576).toFixed(0)).join(', ');
  assert.ok(sizes[7] <= 192 * 1048576 && sizes[7] - sizes[3] <= 48 * 1048576, `memory after each call: ${mb} MiB`);
  assert.deepEqual(pageErrors, []);
});

test('examples/browser.html (docs/js.md) runs as written', async () => {
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (err) => errors.push(err.message));
  await p.goto(`${base}examples/browser.html`);
  await p.waitForFunction(() => document.querySelector('#out').textContent !== '');
  assert.equal(await p.locator('#out').textContent(), 'c1 0.9 Prefers Xbox One\napply_ops: input.ops[0].chunk: unknown chunk "c9"');
  assert.deepEqual(errors, []);
  await p.close();
});
