// The page keeps the memory in IndexedDB in its binary form (issue 18,
// docs/state-binary.md): saves append deltas to the saved bytes, a reload
// restores the same memory from them, a JSON state saved by an older page
// still restores (and is saved in the binary form from then on), a saved
// state the module refuses is kept under its own key with a clear message,
// and Export still downloads the JSON document. Same setup as
// the other page tests (harness.mjs): bin/recmem serve, Debian's chromium, a fresh profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage } from './harness.mjs';

let page;
let base;
let context;
let pageErrors;
let close;

before(async () => {
  ({ page, base, context, pageErrors, close } = await openPage({ acceptDownloads: true }));
});

after(async () => { await close?.(); });

const ready = () => page.waitForSelector('body[data-ready="true"]');
const reload = async () => { await page.reload(); await ready(); };
const stateText = () => page.evaluate(() => window.recmem.engine.exportText());

// saved reads a key of the page's IndexedDB store, as {kind, bytes} (bytes
// as an array of numbers for a Uint8Array, the text for a string).
const saved = (key) => page.evaluate(async (key) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open('recmem', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const v = await new Promise((res, rej) => { const q = db.transaction('kv').objectStore('kv').get(key); q.onsuccess = () => res(q.result); q.onerror = () => rej(q.error); });
  db.close();
  if (v instanceof Uint8Array) return { kind: 'bytes', bytes: [...v] };
  return v === undefined ? { kind: 'none' } : { kind: typeof v, text: v };
}, key);

// store writes a value (text, or bytes given as an array of numbers) under
// a key, as an older page or a damaged disk would have left it.
const store = (key, value) => page.evaluate(async ({ key, value }) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open('recmem', 1); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  await new Promise((res, rej) => { const t = db.transaction('kv', 'readwrite'); t.objectStore('kv').put(Array.isArray(value) ? new Uint8Array(value) : value, key); t.oncomplete = res; t.onerror = () => rej(t.error); });
  db.close();
}, { key, value });

const like = async () => {
  await page.click('nav [data-tab="recs"]');
  const n = (JSON.parse(await stateText())).memory.events.length;
  await page.locator('#items li[data-item] button[data-action="like"]').first().click();
  await page.waitForFunction((n) => window.recmem.doc.memory.events.length > n, n);
  await page.waitForFunction(() => document.querySelectorAll('#items li[data-busy]').length === 0);
};
const RMSB = [0x52, 0x4d, 0x53, 0x42];

test('the memory is saved in the binary form, deltas appended, and a reload restores it', async () => {
  assert.equal(await page.locator('#download-refused').isVisible(), false, 'nothing refused, no download offered');
  await like();
  assert.deepEqual((await saved('state')).bytes.slice(0, 4), RMSB, 'a binary state');
  // Dialogue turns make a base that a like's change is small beside.
  await page.evaluate(() => window.recmem.engine.addUnits(Array.from({ length: 200 }, (_, i) => ({ id: `D1:${i}`, session: '1', speaker: 'Ann', text: `turn ${i}: my pottery class moved to Thursdays` }))));
  const first = await saved('state');
  assert.equal(first.kind, 'bytes');
  assert.deepEqual(first.bytes.slice(0, 4), RMSB, 'a binary state');
  await like();
  const second = await saved('state');
  assert.deepEqual(second.bytes.slice(0, first.bytes.length), first.bytes, 'the second save appended a segment to the first');
  assert.ok(second.bytes.length > first.bytes.length);
  assert.equal(second.bytes[first.bytes.length + 5], 0x53, 'a segment');
  const before = await stateText();
  await reload();
  assert.equal(await stateText(), before, 'the same memory after a reload');
  assert.match(await page.locator('#status').textContent(), /memory restored from this browser \(\d+ ms\)/);
  assert.equal(await page.locator('#error').isVisible(), false);
});

// The page calls the module through recmem.js's typed methods on its
// Engine (engine.js), which keeps what the page needs around each export.
test('the typed methods run in order, save after a change and only then, and refuse an export the module lacks', async () => {
  const len = async () => (await saved('state')).bytes.length;
  const n0 = await len();
  const out = await page.evaluate(async () => {
    const e = window.recmem.engine;
    const { NotAvailable } = await import('/app/engine.js');
    const seen = [];
    const unit = (id, text) => ({ id, session: 'q', speaker: 'Ann', text });
    // Started together, they finish in the order they were made.
    const calls = [
      e.addUnits([unit('Q:1', 'the kiln is fired on Fridays')]).then(() => seen.push('add')),
      e.memory().then(() => seen.push('memory')),
      e.selectSlate({ query: 'kiln', budget: 50 }).then((r) => seen.push(`slate holds Q:1: ${r.units.some((u) => u.id === 'Q:1')}`)),
      e.deleteUnits(['Q:1']).then(() => seen.push('delete')),
    ];
    await Promise.all(calls);
    let missing;
    e.available.delete('plan');
    try { await e.plan(); } catch (err) { missing = { name: err.name, isNotAvailable: err instanceof NotAvailable, message: err.message }; }
    e.available.add('plan');
    let bad;
    try { await e.addUnits([{ id: 'Q:2' }]); } catch (err) { bad = { name: err.name, message: err.message }; }
    return { seen, missing, bad, planAfter: (await e.plan()).decision };
  });
  assert.deepEqual(out.seen, ['add', 'memory', 'slate holds Q:1: true', 'delete'], 'in the order made: the slate sees the unit added before it, not yet deleted');
  assert.deepEqual(out.missing, { name: 'NotAvailable', isNotAvailable: true, message: 'plan is not available in this build of the module' });
  assert.equal(out.bad.name, 'RecmemError');
  assert.match(out.bad.message, /input\.units\[0\]\.session/, `the module names the field at fault: ${out.bad.message}`);
  assert.match(out.planAfter, /^(maintain|wait)$/, 'the queue goes on after an error');
  // Saved after each change: the add and the delete appended segments.
  const n1 = await len();
  assert.ok(n1 > n0, `saved after the changes (${n0} -> ${n1} bytes)`);
  // Read-only calls save nothing: not even the binary export a save starts
  // with (counted on Recmem's exportState, which Engine's save calls).
  const exports = await page.evaluate(async () => {
    const { Recmem } = await import('/recmem.js');
    const e = window.recmem.engine;
    const orig = Recmem.prototype.exportState;
    const counts = { binary: 0 };
    Recmem.prototype.exportState = function (o) { if (o?.format === 'binary') counts.binary++; return orig.call(this, o); };
    try {
      await e.memory(); await e.selectSlate({ query: 'kiln', budget: 50 }); await e.exportState(); await e.plan();
      counts.readOnly = counts.binary;
      await e.addUnits([{ id: 'Q:4', session: 'q', speaker: 'Ann', text: 'celadon' }]);
      counts.afterChange = counts.binary;
    } finally {
      Recmem.prototype.exportState = orig;
    }
    return counts;
  });
  assert.deepEqual(exports, { binary: 1, readOnly: 0, afterChange: 1 }, 'a save after the change, none after the read-only calls');
  const n1b = await len();
  assert.ok(n1b > n1, 'the change was saved');
  // unsaved: the change is not saved until a save.
  await page.evaluate(() => window.recmem.engine.unsaved(() => window.recmem.engine.addUnits([{ id: 'Q:3', session: 'q', speaker: 'Ann', text: 'glaze' }])));
  assert.equal(await len(), n1b, 'no save inside unsaved');
  await page.evaluate(() => window.recmem.engine.save());
  assert.ok(await len() > n1b, 'save writes it');
  const before = await stateText();
  await reload();
  assert.equal(await stateText(), before, 'the reload restores what was saved');
  await page.evaluate(() => window.recmem.engine.deleteUnits(['Q:3', 'Q:4']));
});

test('Export downloads the JSON document; a binary state file imports too', async () => {
  await page.click('nav [data-tab="settings"]');
  const text = await stateText();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  assert.equal(readFileSync(await download.path(), 'utf8'), text, 'the exported file is the JSON document');
  assert.equal(JSON.parse(text).version, 4);
  const bin = (await saved('state')).bytes;
  await page.setInputFiles('#import-file', { name: 'memory.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(bin) });
  await page.waitForFunction(() => /memory\.bin/.test(document.querySelector('#data-meta').textContent));
  assert.match(await page.locator('#status').textContent(), /imported from memory\.bin/);
  assert.equal(await stateText(), text);
});

test('a JSON state saved by an older page still restores, and is saved in the binary form from then on', async () => {
  const text = await stateText();
  await store('state', text);
  await reload();
  assert.equal(await stateText(), text);
  assert.equal(await page.locator('#error').isVisible(), false);
  assert.match(await page.locator('#status').textContent(), /memory restored from this browser/);
  const now = await saved('state');
  assert.equal(now.kind, 'bytes');
  assert.deepEqual(now.bytes.slice(0, 4), RMSB);
});

test('a corrupted saved state is refused with a clear message and kept, not lost', async () => {
  const good = (await saved('state')).bytes;
  const bad = [...good];
  bad[bad.length - 20] ^= 1;
  await store('state', bad);
  await reload();
  const msg = await page.locator('#error').textContent();
  assert.match(msg, /Your saved memory could not be restored: .*checksum does not match/);
  assert.match(msg, /Nothing was lost: it is kept in this browser's storage \(IndexedDB "recmem", key "refused-state"\)/);
  assert.match(await page.locator('#status').textContent(), /new memory/);
  assert.deepEqual((await saved('refused-state')).bytes, bad, 'kept byte for byte');
  assert.match(msg, /"Your data & settings" has a button to download it/);
  // Settings offers it as a file, byte for byte.
  await page.click('nav [data-tab="settings"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-refused')]);
  assert.equal(download.suggestedFilename(), 'recmem-memory-not-restored.bin');
  assert.deepEqual([...readFileSync(await download.path())], bad);
  // The page goes on with a new memory; its saves never overwrite the refused state.
  await like();
  assert.deepEqual((await saved('state')).bytes.slice(0, 4), RMSB);
  assert.deepEqual((await saved('refused-state')).bytes, bad);
  // A truncated one too.
  await store('state', good.slice(0, good.length - 3));
  await reload();
  assert.match(await page.locator('#error').textContent(), /could not be restored: .*(truncated|shorter)/);
  assert.deepEqual(pageErrors, []);
});
