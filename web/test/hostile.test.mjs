// The attacks of issue 22 on recmem.js in Node: RecmemPool as a server uses
// it (unpackState with a bound on expansion, then acquire), with the
// forgeries of forge.mjs. Each request under 100 kB holds an instance less
// than 1 s and grows its memory by less than 64 MB (measured here, the
// figures in docs/limits.md); the pool never takes a tag it did not compute
// from the bytes, and keeps an instance warm only under bytes whose import
// gives its state exactly.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Recmem, RecmemError, RecmemPool, packState, stateTag, unpackState } from 'recmem';
import { concat, emptySegments, largestAdmitted, memoryOf, piece, rewriteVectors, section, unitSegments, unusedVocabulary } from './forge.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const wasmPath = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
const module = await WebAssembly.compile(readFileSync(wasmPath));
const sealKey = 'a-test-seal-key-of-at-least-32-bytes!';

const opened = [];
after(async () => { await Promise.all(opened.map((p) => p.close())); });
async function pool(opts = {}) {
  const p = await RecmemPool.open({ module, size: 2, ...opts });
  opened.push(p);
  return p;
}

// A state of n units of one word each (the state that packs best).
async function tinyUnits(n) {
  const rm = await Recmem.open({ module });
  const units = Array.from({ length: n }, (_, i) => ({ id: String(i), session: 's', text: 'ok' }));
  for (let i = 0; i < n; i += 5000) await rm.addUnits(units.slice(i, i + 5000));
  const bin = await rm.exportState({ format: 'binary' });
  await rm.close();
  return bin;
}

const turns = (n, user = 'ann') => Array.from({ length: n }, (_, i) => ({
  id: `${user}-${i}`, session: `s${i % 5}`, speaker: i % 2 ? 'Ben' : 'Ann',
  text: `${user} turn ${i}: the kiln in the garden shed needs ${i % 4} new shelves, and pottery class moved to Thursday ${i}`,
}));

// serveLike takes a packed state as a server does: unpacked with the bound
// recmem serve uses (6 bytes a byte, or 256 KiB), then acquired from the
// pool and released. It returns the outcome, how long the instance was held
// and how much its memory grew.
async function serveLike(p, packed, call = (rm) => rm.memory()) {
  const t0 = performance.now();
  let doc;
  try {
    doc = await unpackState(packed, { maxBytes: 8 << 20, maxExpansion: 6 });
  } catch (err) {
    return { refused: err.message, ms: performance.now() - t0, grew: 0 };
  }
  let rm = null;
  let before = 0;
  try {
    rm = await p.acquire(null);
    before = rm.memoryBytes();
    await p.release(rm);
    rm = await p.acquire(doc);
    await call(rm);
    return { ok: true, ms: performance.now() - t0, grew: rm.memoryBytes() - before };
  } catch (err) {
    return { refused: err.message, ms: performance.now() - t0, grew: rm ? rm.memoryBytes() - before : 0 };
  } finally {
    if (rm) await p.release(rm);
  }
}

test('requests of a few kB that unfold into long or large imports are refused before the work (issue 22, findings 2 and 3)', async () => {
  const p = await pool({ size: 1 });
  const base = await tinyUnits(20000);
  const mem = memoryOf(base);
  const cases = [
    ['2,000 segments after a base of 20,000 units', unitSegments(base, 2000), /unpacks to more than 262 kB from/],
    ['17 segments after a base of 20,000 units', unitSegments(base, 17), /more than 16 segments after the base, the most one import applies/],
    ['17 empty segments', emptySegments(base, 17), /state\.binary\.segments\[16\]: more than 16 segments/],
    ['1,000,000 unused words in 7 MB', unusedVocabulary(mem, 1_000_000), /unpacks to more than 262 kB from/],
    ['30,000 unused words (under the unpacking bound)', unusedVocabulary(mem, 30_000), /tokens\[0\]: used by no unit of this piece/],
    ['100,000 one-word units packed in 15 kB', await tinyUnits(100000), /unpacks to more than/],
  ];
  for (const [what, state, want] of cases) {
    const packed = await packState(state);
    const got = await serveLike(p, packed);
    console.log(`${what}: ${(packed.length / 1000).toFixed(1)} kB packed, ${got.refused ? 'refused' : 'served'} in ${got.ms.toFixed(0)} ms, memory +${(got.grew / 1e6).toFixed(1)} MB`);
    assert.ok(got.refused, `${what}: served`);
    assert.match(got.refused, want, what);
    if (packed.length < 100_000) {
      assert.ok(got.ms < 1000, `${what}: held ${got.ms} ms`);
      assert.ok(got.grew < 64 << 20, `${what}: grew ${got.grew} bytes`);
    }
  }
  // Behind the unpacking bound, the module's own: 2,000 segments acquired
  // as they are are refused before any is read.
  const t0 = performance.now();
  await assert.rejects(p.acquire(unitSegments(base, 2000)), /more than 16 segments after the base/);
  console.log(`2,000 segments acquired directly: refused in ${(performance.now() - t0).toFixed(0)} ms`);
  // The same pool serves an ordinary memory after them.
  const rm = await p.acquire(null);
  await rm.addUnits(turns(3));
  await p.release(rm);
});

test('an import or call past its deadline is cut off and its instance discarded (holdMs)', async () => {
  const p = await pool({ size: 1, holdMs: 150 });
  const rm = await Recmem.open({ module });
  for (let i = 0; i < 3; i++) await rm.addUnits(turns(4000, `u${i}`));
  const json = await rm.exportState(); // about 2 s to import as JSON
  await rm.close();
  const t0 = performance.now();
  await assert.rejects(p.acquire(json), (err) => err instanceof RecmemError && err.timedOut && err.trapped
    && /import_state: cut off at its deadline; the instance was discarded/.test(err.message));
  const ms = performance.now() - t0;
  console.log(`a 2-second import under a 150 ms hold: cut off after ${ms.toFixed(0)} ms`);
  assert.ok(ms < 1500, `cut off after ${ms} ms`);
  assert.equal(p.stats().open, 0, 'the instance was discarded');
  const next = await p.acquire(null);
  assert.equal((await next.exports()).length > 0, true, 'a new instance serves the next caller');
  await p.release(next);
  // A deadline of the caller's own, for one acquire.
  await assert.rejects(p.acquire(json, { deadline: Date.now() + 50 }), (err) => err.timedOut);
});

test('acquire never takes a tag it did not compute from the bytes (issue 22, finding 5)', async () => {
  const p = await pool();
  const ann = await p.acquire(null);
  await ann.addUnits(turns(4, 'ann'));
  const annState = await ann.exportState({ format: 'binary' });
  await p.release(ann);
  const bob = await Recmem.open({ module });
  await bob.addUnits(turns(4, 'bob'));
  const bobState = await bob.exportState({ format: 'binary' });
  await bob.close();
  const annTag = await stateTag(annState);
  // Bob's bytes with Ann's tag: refused, and Ann's instance stays Ann's.
  await assert.rejects(p.acquire(bobState, { tag: annTag }), /tag: does not match the state/);
  const rm = await p.acquire(annState, { tag: annTag });
  assert.equal(rm.warm, true, 'the right tag: warm');
  assert.deepEqual([...new Set((await rm.selectSlate({ query: 'kiln shelves', budget: 500, ranker: 'bm25' })).units.map((u) => u.id.split('-')[0]))], ['ann']);
  // release with a tag of another state keeps nothing warm under it.
  await p.release(rm, { tag: await stateTag(bobState) });
  assert.equal(p.takeWarm(await stateTag(bobState)), null);
  const again = await p.acquire(annState);
  assert.equal(again.warm, false, 'released under a tag that was not its state: cold');
  await p.release(again);
  // With tagKey, tags are seals: a plain SHA-256 is not one.
  const sealed = await pool({ tagKey: sealKey });
  await assert.rejects(sealed.acquire(annState, { tag: annTag }), /tag: does not match the state/);
  const own = await sealed.tag(annState);
  assert.equal(own, await stateTag(annState, { sealKey }));
  const s = await sealed.acquire(annState, { tag: own });
  await sealed.release(s);
});

test('a forged binary state whose JSON form is the genuine one never leaves a warm instance under the genuine tag (issue 22, finding 4)', async () => {
  const p = await pool();
  const rm = await Recmem.open({ module });
  await rm.addUnits(turns(300));
  const genuine = await rm.exportState({ format: 'binary' });
  const genuineJSON = await rm.exportState();
  const query = { query: 'when did the pottery class move', budget: 400 };
  const clean = await rm.selectSlate(query);
  await rm.close();
  const forged = rewriteVectors(genuine);
  // The forgery, answered in JSON: its JSON is the genuine one's.
  const a = await p.acquire(forged);
  const forgedSlate = await a.selectSlate(query);
  assert.notDeepEqual(forgedSlate, clean, 'the forged analysis changes the slate: the attack has an edge');
  assert.equal(await a.exportState(), genuineJSON);
  assert.equal(a.heldState(), null, 'the JSON form of a foreign state keys no warm instance');
  await p.release(a);
  // The victim, with the genuine JSON: a clean slate.
  const v = await p.acquire(genuineJSON);
  assert.equal(v.warm, false);
  assert.deepEqual(await v.selectSlate(query), clean);
  await p.release(v);
  // The forged bytes themselves stay warm under their own tag (their
  // import gives that instance's state).
  const f = await p.acquire(forged);
  await f.selectSlate(query);
  await p.release(f);
  const again = await p.acquire(forged);
  assert.equal(again.warm, true);
  // A whole binary state written from it is its exact form, and stays
  // warm; written after a unit was deleted (whose words the instance still
  // holds as the client wrote them) it is not.
  await again.addUnits([{ id: 'new', session: 's', text: 'the kiln is fixed' }]);
  const whole = await again.exportState({ format: 'binary' });
  await p.release(again);
  const w = await p.acquire(whole);
  assert.equal(w.warm, true, 'a whole binary state written from a foreign one, nothing removed: warm');
  await w.deleteUnits(['new']);
  const after = await w.exportState({ format: 'binary' });
  assert.equal(w.heldState(), null);
  await p.release(w);
  const w2 = await p.acquire(after);
  assert.equal(w2.warm, false, 'written after a removal: not warm');
  await p.release(w2);
});

test('a failed mutation leaves the warm state as it was (issue 22, finding 6)', async () => {
  const p = await pool();
  const rm = await p.acquire(null);
  await rm.record([{ user: 'u1', item: 'g1', action: 'like', meta: { genre: ['Puzzle'] }, time: 1700000000, client_id: 'k1' }]);
  const state = await rm.exportState({ format: 'binary' });
  await p.release(rm);
  const a = await p.acquire(state);
  assert.equal(a.warm, true);
  await assert.rejects(a.applyOps([{ op: 'forget', chunk: 'c99' }]), /unknown chunk "c99"/);
  // A client_id reused for another signal is refused, naming it.
  await assert.rejects(a.record([{ user: 'u1', item: 'g2', action: 'dislike', time: 1700000001, client_id: 'k1' }]),
    /record: input\.signals\[0\]\.client_id: "k1" was given to another signal already/);
  await p.release(a);
  const b = await p.acquire(state);
  assert.equal(b.warm, true, 'still warm: the refused calls changed nothing');
  await p.release(b);
});

test('unpackState bounds what a state unpacks to, in recmem serve\'s words', async () => {
  const zeros = await packState(new Uint8Array(5 << 20));
  await assert.rejects(unpackState(zeros, { maxExpansion: 6 }), (err) => err.tooLarge
    && err.message === `state: too large to serve: it unpacks to more than 262 kB from ${(Buffer.from(zeros, 'base64').length / 1000).toFixed(1)} kB of gzip, and this server unpacks at most 6 bytes a byte, or 262 kB; nothing was imported`);
  const small = await packState(new Uint8Array(200 << 10));
  assert.equal((await unpackState(small, { maxExpansion: 6 })).length, 200 << 10, 'under the floor of 256 KiB');
  assert.equal((await unpackState(zeros)).length, 5 << 20, 'no bound by default');
});

test('the forgeries of forge.mjs are what the Go host forges: the module reads them so', async () => {
  const rm = await Recmem.open({ module });
  await rm.addUnits(turns(2));
  const bin = await rm.exportState({ format: 'binary' });
  const mem = memoryOf(bin);
  // A piece made here imports (its checksum is the module's), and one
  // segment more than the limit is refused.
  const out = await rm.importState(piece('B', 0, 0n, section('M', mem)));
  assert.equal(out.format, 'binary');
  assert.equal((await rm.importState(emptySegments(bin, 16))).segments, 16);
  await assert.rejects(rm.importState(emptySegments(bin, 17)), /more than 16 segments/);
  await assert.rejects(rm.importState(concat(bin, unusedVocabulary(mem, 3))), /a second base/);
  await rm.close();
});

test('the most a request under 100 kB asks once admitted: held less than 1 s (on this machine), grown less than 64 MB', async () => {
  for (const form of ['json', 'binary']) {
    const doc = await largestAdmitted(() => Recmem.open({ module }), packState, form);
    const packed = await packState(doc);
    const body = JSON.stringify({ state: packed, tag: 'sha256:…', input: { query: 'what did Ann say about the kiln', budget: 500 } });
    const p = await pool({ size: 1 });
    const got = await serveLike(p, packed, (rm) => rm.selectSlate({ query: 'what did Ann say about the kiln', budget: 500 }));
    console.log(`${form}: ${(doc.length / 1000).toFixed(1)} kB unpacked from a ${(body.length / 1000).toFixed(1)} kB request: ${got.ok ? 'served' : got.refused} in ${got.ms.toFixed(0)} ms, the instance grown ${(got.grew / 1e6).toFixed(1)} MB`);
    assert.ok(got.ok, `${form}: ${got.refused}`);
    assert.ok(body.length < 100_000, `${form}: a ${body.length}-byte request`);
    assert.ok(got.grew < 64 << 20, `${form}: grew ${got.grew} bytes`);
  }
});
