// recmem.js and the binary state (docs/state-binary.md): a whole state and
// its segments as bytes, appended as host.AppendState appends them, sealed
// piece by piece as the Go host seals them; and RecmemPool, the instances
// kept warm by tag. The Go host here is `recmem serve` (host.Client and the
// stateless API): the same requests give the same pieces, byte for byte,
// and the same seals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { PoolTimeoutError, Recmem, RecmemError, RecmemPool, appendState, isBinaryState, packState, stateChecksum, stateTag, checkTag, unpackState } from 'recmem';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const wasmPath = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
const module = await WebAssembly.compile(readFileSync(wasmPath));
const recmemBin = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
const sealKey = 'a-test-seal-key-of-at-least-32-bytes!';

const turns = (from, to, user = 'ann') => Array.from({ length: to - from }, (_, k) => {
  const i = from + k;
  return { id: `${user}-${i}`, session: `s${i % 3}`, speaker: i % 2 ? 'Ben' : 'Ann', text: `${user} turn ${i}: the kiln in the garden shed needs ${i % 4} new shelves` };
});
const signal = (i) => ({ user: 'u1', item: `g${i}`, action: 'purchase', meta: { title: `Halo ${i} - Xbox One` }, time: 1700000000 + i * 86400 });

let serve;
let dir;
before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recmem-binary-'));
  writeFileSync(path.join(dir, 'seal.key'), sealKey);
  const proc = spawn(recmemBin, ['serve', '--addr', '127.0.0.1:0', '--wasm', wasmPath, '--web', web, '--seal-key-file', path.join(dir, 'seal.key')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from recmem serve: ${out}`)), 30000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    proc.on('exit', (code) => reject(new Error(`recmem serve exited ${code}`)));
  });
  serve = { url, close: () => new Promise((resolve) => { proc.on('exit', resolve); proc.kill('SIGINT'); }) };
});
after(async () => {
  await serve?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(name, body) {
  const res = await fetch(`${serve.url}/v1/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const out = await res.json();
  assert.equal(res.status, 200, JSON.stringify(out));
  return out;
}

const enc = (s) => new TextEncoder().encode(s);
const join = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const sealed = (piece) => join(enc(`hmac-sha256:${createHmac('sha256', sealKey).update(piece).digest('hex')}\n`), piece);

test('binary pieces and their seals are byte-identical to the Go host\'s', async () => {
  // The Go host: a new memory, 40 units, the binary state (its tag is the seal of the state).
  const a = await post('add_units', { input: { units: turns(0, 40) }, format: 'binary' });
  const goBase = await unpackState(a.state);
  assert.equal(a.tag, `hmac-sha256:${createHmac('sha256', sealKey).update(goBase).digest('hex')}`);
  // recmem.js with the same key: the same base, sealed as the Go host seals a piece.
  const rm = await Recmem.open({ module, sealKey });
  await rm.addUnits(turns(0, 40));
  const state = await rm.exportState({ format: 'binary' });
  assert.ok(state instanceof Uint8Array && isBinaryState(state));
  assert.deepEqual(state, sealed(goBase));
  assert.deepEqual(state, join(enc(`${a.tag}\n`), goBase));
  assert.equal(stateChecksum(state), stateChecksum(goBase));
  assert.match(stateChecksum(goBase), /^xxh64:[0-9a-f]{16}$/);

  // A change: the Go host's delta and recmem.js's segment are the same bytes.
  const b = await post('add_units', { state: a.state, tag: a.tag, input: { units: turns(40, 43) }, delta: true });
  assert.ok(b.delta && !b.state, JSON.stringify(b));
  const goSeg = await unpackState(b.delta);
  await rm.addUnits(turns(40, 43));
  const piece = await rm.exportState({ format: 'binary', base: state });
  assert.deepEqual(piece, sealed(goSeg));
  assert.equal(goSeg[5], 0x53, 'a segment');
  const held = appendState(state, piece);
  assert.deepEqual(held, join(state, piece));
  assert.equal(b.tag, await stateTag(join(goBase, goSeg), { sealKey }), 'the API tags the bare state, base and segment');
  assert.equal(await checkTag(join(goBase, goSeg), b.tag, { sealKey }), '');
  // A read changes nothing: empty bytes, and appendState keeps the state.
  await rm.selectSlate({ query: 'kiln shelves', budget: 30 });
  const none = await rm.exportState({ format: 'binary', base: held });
  assert.equal(none.length, 0);
  assert.equal(appendState(held, none), held);

  // The appended sealed state imports into another instance, and its JSON is the Go host's.
  const again = await Recmem.open({ module, sealKey, state: held });
  const c = await post('get_memory', { state: await packState(join(goBase, goSeg)), tag: b.tag, input: {}, format: 'json' });
  assert.equal(await again.exportState(), `${c.tag}\n${new TextDecoder().decode(await unpackState(c.state))}`);
  // recmem.js without a key reads the bare form the API carries.
  const bare = await Recmem.open({ module, state: join(goBase, goSeg) });
  assert.deepEqual(await bare.exportState({ format: 'binary' }), (await rm.exportState({ format: 'binary' })).subarray(77));
  await Promise.all([rm.close(), again.close(), bare.close()]);
});

test('deltas: compaction gives a base, and a record carries the memory in a segment', async () => {
  const rm = await Recmem.open({ module });
  await rm.addUnits(turns(0, 200));
  let state = await rm.exportState({ format: 'binary' });
  assert.equal(state[5], 0x42);
  await rm.record([signal(1)]);
  let piece = await rm.exportState({ format: 'binary', base: state });
  assert.equal(piece[5], 0x53, 'a segment');
  state = appendState(state, piece);
  // compact_after 1: the next change folds the segments into a new base.
  await rm.record([signal(2)]);
  piece = await rm.exportState({ format: 'binary', base: stateChecksum(state), compactAfter: 1 });
  assert.equal(piece[5], 0x42, 'a base');
  assert.equal(appendState(state, piece), piece);
  // An instance that does not hold the base writes the whole state.
  const other = await Recmem.open({ module });
  await other.addUnits(turns(0, 2));
  const whole = await other.exportState({ format: 'binary', base: piece });
  assert.equal(whole[5], 0x42);
  await Promise.all([rm.close(), other.close()]);
});

test('bad binary states are refused naming the fault, and the memory is unchanged', async () => {
  const rm = await Recmem.open({ module, sealKey });
  await rm.addUnits(turns(0, 5));
  const base = await rm.exportState({ format: 'binary' });
  await rm.addUnits(turns(5, 6));
  const seg = await rm.exportState({ format: 'binary', base });
  const state = appendState(base, seg);
  const before = await rm.exportState();
  const flip = (b, at) => { const c = b.slice(); c[at] ^= 1; return c; };
  const other = await Recmem.open({ module, sealKey: 'another-key-of-at-least-32-bytes-long' });
  await other.addUnits(turns(0, 5));
  const cases = [
    ['a bare state', state.subarray(77), /^seal: missing/],
    ['a changed byte', flip(state, state.length - 20), /^seal: does not match/],
    ['another key\'s', await other.exportState({ format: 'binary' }), /^seal: does not match/],
    ['a truncated piece', state.subarray(0, state.length - 3), /truncated piece/],
    ['a segment alone', seg, /base/],
    ['segments out of order', join(base, seg, seg), /sequence|order/],
  ];
  for (const [name, bad, want] of cases) {
    await assert.rejects(rm.importState(bad), (err) => {
      assert.ok(err instanceof RecmemError, name);
      assert.equal(err.export, 'import_state');
      assert.match(err.message, want, `${name}: ${err.message}`);
      return true;
    });
    assert.equal(await rm.exportState(), before, `${name} left the memory as it was`);
  }
  // Unsealed: the module's own checks (checksum, chain), in its words.
  const plain = await Recmem.open({ module });
  const bare = state.subarray(77);
  await assert.rejects(plain.importState(flip(bare, 100)), /checksum does not match/);
  await assert.rejects(plain.exportState({ format: 'binary', base: enc('{"version":3}') }), /base: not a binary state/);
  await assert.rejects(plain.exportState({ format: 'binary', base: 'json' }), /input\.base: want xxh64:/);
  await assert.rejects(plain.exportState({ base: bare }), /base: only with the binary format/);
  await assert.rejects(plain.exportState({ format: 'xml' }), /format: want "json" or "binary"/);
  await Promise.all([rm.close(), other.close(), plain.close()]);
});

test('RecmemPool: a state whose tag matches a warm instance skips the import; users never meet', async () => {
  const pool = await RecmemPool.open({ module, size: 2 });
  const states = {};
  for (let round = 0; round < 3; round++) {
    for (const user of ['ann', 'bob', 'cy']) {
      const rm = await pool.acquire(states[user] ?? null);
      await rm.addUnits(turns(round, round + 1, user));
      const piece = await rm.exportState({ format: 'binary', base: states[user] });
      states[user] = states[user] ? appendState(states[user], piece) : piece;
      const slate = await rm.selectSlate({ query: 'kiln shelves turn', budget: 500, ranker: 'bm25' });
      assert.deepEqual([...new Set(slate.units.map((u) => u.id.split('-')[0]))], [user], `${user} round ${round}`);
      assert.equal(await rm.heldTag(), await stateTag(states[user]));
      await pool.release(rm);
    }
  }
  // Three users on two instances: the last two states are warm, the first is not.
  const { hits: h0, misses: m0 } = pool.stats();
  const bob = await pool.acquire(states.bob);
  assert.equal(bob.warm, true);
  assert.equal((await bob.memory()).units ?? null, null);
  await pool.release(bob);
  const ann = await pool.acquire(states.ann);
  assert.equal(ann.warm, false, 'evicted: imported again');
  assert.equal((await ann.selectSlate({ query: 'turn', budget: 500, ranker: 'bm25' })).units.length, 3);
  // A call that changes the memory without an export: released cold, reset before reuse.
  await ann.addUnits(turns(9, 10, 'ann'));
  await pool.release(ann);
  assert.deepEqual(pool.stats(), { hits: h0 + 1, misses: m0 + 1, open: 2, warm: 1 });
  const fresh = await pool.acquire(null);
  assert.equal((await fresh.selectSlate({ query: 'turn', budget: 500, ranker: 'bm25' })).units.length, 0, 'a new memory is empty');
  await pool.release(fresh);
  // The same bytes but one: a different tag, so it imports, and is refused.
  const bad = states.bob.slice();
  bad[bad.length - 30] ^= 1;
  await assert.rejects(pool.acquire(bad), /checksum does not match/);
  const again = await pool.acquire(states.bob);
  assert.equal(again.warm, true);
  await pool.release(again);
  await pool.close();
});

test('RecmemPool: a caller waits at most waitMs for an instance, then gets a PoolTimeoutError and takes nothing', async () => {
  const pool = await RecmemPool.open({ module, size: 1, waitMs: 40 });
  const a = await pool.acquire(null);
  const t0 = Date.now();
  await assert.rejects(pool.acquire(null), (err) => err instanceof PoolTimeoutError && err.waitMs === 40
    && /^RecmemPool\.acquire: waitMs: no instance was free within 40 ms \(all 1 in use\)/.test(err.message));
  assert.ok(Date.now() - t0 >= 35, 'it waited for the bound');
  // A bound per call; 0 refuses at once; the timed-out caller left no waiter behind.
  await assert.rejects(pool.acquire(null, { waitMs: 0 }), PoolTimeoutError);
  assert.equal(pool.waiters.length, 0);
  // A release within the bound serves the waiting caller.
  const waiting = pool.acquire(null, { waitMs: 5000 });
  setTimeout(() => pool.release(a, { tag: null }), 20);
  const b = await waiting;
  assert.equal(b, a);
  assert.deepEqual(pool.stats(), { hits: 0, misses: 0, open: 1, warm: 0 });
  await pool.release(b, { tag: null });
  for (const waitMs of [-1, NaN, '10']) {
    await assert.rejects(pool.acquire(null, { waitMs }), /^TypeError: RecmemPool\.acquire: waitMs must be a number of milliseconds/);
    await assert.rejects(RecmemPool.open({ module, waitMs }), /^TypeError: RecmemPool\.open: waitMs must be a number of milliseconds/);
  }
  assert.equal(pool.stats().open, 1, 'a refused bound takes nothing');
  await pool.close();
  // The default bound is 10 s (recmem serve's request timeout); Infinity waits for ever.
  const dflt = await RecmemPool.open({ module });
  assert.equal(dflt.waitMs, 10000);
  await dflt.close();
});

test('RecmemPool.takeWarm: the instance warm under a tag, with the state released with it; else null', async () => {
  const pool = await RecmemPool.open({ module, size: 2 });
  const rm = await pool.acquire(null);
  await rm.addUnits(turns(0, 3));
  const bin = await rm.exportState({ format: 'binary' });
  const tag = await stateTag(bin);
  await pool.release(rm, { tag, state: bin });
  assert.equal(pool.takeWarm('sha256:' + '0'.repeat(64)), null, 'a tag no instance holds');
  const got = pool.takeWarm(tag);
  assert.equal(got.rm, rm);
  assert.equal(got.state, bin);
  assert.equal(got.rm.warm, true);
  assert.equal(pool.takeWarm(tag), null, 'taken: a second caller on the same tag gets nothing');
  await pool.release(got.rm, { tag }); // warm, but without its state
  assert.equal(pool.takeWarm(tag), null, 'warm without the state: not served by tag');
  const again = await pool.acquire(bin);
  assert.equal(again.warm, true, 'still warm for a caller that brings the state');
  await pool.release(again, { tag, state: bin });
  assert.equal(pool.takeWarm(tag).state, bin);
  await pool.close();
});

test('RecmemPool: at most size instances, a caller waits for a release; a grown instance is closed', async () => {
  const pool = await RecmemPool.open({ module, size: 1 });
  const a = await pool.acquire(null);
  let got = null;
  const waiting = pool.acquire(null).then((rm) => { got = rm; return rm; });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(got, null, 'the second caller waits while the only instance is taken');
  await a.addUnits(turns(0, 2));
  await pool.release(a); // changed since its last export: reset before reuse
  const b = await waiting;
  assert.equal(b, a, 'the same instance');
  assert.equal((await b.selectSlate({ query: 'kiln', budget: 100, ranker: 'bm25' })).units.length, 0, 'reset: an empty memory');
  await pool.release(b);
  await assert.rejects(RecmemPool.open({ module, size: 0 }), /size must be a whole number of at least 1/);
  await assert.rejects(pool.acquire(new Uint8Array([0x52, 0x4d, 0x53, 0x42, 1])), RecmemError);
  assert.equal(pool.stats().open, 1, 'a refused state leaves the instance in the pool');
  await pool.close();
  // recycleBytes: an instance past it is closed when released, and the next caller gets a new one.
  const small = await RecmemPool.open({ module, size: 1, recycleBytes: 1 });
  const c = await small.acquire(null);
  await small.release(c);
  assert.equal(small.stats().open, 0);
  const d = await small.acquire(null);
  assert.notEqual(d, c);
  await small.release(d);
  await small.close();
});
