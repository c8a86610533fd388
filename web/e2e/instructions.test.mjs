// Browser tests of instructions (issue 13): the examples and the
// held-out cases of testdata/instructions typed into the games page as a
// user would, the chips of what was understood (removable), the words not
// understood, "nothing matches", the offer to keep an exclusion as an
// "avoids" preference, the collapse of editions, and the time to rank 1,000
// candidates with an instruction in the page (reported, not asserted: speed
// targets live in benchmarks).
//
// Run by ./build.sh test with the other browser tests; by hand:
//   (cd web && node --test e2e/instructions.test.mjs)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { openPage, root } from './harness.mjs';

const results = path.join(root, 'web/test-results');
const T = 20_000;

let page;
let pageErrors;
let close;

before(async () => {
  ({ page, pageErrors, close } = await openPage({ viewport: { width: 1400, height: 1000 } }));
});

after(async () => { await close?.(); });

// instruct types an instruction into the box, presses Enter as a user would,
// and returns the shown list as catalog items.
async function instruct(text) {
  const n = await page.evaluate(() => window.recmem.timings.length);
  await page.fill('#instruction', text);
  await page.press('#instruction', 'Enter');
  await page.waitForFunction((k) => window.recmem.timings.length > k || !document.querySelector('#error').hidden, n, { timeout: T });
  assert.ok(await page.locator('#error').isHidden(), await page.locator('#error').textContent());
  return shown();
}

async function shown() {
  return page.evaluate(() => [...document.querySelectorAll('#recs li[data-item]')].map((e) => window.recmem.catalog.get(e.dataset.item)));
}

async function chips() {
  return page.locator('#understood .chip').evaluateAll((els) => els.map((e) => e.firstChild.textContent.trim()));
}

// holds is the gold predicate of testdata/instructions (pkg/rec.Gold).
function holds(g, item) {
  const words = (s) => ` ${String(s ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ')} `;
  if (g.all) return g.all.every((p) => holds(p, item));
  if (g.any) return g.any.some((p) => holds(p, item));
  if (g.not) return !holds(g.not, item);
  const [field, v] = Object.entries(g)[0];
  const vs = Array.isArray(v) ? v : [v];
  if (field === 'title') return vs.some((x) => words(item.title).includes(words(x)));
  return vs.some((x) => String(item[field] ?? '').toLowerCase() === x.toLowerCase());
}

// heldOut is pkg/rec.HeldOut: FNV-1a (32 bit) of the id, modulo 5, is 0.
function heldOut(id) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(id, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 5 === 0;
}

test('the issue\'s examples, typed into the page', async () => {
  let list = await instruct('no Halo');
  assert.ok(list.length === 10 && list.every((it) => !/halo/i.test(it.title)), list.map((it) => it.title).join(' | '));
  assert.deepEqual(await chips(), ['not: Halo']);
  assert.match(await page.locator('#recs .meets').first().textContent(), /not Halo/);

  list = await instruct('anything but Call of Duty');
  assert.ok(list.length === 10 && list.every((it) => !/call of duty/i.test(it.title)), list.map((it) => it.title).join(' | '));

  list = await instruct('not Xbox 360');
  assert.ok(list.length === 10 && list.every((it) => it.platform !== 'Xbox 360'), list.map((it) => it.platform).join(' | '));

  list = await instruct('I only play on PlayStation 2');
  assert.ok(list.length > 0 && list.every((it) => it.platform === 'PlayStation 2'), list.map((it) => `${it.title} (${it.platform})`).join(' | '));
  // Naming a platform and no kind means its games first (implies_default).
  assert.deepEqual(await chips(), ['only: PlayStation 2', 'prefer: game']);

  list = await instruct('Mario, but not Mario Kart');
  assert.ok(list.length > 0 && list.every((it) => /mario/i.test(it.title) && !/mario kart/i.test(it.title)), list.map((it) => it.title).join(' | '));
  assert.deepEqual(await chips(), ['only: mario', 'not: Mario Kart', 'prefer: game']);
  mkdirSync(results, { recursive: true });
  await page.screenshot({ path: path.join(results, 'instructions-mario.png') });
  assert.deepEqual(pageErrors, []);
});

test('held-out cases typed into the page meet their instruction', async () => {
  const dir = path.join(root, 'testdata/instructions');
  const cases = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => JSON.parse(l)))
    .filter((c) => heldOut(c.id));
  assert.ok(cases.length >= 40, `${cases.length} held-out cases`);
  const byKind = {};
  for (const c of cases) {
    const list = await instruct(c.instruction);
    const share = list.length ? list.filter((it) => holds(c.gold, it)).length / list.length : 0;
    (byKind[c.kind] ??= []).push(share);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const line = Object.entries(byKind).map(([k, v]) => `${k} ${mean(v).toFixed(3)} (${v.length})`).join(', ');
  console.log(`held-out cases in the page (a new user, editions collapsed): p10 ${mean(Object.values(byKind).flat()).toFixed(3)} over ${cases.length}; ${line}`);
  // A floor set before the held-out cases were run: the grounded kinds
  // (everything but knowledge) must hold in the page as in the module.
  const grounded = Object.entries(byKind).filter(([k]) => k !== 'knowledge').flatMap(([, v]) => v);
  assert.ok(mean(grounded) >= 0.9, line);
});

test('chips can be removed; unknown words and "nothing matches" are said plainly', async () => {
  // "games" outside the negation implies a preference for games (the
  // games table's "implies"): a chip like the others.
  await instruct('PS4 games, no Call of Duty');
  assert.deepEqual(await chips(), ['only: PlayStation 4', 'not: Call of Duty', 'prefer: game']);
  const n = await page.evaluate(() => window.recmem.timings.length);
  await page.click('#understood .chip[data-kind="exclude"] .chip-x');
  await page.waitForFunction((k) => window.recmem.timings.length > k, n, { timeout: T });
  assert.equal(await page.inputValue('#instruction'), 'only PlayStation 4. preferably game');
  assert.deepEqual(await chips(), ['only: PlayStation 4', 'prefer: game']);
  const list = await shown();
  assert.ok(list.every((it) => it.platform === 'PlayStation 4'));

  await instruct('no shooters please');
  assert.deepEqual(await chips(), ['not: Shooter']);
  assert.match(await page.locator('#understood .chip[data-kind="exclude"] .how').textContent(), /inferred/);
  // A word not understood changes nothing in a positive scope; negated,
  // it is a hint, and the chip says so.
  await instruct('something qwxzv please, no blurgh');
  assert.deepEqual(await chips(), ['not understood: qwxzv', 'not understood: blurgh (a hint)']);

  await instruct('Halo on the GameCube');
  assert.match(await page.locator('#understood .nothing').textContent(), /Nothing matches all of your instruction/);
  await page.screenshot({ path: path.join(results, 'instructions-nothing.png') });
});

test('everyday words, ages, typos, groups and other languages are understood and said', async () => {
  // An age is never read as the title word "year": no "Game of the Year"
  // edition, nothing the catalog infers as for adults.
  let list = await instruct('something for my 7-year-old');
  assert.ok(list.length === 10 && list.every((it) => !/year/i.test(it.title) && !(it.audience ?? []).includes('Mature')), list.map((it) => it.title).join(' | '));
  assert.deepEqual(await chips(), ['not: Mature', 'prefer: Family', 'prefer: game']);

  // One phrase, eleven platforms: one chip, one offer, one line per item.
  list = await instruct('nothing from Nintendo');
  const ch = await chips();
  assert.equal(ch.length, 1);
  assert.match(ch[0], /^not: nintendo \(\d+\)$/);
  assert.equal(await page.locator('#understood button.offer').count(), 1);
  assert.ok((await page.locator('#recs .meets').first().textContent()).split('·').length <= 2);

  list = await instruct('metriod');
  assert.ok(list.length > 0 && list.every((it) => /metroid/i.test(it.title)), list.map((it) => it.title).join(' | '));
  assert.match(await page.locator('#understood .chip .how').first().textContent(), /typo/);

  list = await instruct('juegos de carreras para PS2');
  assert.deepEqual(await chips(), ['only: Racing', 'only: PlayStation 2', 'prefer: game']);
  assert.ok(list.every((it) => it.platform === 'PlayStation 2'));

  // The catalog search reads words as the module does: "pokemon" finds
  // the "Pokémon" titles.
  await page.fill('#search', 'pokemon');
  const found = await page.locator('#items li, #items .item').allTextContents();
  assert.ok(found.some((t) => /Pokémon/.test(t)), found.slice(0, 5).join(' | '));

  await instruct('under $20, not sure');
  assert.match(await page.locator('#understood').textContent(), /this catalog has no prices/);
  await page.screenshot({ path: path.join(results, 'instructions-everyday.png') });
  assert.deepEqual(pageErrors, []);
});

test('"never show me Halo" can be kept as an avoids preference, journaled', async () => {
  await instruct('never show me Halo');
  const offer = page.locator('#understood button.offer[data-avoid="Halo"]');
  assert.equal(await offer.count(), 1);
  const n = await page.evaluate(() => window.recmem.timings.length);
  await offer.click();
  await page.waitForFunction((k) => window.recmem.timings.length > k, n, { timeout: T });
  const doc = JSON.parse(await page.evaluate(() => window.recmem.engine.exportText()));
  const chunk = doc.memory.chunks.find((c) => c.polarity === 'avoids' && c.key === 'halo');
  assert.ok(chunk, JSON.stringify(doc.memory.chunks));
  assert.equal(chunk.strength, 1);
  assert.ok(doc.memory.journal.some((j) => j.op === 'avoid' && j.trigger === 'user' && j.chunks?.includes(chunk.id)));
  assert.equal(await page.locator('#chunks li[data-chunk] .tag.neg').count() > 0, true);
  // Offered once: the preference is kept now.
  await instruct('never show me Halo');
  assert.equal(await page.locator('#understood button.offer[data-avoid="Halo"]').count(), 0);
  await page.screenshot({ path: path.join(results, 'instructions-avoid.png') });
});

test('editions of one game do not fill the list', async () => {
  await instruct('only Halo');
  const keys = await page.evaluate(async () => {
    const { editionKey } = await import('./app/instruct.js');
    return [...document.querySelectorAll('#recs li[data-item]')].map((e) => editionKey(window.recmem.catalog.get(e.dataset.item).title));
  });
  assert.equal(new Set(keys).size, keys.length, keys.join(' | '));
  assert.ok(await page.locator('#recs .editions').count() > 0, 'some games had other editions folded in');
});

test('ranking 1,000 candidates with an instruction in the page (timed, reported)', async () => {
  const ms = await page.evaluate(async () => {
    const ids = [...window.recmem.catalog.keys()].slice(0, 1000);
    const out = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      await window.recmem.engine.rank(ids, { instruction: 'PS4 or Xbox One, no Call of Duty and no accessories', k: 30 });
      out.push(performance.now() - t0);
    }
    return out.sort((a, b) => a - b);
  });
  console.log(`rank of 1,000 candidates with an instruction in the page: median ${ms[3].toFixed(1)} ms, min ${ms[0].toFixed(1)} ms, max ${ms[6].toFixed(1)} ms (7 calls)`);
  assert.ok(ms.length === 7);
});
