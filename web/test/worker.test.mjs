// examples/worker.mjs in workerd (Cloudflare's open-source Workers runtime,
// from npm), on loopback: the stateless HTTP API of docs/http.md at the edge.
// The memory travels with every request and evolves as it does in Node and
// in `recmem serve`; bad input is refused and leaves the client's state as
// it was; requests of different users never meet.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { Recmem, appendState, packState, stateTag, unpackState } from 'recmem';
import { emptySegments, largestAdmitted, memoryOf, rewriteVectors, unitSegments, unusedVocabulary, unusedVocabularySegment } from './forge.mjs';

const run = promisify(execFile);
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const wasmPath = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
const workerd = path.join(web, 'node_modules/.bin/workerd');
const recmemBin = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
const catalog = path.join(root, 'testdata/catalog/tiny.json');
const sealKey = 'a-test-seal-key-of-at-least-32-bytes!';

// startWorkerd serves examples/worker.capnp on a free loopback port, the
// port read from workerd's control messages.
async function startWorkerd(env = {}) {
  const proc = spawn(workerd, ['serve', 'examples/worker.capnp', '--socket-addr', 'http=127.0.0.1:0', '--control-fd', '3'],
    { cwd: web, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let ctl = '';
    const timer = setTimeout(() => reject(new Error(`workerd did not listen: ${stderr}`)), 60000);
    proc.stdio[3].on('data', (d) => {
      ctl += d;
      for (const line of ctl.split('\n')) {
        const m = line.trim() && JSON.parse(line);
        if (m?.event === 'listen' && m.socket === 'http') {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m.port}`);
        }
      }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`workerd exited ${code}: ${stderr}`)); });
  });
  return { url, pid: proc.pid, stderr: () => stderr, close: () => new Promise((resolve) => { proc.on('exit', resolve); proc.kill('SIGTERM'); }) };
}

// rss is a process's resident memory in bytes (Linux).
function rss(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

// startServe runs `recmem serve` on a free loopback port.
async function startServe(args = []) {
  const proc = spawn(recmemBin, ['serve', '--addr', '127.0.0.1:0', '--wasm', wasmPath, '--web', web, '--catalog', catalog, ...args],
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
  return { url, close: () => new Promise((resolve) => { proc.on('exit', resolve); proc.kill('SIGINT'); }) };
}

// post sends one request and returns the status and the decoded answer.
async function post(base, exportName, body) {
  const res = await fetch(`${base}/v1/${exportName}`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

// call runs an export on a memory ({state, tag}, {} for a new one), checks
// the answer is a 200 based on that memory, and returns it.
async function call(base, exportName, input, memory = {}) {
  const { status, body } = await post(base, exportName, { ...memory, input });
  assert.equal(status, 200, `${exportName}: ${JSON.stringify(body)}`);
  assert.equal(body.base_tag, memory.tag ?? 'new');
  return body;
}

const doc = async (state) => new TextDecoder().decode(await unpackState(state));
const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];
const signal = (i, user = 'u1') => ({ user, item: `g${i}`, action: 'purchase', meta: { title: titles[i % titles.length] }, time: 1700000000 + i * 86400, client_id: `${user}-${i}` });
const units = [
  { id: 'D1:1', session: 'S1', date: '8 May 2023', speaker: 'Ann', text: 'I signed up for a pottery class on Tuesdays.' },
  { id: 'D1:2', session: 'S1', date: '8 May 2023', speaker: 'Ben', text: 'Nice, what will you make?' },
  { id: 'D2:1', session: 'S2', date: '9 May 2023', speaker: 'Ann', text: 'My sister Maya moved to Lisbon last spring.' },
];

let wd;
before(async () => {
  assert.ok(existsSync(workerd), `${workerd} is missing: run npm ci in web/ (./build.sh does)`);
  wd = await startWorkerd();
});
after(async () => { await wd?.close(); });

test('examples/http.mjs runs against the Worker as against recmem serve', async () => {
  const { stdout } = await run(process.execPath, ['examples/http.mjs', wd.url], { cwd: web });
  assert.equal(stdout, 'c1 0.9 Prefers Xbox One\n400: apply_ops: input.ops[0].chunk: unknown chunk "c9"\n');
});

test('the state round trip: each request carries the memory the last one returned', async () => {
  const steps = [];
  let memory = {};
  let answer;
  for (let i = 0; i < 5; i++) {
    answer = await call(wd.url, 'record', { signals: [signal(i)] }, memory);
    assert.equal(answer.changed, true);
    assert.equal(answer.result.events_added, 1);
    assert.equal(answer.tag, await stateTag(await unpackState(answer.state)), 'the tag is the SHA-256 of the document');
    assert.notEqual(answer.tag, memory.tag);
    steps.push(['record', { signals: [signal(i)] }]);
    memory = { state: answer.state, tag: answer.tag };
  }
  // The fifth signal maintained the memory (the fixed scheduler, B = 5).
  assert.equal(answer.result.maintenance.decision, 'maintain');
  const view = await call(wd.url, 'get_memory', {}, memory);
  assert.equal(view.changed, false);
  assert.equal(view.tag, memory.tag, 'a read answers with the state it was given');
  assert.deepEqual(view.result.chunks.map((c) => [c.id, c.strength, c.text]), [['c1', 0.9, 'Prefers Xbox One']]);
  assert.equal(view.result.events.length, 5);

  // The same signal again (a retry, with its client_id): listed as repeated, recorded once.
  const retry = await call(wd.url, 'record', { signals: [signal(4)] }, memory);
  assert.deepEqual(retry.result.repeated?.length, 1);
  assert.equal(retry.result.events_added, 0);

  answer = await call(wd.url, 'add_units', { units }, memory);
  assert.equal(answer.result.units, 3);
  steps.push(['add_units', { units }]);
  memory = { state: answer.state, tag: answer.tag };
  const slate = await call(wd.url, 'select_slate', { query: 'where does Maya live now', budget: 30 }, memory);
  assert.equal(slate.result.units.find((u) => u.rank === 1).id, 'D2:1');
  assert.equal(slate.changed, false);
  const ranked = await call(wd.url, 'rank', { candidates: ['a', 'b', 'c'], k: 2 }, memory);
  assert.equal(ranked.result.ranking.length, 2, 'rank uses the catalog binding');

  // Node, running the same exports on recmem.js, reaches the same document, byte for byte.
  const rm = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
  for (const [name, input] of steps) await rm.call(name, input);
  assert.equal(await doc(memory.state), await rm.exportState());
  await rm.close();
});

test('two requests on one memory answer with the same base_tag (lost updates show)', async () => {
  const first = await call(wd.url, 'record', { signals: [signal(0)] });
  const memory = { state: first.state, tag: first.tag };
  const [a, b] = await Promise.all([
    call(wd.url, 'record', { signals: [signal(1)] }, memory),
    call(wd.url, 'record', { signals: [signal(2)] }, memory),
  ]);
  assert.equal(a.base_tag, memory.tag);
  assert.equal(b.base_tag, memory.tag);
  assert.notEqual(a.tag, b.tag);
});

test('concurrent users never see each other\'s memory', async () => {
  const users = ['ann', 'ben', 'cy', 'dee'];
  const memories = Object.fromEntries(users.map((u) => [u, {}]));
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(users.map((u, k) => call(wd.url, 'record', { signals: [signal(round * 4 + k, u)] }, memories[u])));
    answers.forEach((a, k) => { memories[users[k]] = { state: a.state, tag: a.tag }; });
  }
  const views = await Promise.all(users.map((u) => call(wd.url, 'get_memory', {}, memories[u])));
  views.forEach((v, k) => {
    assert.equal(v.result.events.length, 3);
    assert.deepEqual([...new Set(v.result.events.map((e) => e.user))], [users[k]]);
  });
  // A request without a state starts from the empty memory, whatever ran before it.
  const fresh = await call(wd.url, 'get_memory', {});
  assert.equal(fresh.result.events.length, 0);
  assert.equal(fresh.changed, false);
});

test('bad input is refused with a clear error, and the state sent stays good', async () => {
  const start = await call(wd.url, 'record', { signals: [signal(0)] });
  const memory = { state: start.state, tag: start.tag };
  const text = await doc(memory.state);
  const tampered = await packState(text.replace('"g0"', '"g9"'));
  const big = await packState(`{"pad":"${'x'.repeat(1 << 20)}"}`);
  const notUTF8 = new Uint8Array([...new TextEncoder().encode(text.slice(0, 20)), 0xff, ...new TextEncoder().encode(text.slice(20))]);
  const cases = [
    ['apply_ops', { ...memory, input: { ops: [{ op: 'boost', chunk: 'c9' }] } }, 400, 'apply_ops: input.ops[0].chunk: unknown chunk "c9"'],
    ['record', { ...memory, input: { signals: [{ ...signal(1), time: 1.7e12 }] } }, 400, 'looks like milliseconds'],
    ['record', { state: tampered, tag: memory.tag, input: { signals: [signal(1)] } }, 422, 'tag: does not match the state'],
    ['record', { state: memory.state.slice(0, memory.state.length / 2), tag: memory.tag }, 400, 'state: truncated or damaged'],
    ['record', { state: 'not base64!', tag: memory.tag }, 400, 'state: not base64'],
    ['record', { state: await packState(notUTF8), tag: await stateTag(notUTF8) }, 400, 'state: not UTF-8'],
    ['record', { state: big, tag: 'sha256:0' }, 413, 'state: too large to serve'],
    ['record', { tag: memory.tag, input: { signals: [signal(1)] } }, 400, 'tag: given without a state'],
    ['record', { ...memory, inputs: {} }, 400, 'body: unknown field "inputs"'],
    ['record', '{"state": ', 400, 'body: '],
    ['load_catalog', { input: {} }, 403, 'load_catalog is not served by the stateless API'],
    ['import_state', { input: text }, 403, 'import_state is not served by the stateless API'],
    ['teleport', {}, 404, 'unknown export "teleport"'],
  ];
  for (const [name, body, status, message] of cases) {
    const res = await post(wd.url, name, body);
    assert.equal(res.status, status, `${name} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.status, status);
    assert.ok(res.body.error.message.includes(message), `${res.body.error.message} lacks ${message}`);
  }
  const get = await fetch(`${wd.url}/v1/record`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  const huge = await fetch(`${wd.url}/v1/record`, { method: 'POST', body: 'x'.repeat((8 << 20) + 1) });
  assert.equal(huge.status, 413);
  // The client's memory is as it was: the next request on it succeeds, from the same base.
  const again = await call(wd.url, 'record', { signals: [signal(1)] }, memory);
  assert.equal(again.result.events_added, 1);
  assert.equal(wd.stderr().includes('recmem: /v1/'), false, 'no request above trapped');
});

test('the same memory moves between recmem serve and the Worker', async () => {
  const serve = await startServe();
  try {
    let memory = {};
    for (let i = 0; i < 6; i++) {
      const host = i % 2 ? serve.url : wd.url;
      const input = { signals: [signal(i)] };
      const a = await call(host, 'record', input, memory);
      // The other host, given the same request, answers the same result and the same tag.
      const b = await call(i % 2 ? wd.url : serve.url, 'record', input, memory);
      assert.deepEqual(b.result, a.result);
      assert.equal(b.tag, a.tag);
      memory = { state: a.state, tag: a.tag };
    }
    const [w, s] = await Promise.all([call(wd.url, 'rank', { candidates: ['a', 'b', 'c'] }, memory), call(serve.url, 'rank', { candidates: ['a', 'b', 'c'] }, memory)]);
    assert.deepEqual(w.result, s.result);
    // The module reads the input as the client wrote it, on both hosts:
    // numbers JSON.parse would round, a name given twice, an escaped name, a byte-order mark.
    const bodies = [
      ['get_memory', '{"input":{"journal_limit":1e400}}'],
      ['record', '{"input":{"signals":[{"user":"u","item":"a","action":"like","time":9223372036854775807}]}}'],
      ['record', '{"input" : {"signals":[{"user":"u\\u0000","item":"a","action":"like","time":1700000000}]}, "input": {"signals":[{"user":"u","item":"a","action":"like","time":1700000000}]}}'],
      ['get_memory', '{"\\u0069nput": {"journal_limit": 2}}'],
      ['get_memory', '{"input": "{\\"journal_limit\\": 2}"}'],
      ['select_slate', `{"state": "${memory.state}", "tag": "${memory.tag}", "input": {"query": "a \\"quoted\\" [word] {x}", "budget": 10}}`],
      ['record', '\ufeff{"input":{}}'],
    ];
    for (const [name, body] of bodies) {
      const [a, b] = await Promise.all([post(wd.url, name, body), post(serve.url, name, body)]);
      assert.equal(a.status, b.status, `${body}: ${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`);
      // A body that is not JSON is refused by each host's own parser, in its own words.
      if (!a.body.error?.message.startsWith('body: ')) assert.deepEqual(a.body.error ?? a.body.result, b.body.error ?? b.body.result, body);
    }
  } finally {
    await serve.close();
  }
});

test('with RECMEM_SEAL_KEY the Worker seals its states, as recmem serve --seal-key-file does', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recmem-worker-'));
  writeFileSync(path.join(dir, 'seal.key'), sealKey);
  const sealed = await startWorkerd({ RECMEM_SEAL_KEY: sealKey });
  const serve = await startServe(['--seal-key-file', path.join(dir, 'seal.key')]);
  try {
    const a = await call(sealed.url, 'record', { signals: [signal(0)] });
    assert.match(a.tag, /^hmac-sha256:[0-9a-f]{64}$/);
    const b = await call(serve.url, 'record', { signals: [signal(0)] });
    assert.equal(b.tag, a.tag, 'the same key gives the same seal');
    const memory = { state: a.state, tag: a.tag };
    const next = await call(serve.url, 'record', { signals: [signal(1)] }, memory);
    const back = await call(sealed.url, 'get_memory', {}, { state: next.state, tag: next.tag });
    assert.equal(back.result.events.length, 2);

    // Without the seal, or with another key's: refused, 422.
    const plain = { state: a.state, tag: await stateTag(await unpackState(a.state)) };
    let res = await post(sealed.url, 'get_memory', { ...plain, input: {} });
    assert.equal(res.status, 422);
    assert.match(res.body.error.message, /^tag: this server seals its states/);
    const other = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)), sealKey: 'another-key-of-at-least-32-bytes-long' });
    await other.record([signal(0)]);
    const text = await other.exportState();
    await other.close();
    const nl = text.indexOf('\n');
    res = await post(sealed.url, 'get_memory', { state: await packState(text.slice(nl + 1)), tag: text.slice(0, nl), input: {} });
    assert.equal(res.status, 422);
    assert.match(res.body.error.message, /^tag: does not match the state's seal/);
    // The unsealed Worker takes no sealed tag for a plain hash.
    res = await post(wd.url, 'get_memory', { ...memory, input: {} });
    assert.equal(res.status, 422);
  } finally {
    await sealed.close();
    await serve.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// hold is what a client keeps of an answer, as docs/http.md says: the
// bytes of the state (an answer's delta appended to them, or its state in
// their place) and the tag.
async function hold(memory, answer) {
  let bytes = memory.bytes ?? null;
  if (answer.delta) bytes = appendState(bytes, await unpackState(answer.delta));
  else if (answer.state) bytes = await unpackState(answer.state);
  return { bytes, tag: answer.tag };
}
const many = Array.from({ length: 60 }, (_, i) => ({ id: `T${i}`, session: `S${i % 4}`, speaker: i % 2 ? 'Ben' : 'Ann', text: `Turn ${i}: the kiln needs ${i % 5} shelves and a new door.` }));
const carried = (m) => (m.bytes ? packState(m.bytes).then((state) => ({ state, tag: m.tag })) : Promise.resolve({}));

test('binary states and deltas: the Worker answers as recmem serve does, the same bytes and tags; warm instances skip the import', async () => {
  const serve = await startServe();
  try {
    const steps = [
      ['add_units', { units: many }, { format: 'binary', delta: true }, 'state'],
      ['record', { signals: [signal(0)] }, { delta: true }, 'delta'],
      ['select_slate', { query: 'how many shelves does the kiln need', budget: 60 }, { delta: true }, 'none'],
      ['add_units', { units }, { delta: true }, 'delta'],
      ['get_memory', {}, {}, 'state'],
      ['reset', {}, { delta: true }, 'state'],
    ];
    let w = {};
    let s = {};
    for (const [name, input, opts, want] of steps) {
      const [ww, ss] = [await carried(w), await carried(s)];
      const res = await fetch(`${wd.url}/v1/${name}`, { method: 'POST', body: JSON.stringify({ ...ww, input, ...opts }) });
      const a = await res.json();
      assert.equal(res.status, 200, JSON.stringify(a));
      const b = await call(serve.url, name, input, { ...ss, ...opts });
      assert.deepEqual(Object.keys(a), Object.keys(b), name);
      assert.equal(a.delta ? 'delta' : a.state ? 'state' : 'none', want, `${name}: ${Object.keys(a)}`);
      assert.deepEqual(a.result, b.result, name);
      assert.equal(a.tag, b.tag, name);
      assert.equal(a.base_tag, b.base_tag, name);
      assert.equal(a.changed, b.changed, name);
      if (w.bytes) assert.equal(res.headers.get('x-recmem-warm'), 'true', `${name}: the state the Worker answered last is warm`);
      [w, s] = [await hold(w, a), await hold(s, b)];
      assert.deepEqual(w.bytes, s.bytes, `${name}: the same state, byte for byte`);
      assert.equal(w.tag, await stateTag(w.bytes), `${name}: the tag is the state's`);
      if (name === 'add_units' && want === 'delta') assert.ok(a.delta.length * 4 < (await packState(w.bytes)).length, 'a delta is small');
    }

    // Another memory in between: the first one is still warm (two instances), a third evicts.
    const other = await call(wd.url, 'add_units', { units: units.slice(0, 1) }, { format: 'binary' });
    let res = await fetch(`${wd.url}/v1/get_memory`, { method: 'POST', body: JSON.stringify({ ...(await carried(w)), input: {} }) });
    assert.equal(res.headers.get('x-recmem-warm'), 'true');
    await call(wd.url, 'add_units', { units: units.slice(1, 2) }, { format: 'binary' });
    await call(wd.url, 'add_units', { units: units.slice(2, 3) }, { format: 'binary' });
    res = await fetch(`${wd.url}/v1/get_memory`, { method: 'POST', body: JSON.stringify({ state: other.state, tag: other.tag, input: {} }) });
    assert.equal(res.headers.get('x-recmem-warm'), 'false', 'evicted: imported again');
    assert.equal((await res.json()).result.units ?? 1, 1);

    // Refusals, the same on both hosts: a format, a delta of a JSON answer, a
    // segment appended to another state, a state one byte off (its hash as tag).
    const binary = await call(wd.url, 'add_units', { units: many.slice(0, 20) }, { format: 'binary' });
    const bytes = await unpackState(binary.state);
    const next = await call(wd.url, 'add_units', { units: many.slice(20, 22) }, { state: binary.state, tag: binary.tag, delta: true });
    const foreign = appendState(await unpackState(other.state), await unpackState(next.delta));
    const flipped = bytes.slice();
    flipped[100] ^= 1;
    const cases = [
      [{ state: binary.state, tag: binary.tag, format: 'xml' }, 400, 'format: want "json" or "binary", got "xml"'],
      [{ state: binary.state, tag: binary.tag, format: 'json', delta: true }, 400, 'delta: only with the binary format'],
      [{ state: await packState(foreign), tag: await stateTag(foreign) }, 400, 'segments[0]'],
      [{ state: await packState(flipped), tag: await stateTag(flipped) }, 400, 'checksum does not match'],
    ];
    for (const [body, status, message] of cases) {
      const [a, b] = await Promise.all([post(wd.url, 'get_memory', { ...body, input: {} }), post(serve.url, 'get_memory', { ...body, input: {} })]);
      assert.equal(a.status, status, JSON.stringify(a.body));
      assert.equal(b.status, status, JSON.stringify(b.body));
      assert.ok(a.body.error.message.includes(message), a.body.error.message);
      assert.equal(a.body.error.message, b.body.error.message);
    }
    // A JSON state with a binary delta asked: the whole binary state, as recmem serve answers.
    const json = await call(wd.url, 'record', { signals: [signal(1)] });
    const [a, b] = await Promise.all([
      call(wd.url, 'record', { signals: [signal(2)] }, { state: json.state, tag: json.tag, format: 'binary', delta: true }),
      call(serve.url, 'record', { signals: [signal(2)] }, { state: json.state, tag: json.tag, format: 'binary', delta: true }),
    ]);
    assert.ok(a.state && !a.delta);
    assert.equal(a.tag, b.tag);
  } finally {
    await serve.close();
  }
});

test('with RECMEM_SEAL_KEY, binary states and deltas carry the seal recmem serve gives', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recmem-worker-'));
  writeFileSync(path.join(dir, 'seal.key'), sealKey);
  const sealed = await startWorkerd({ RECMEM_SEAL_KEY: sealKey });
  const serve = await startServe(['--seal-key-file', path.join(dir, 'seal.key')]);
  try {
    const a = await call(sealed.url, 'add_units', { units: many }, { format: 'binary' });
    const b = await call(serve.url, 'add_units', { units: many }, { format: 'binary' });
    assert.equal(a.tag, b.tag);
    assert.match(a.tag, /^hmac-sha256:/);
    const memory = { state: a.state, tag: a.tag, delta: true };
    const [c, d] = [await call(sealed.url, 'record', { signals: [signal(0)] }, memory), await call(serve.url, 'record', { signals: [signal(0)] }, memory)];
    assert.ok(c.delta);
    assert.equal(c.tag, d.tag);
    assert.deepEqual(await unpackState(c.delta), await unpackState(d.delta));
    // The state held after the delta, with the answer's seal, is served warm by the Worker and by recmem serve.
    const held = appendState(await unpackState(a.state), await unpackState(c.delta));
    const res = await fetch(`${sealed.url}/v1/get_memory`, { method: 'POST', body: JSON.stringify({ state: await packState(held), tag: c.tag, input: {} }) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-recmem-warm'), 'true');
    const bad = await post(sealed.url, 'get_memory', { state: await packState(held), tag: await stateTag(held), input: {} });
    assert.equal(bad.status, 422);
  } finally {
    await sealed.close();
    await serve.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// sameAnswer checks the Worker's answer a and recmem serve's b to one
// request are the same: status, fields, result, tags, and the state or
// delta byte for byte (each host gzips in its own way), or the same error.
async function sameAnswer(a, b, what) {
  assert.equal(a.status, b.status, `${what}: ${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`);
  assert.deepEqual(Object.keys(a.body), Object.keys(b.body), what);
  if (a.status !== 200) return assert.deepEqual(a.body, b.body, what);
  for (const k of ['result', 'tag', 'base_tag', 'changed']) assert.deepEqual(a.body[k], b.body[k], `${what}: ${k}`);
  for (const k of ['state', 'delta']) if (a.body[k]) assert.deepEqual(await unpackState(a.body[k]), await unpackState(b.body[k]), `${what}: ${k}`);
}

// A segment made by the client itself: the binary state it holds, changed
// by fn on its own instance (recmem.js, no server), exported against it.
async function clientSegment(bytes, fn) {
  const rm = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
  try {
    await rm.importState(bytes);
    await fn(rm);
    return await rm.exportState({ format: 'binary', base: bytes });
  } finally {
    await rm.close();
  }
}

// sealedWith is piece sealed with key, as a host with that seal key seals
// the pieces it hands out: its seal line, then the piece.
async function sealedWith(key, piece) {
  const line = new TextEncoder().encode(`${await stateTag(piece, { sealKey: key })}\n`);
  const out = new Uint8Array(line.length + piece.length);
  out.set(line);
  out.set(piece, line.length);
  return out;
}

// baseTagSequence sends the same requests naming a state by its tag to the
// Worker (RECMEM_BASE_TAG) and to recmem serve --base-tag, two warm
// instances each, sealed or not, and checks they answer alike: a whole
// state, then by tag, by tag with a delta the client made, each refusal
// (the warm state stays as it was), a 409 after eviction, and two requests
// on one tag at once.
async function baseTagSequence(seal) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recmem-worker-'));
  writeFileSync(path.join(dir, 'seal.key'), sealKey);
  const worker = await startWorkerd({ RECMEM_BASE_TAG: '1', ...(seal ? { RECMEM_SEAL_KEY: sealKey } : {}) });
  const serve = await startServe(['--base-tag', '--instances', '2', '--warm', '2', ...(seal ? ['--seal-key-file', path.join(dir, 'seal.key')] : [])]);
  const tagOf = (bytes) => stateTag(bytes, seal ? { sealKey } : {});
  const both = async (name, body, what) => {
    const a = await post(worker.url, name, body);
    const b = await post(serve.url, name, body);
    await sameAnswer(a, b, what);
    return a;
  };
  try {
    // A whole state, as without base_tag.
    let a = await both('add_units', { input: { units: many }, format: 'binary' }, 'whole');
    let m = await hold({}, a.body);
    assert.equal(m.tag, await tagOf(m.bytes));
    if (seal) assert.match(m.tag, /^hmac-sha256:/);

    // By tag: nothing but the tag and the input travels.
    const query = { query: 'how many shelves does the kiln need', budget: 60 };
    a = await both('select_slate', { base_tag: m.tag, input: query }, 'by tag');
    assert.equal(a.body.base_tag, m.tag);
    assert.equal(a.body.tag, m.tag);
    assert.equal(a.body.changed, false);
    assert.equal(a.body.state ?? a.body.delta, undefined, 'nothing changed: no state');
    assert.ok(a.body.result.units.length > 0);
    a = await both('record', { base_tag: m.tag, input: { signals: [signal(0)] } }, 'a change by tag');
    assert.ok(a.body.delta && !a.body.state, 'the answer is a delta to append');
    assert.equal(a.body.changed, true);
    m = await hold(m, a.body);
    assert.equal(m.tag, await tagOf(m.bytes));
    assert.ok(a.body.delta.length < (await packState(m.bytes)).length, 'a delta is less than the state');

    // By tag with a delta the client made: the request carries the change
    // only. A sealed server seals only what it computed from states it
    // sealed (issue 22): a segment without its seal is refused, in the same
    // words, and the warm state stays as it was; one sealed with the key (a
    // client trusted with it) is taken.
    const seg = await clientSegment(m.bytes, (rm) => rm.addUnits(units));
    assert.notEqual(appendState(m.bytes, seg), seg, 'a segment, not a whole state');
    if (seal) {
      a = await both('select_slate', { base_tag: m.tag, delta: await packState(seg), input: query }, 'an unsealed client delta');
      assert.equal(a.status, 422);
      assert.match(a.body.error.message, /^delta: this server seals its states, and a segment it did not seal is refused/);
      const forged = sealedWith('another key, guessed or stolen elsewhere, 32+ bytes', seg);
      a = await both('select_slate', { base_tag: m.tag, delta: await packState(await forged), input: query }, 'a delta sealed with another key');
      assert.equal(a.status, 422);
      assert.match(a.body.error.message, /^delta: does not match its seal/);
    }
    const wire = async (piece) => packState(seal ? await sealedWith(sealKey, piece) : piece);
    a = await both('select_slate', { base_tag: m.tag, delta: await wire(seg), input: { query: 'where does Maya live now', budget: 30 } }, 'a client delta');
    const mine = appendState(m.bytes, seg);
    assert.equal(a.body.base_tag, await tagOf(mine), 'based on the state and its delta');
    assert.equal(a.body.tag, a.body.base_tag);
    assert.equal(a.body.result.units.find((u) => u.rank === 1).id, 'D2:1', 'the units the client added are served');
    const carriedBytes = JSON.stringify({ base_tag: m.tag, delta: await wire(seg), input: {} }).length;
    assert.ok(carriedBytes * 4 < (await packState(mine)).length, `the request carries the change, not the memory: ${carriedBytes} bytes`);
    m = { bytes: mine, tag: a.body.tag };
    const seg2 = await clientSegment(m.bytes, (rm) => rm.deleteUnits(['D1:2']));
    a = await both('record', { base_tag: m.tag, delta: await wire(seg2), input: { signals: [signal(1)] } }, 'a client delta and a change');
    m = await hold({ bytes: appendState(m.bytes, seg2) }, a.body);
    assert.equal(a.body.base_tag, await tagOf(appendState(mine, seg2)));
    assert.equal(m.tag, await tagOf(m.bytes));
    if (a.body.state && !seal) {
      // Compacted after a unit was removed: a whole state written from a
      // state whose analysis came from the client, after a removal, is not
      // its exact form (the instance keeps the removed unit's words as the
      // client wrote them): it keys no warm instance (issue 22), and a
      // request by its tag sends the state once.
      a = await both('get_memory', { base_tag: m.tag, input: {} }, 'a compacted foreign state by tag');
      assert.equal(a.status, 409);
      a = await both('get_memory', { state: await packState(m.bytes), tag: m.tag, delta: true, input: {} }, 'sent whole once');
      assert.equal(a.status, 200);
    }

    // Each refusal, in the same words; the warm state stays as it was.
    const other = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
    await other.addUnits(units.slice(0, 2));
    const otherBase = await other.exportState({ format: 'binary' });
    await other.addUnits(units.slice(2));
    const otherSeg = await other.exportState({ format: 'binary', base: otherBase });
    await other.close();
    const refusals = [
      ['an unknown tag', { base_tag: `sha256:${'0'.repeat(64)}` }, 409, 'base_tag: this server holds no state sha256:000'],
      ['base_tag and state', { base_tag: m.tag, state: await packState(m.bytes), tag: m.tag }, 400, 'base_tag: send either'],
      ['a delta without base_tag', { delta: await packState(otherSeg) }, 400, 'delta: a segment to append needs "base_tag"'],
      ['a whole state as a delta', { base_tag: m.tag, delta: await wire(otherBase) }, 400, 'delta: not a segment'],
      ['a delta of another state', { base_tag: m.tag, delta: await wire(otherSeg) }, 400, '(a delta of another state)'],
      ['a format', { base_tag: m.tag, format: 'xml' }, 400, 'format: want "json" or "binary", got "xml"'],
      ['17 segments (an import applies at most 16)', { base_tag: m.tag, delta: await wire(emptySegments(m.bytes, 17).subarray(m.bytes.length)) }, 400, 'more than 16 segments after the base'],
    ];
    for (const [what, body, status, message] of refusals) {
      a = await both('get_memory', { ...body, input: {} }, what);
      assert.equal(a.status, status, what);
      assert.ok(a.body.error.message.includes(message), `${what}: ${a.body.error.message}`);
    }
    // Bodies each host's own parser refuses, in its own words.
    for (const [what, body, message] of [['a delta not gzip', { base_tag: m.tag, delta: 'bm90IGd6aXA=' }, 'delta: not gzip'], ['a delta of the wrong type', { base_tag: m.tag, delta: 7 }, 'body: ']]) {
      const [w, s] = [await post(worker.url, 'get_memory', body), await post(serve.url, 'get_memory', body)];
      assert.deepEqual([w.status, s.status], [400, 400], what);
      assert.ok(w.body.error.message.startsWith(message) && s.body.error.message.startsWith(message), `${what}: ${w.body.error.message} / ${s.body.error.message}`);
    }
    // A read the module refuses leaves the state warm too.
    a = await both('select_slate', { base_tag: m.tag, input: { query: 'kiln', budget: -1 } }, 'a read the module refuses');
    assert.equal(a.status, 400);
    assert.match(a.body.error.message, /budget/);
    a = await both('get_memory', { base_tag: m.tag, input: {} }, 'after the refusals');
    assert.equal(a.status, 200);
    assert.equal(a.body.tag, m.tag);
    assert.equal(a.body.changed, false);

    // Two other memories take both warm places: the tag is refused with 409,
    // and the same request with the whole state is served, after which the
    // tag works again.
    for (const u of units.slice(0, 2)) await both('add_units', { input: { units: [u] }, format: 'binary' }, 'another memory');
    a = await both('select_slate', { base_tag: m.tag, input: query }, 'evicted');
    assert.equal(a.status, 409);
    assert.equal(a.body.error.message, `base_tag: this server holds no state ${m.tag} (it keeps a few states for a while, as a cache, and may have dropped this one or never held it); send the whole state in "state" with its "tag"`);
    a = await both('select_slate', { state: await packState(m.bytes), tag: m.tag, input: query, delta: true }, 'the whole state again');
    assert.equal(a.status, 200);
    a = await both('select_slate', { base_tag: m.tag, input: query }, 'warm again');
    assert.equal(a.status, 200);

    // Two changes on one tag at once: one is served, the other gets 409.
    for (const host of [worker.url, serve.url]) {
      const answers = await Promise.all([1, 2].map((i) => post(host, 'record', { base_tag: m.tag, input: { signals: [signal(10 + i)] } })));
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], `${host}: ${JSON.stringify(answers.map((r) => r.body))}`);
      assert.match(answers.find((r) => r.status === 409).body.error.message, /^base_tag: this server holds no state/);
    }
  } finally {
    await worker.close();
    await serve.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('base_tag: with RECMEM_BASE_TAG the Worker serves a state by its tag as recmem serve --base-tag does, the same answers, bytes and tags', async () => {
  await baseTagSequence(false);
  // Off by default, as without --base-tag: 409, naming what to send.
  const first = await call(wd.url, 'add_units', { units }, { format: 'binary' });
  const res = await post(wd.url, 'get_memory', { base_tag: first.tag, input: {} });
  assert.equal(res.status, 409);
  assert.equal(res.body.error.message, 'base_tag: this server does not serve a state by its tag (the RECMEM_BASE_TAG binding); send the whole state in "state" with its "tag"');
});

test('base_tag with RECMEM_SEAL_KEY: the same answers and seals as recmem serve --base-tag --seal-key-file', async () => {
  await baseTagSequence(true);
});

// The attacks of issue 22 on the Worker, each request under 100 kB: each is
// refused before the work (or served as a clean import would serve it),
// in a time and with a growth of workerd's memory measured here (the
// figures in docs/limits.md): the unpacking bound, 16 segments, the
// module's memory budget, all decided before the work.
test('the attacks of issue 22 on the Worker: refused before the work, workerd\'s memory flat', async () => {
  const w = await startWorkerd({ RECMEM_BASE_TAG: '1' });
  try {
    const tinyRm = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
    await tinyRm.addUnits(Array.from({ length: 20000 }, (_, i) => ({ id: String(i), session: 's', text: 'ok' })));
    const tiny = await tinyRm.exportState({ format: 'binary' });
    await tinyRm.close();
    const mem = memoryOf(tiny);
    // A warm-up: the instances made, the module compiled.
    const first = await call(w.url, 'add_units', { units }, { format: 'binary' });
    await call(w.url, 'select_slate', { query: 'pottery', budget: 50 }, { state: first.state, tag: first.tag });
    const before = rss(w.pid);
    const zeros = await packState(new Uint8Array(5 << 20));
    const attacks = [
      ['2,000 segments after 20,000 units', unitSegments(tiny, 2000), 413, 'unpacks to more than 262 kB'],
      ['17 segments after 20,000 units', unitSegments(tiny, 17), 400, 'more than 16 segments after the base'],
      ['1,000,000 unused words in 7 MB', unusedVocabulary(mem, 1_000_000), 413, 'unpacks to more than 262 kB'],
      ['30,000 unused words', unusedVocabulary(mem, 30_000), 400, 'tokens[0]: used by no unit of this piece'],
      ['a gzip bomb, 5 MB of zeros', null, 413, 'unpacks to more than 262 kB'],
    ];
    for (const [what, state, status, message] of attacks) {
      const packed = state ? await packState(state) : zeros;
      const body = JSON.stringify({ state: packed, tag: state ? await stateTag(state) : 'sha256:0', input: {} });
      const t0 = performance.now();
      const res = await post(w.url, 'get_memory', body);
      const ms = performance.now() - t0;
      console.log(`${what}: request ${(body.length / 1000).toFixed(1)} kB, ${res.status} in ${ms.toFixed(0)} ms, workerd ${(rss(w.pid) / 1e6).toFixed(0)} MB`);
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.error.message.includes(message), `${what}: ${res.body.error.message}`);
      if (body.length < 100_000) assert.ok(ms < 1000, `${what}: ${ms} ms`);
    }
    // A small delta by tag that unfolds into a vocabulary.
    const seg = unusedVocabularySegment(await unpackState(first.state), 30_000);
    const res = await post(w.url, 'get_memory', { base_tag: first.tag, delta: await packState(seg), input: {} });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.error.message, /^delta: import_state: state\.binary\.segments\[0\]\.units\.tokens\[0\]: used by no unit/);
    // A failed mutation by tag leaves the state warm; a client_id reused
    // for another signal is refused, naming it.
    const bad = await post(w.url, 'apply_ops', { base_tag: first.tag, input: { ops: [{ op: 'forget', chunk: 'c99' }] } });
    assert.equal(bad.status, 400);
    const ok = await post(w.url, 'get_memory', { base_tag: first.tag, input: {} });
    assert.equal(ok.status, 200, 'the state of a failed mutation is still warm');
    const r1 = await call(w.url, 'record', { signals: [signal(1)] }, { state: first.state, tag: first.tag });
    const reuse = await post(w.url, 'record', { state: r1.state, tag: r1.tag, input: { signals: [{ ...signal(2), client_id: signal(1).client_id }] } });
    assert.equal(reuse.status, 400);
    assert.match(reuse.body.error.message, /client_id: "u1-1" was given to another signal already/);
    // A forged binary state answered in JSON leaves no warm instance under
    // the genuine JSON's tag: the victim gets a clean import's slate.
    const genuine = await unpackState((await call(w.url, 'add_units', { units: many }, { format: 'binary' })).state);
    const forged = rewriteVectors(genuine);
    const query = { query: 'how many shelves does the kiln need', budget: 60 };
    const f = await call(w.url, 'select_slate', query, { state: await packState(forged), tag: await stateTag(forged), format: 'json' });
    const victim = await fetch(`${w.url}/v1/select_slate`, { method: 'POST', body: JSON.stringify({ state: f.state, tag: f.tag, input: query }) });
    assert.equal(victim.headers.get('x-recmem-warm'), 'false', 'the forged instance is not warm under the genuine JSON');
    const clean = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
    await clean.importState(await unpackState(f.state));
    assert.deepEqual((await victim.json()).result, await clean.selectSlate(query));
    await clean.close();
    const after = rss(w.pid);
    console.log(`workerd: ${(before / 1e6).toFixed(0)} MB before the attacks, ${(after / 1e6).toFixed(0)} MB after`);
    assert.ok(after - before < 64e6, `workerd grew ${(after - before) / 1e6} MB`);
    // The most a request under 100 kB asks once admitted: the largest
    // state of short turns it may unpack to, imported and queried.
    for (const form of ['json', 'binary']) {
      const doc = await largestAdmitted(() => Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) }), packState, form);
      const body = JSON.stringify({ state: await packState(doc), tag: await stateTag(doc), input: { query: 'what did Ann say about the kiln', budget: 500 } });
      const m0 = rss(w.pid);
      const t0 = performance.now();
      const res = await post(w.url, 'select_slate', body);
      const ms = performance.now() - t0;
      console.log(`${form}: ${(doc.length / 1000).toFixed(1)} kB unpacked from a ${(body.length / 1000).toFixed(1)} kB request: ${res.status} in ${ms.toFixed(0)} ms, workerd ${(m0 / 1e6).toFixed(0)} -> ${(rss(w.pid) / 1e6).toFixed(0)} MB`);
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      assert.ok(body.length < 100_000);
      assert.ok(rss(w.pid) - m0 < 64e6, `${form}: workerd grew ${(rss(w.pid) - m0) / 1e6} MB`);
    }
  } finally {
    await w.close();
  }
});

// A request past RECMEM_HOLD_MS is cut off at the module's next clock
// reading (workerd's clock runs during a call), answered 504 as recmem
// serve answers, and its instance discarded: the next request is served.
test('RECMEM_HOLD_MS: an import past the hold is cut off, 504, and the instance discarded', async () => {
  const w = await startWorkerd({ RECMEM_HOLD_MS: '100', RECMEM_MAX_EXPANSION: '-1', RECMEM_WARM: '1' });
  try {
    const rm = await Recmem.open({ module: new Uint8Array(readFileSync(wasmPath)) });
    await rm.addUnits(Array.from({ length: 6000 }, (_, i) => ({ id: `u${i}`, session: `s${i % 50}`, text: `turn ${i} about the kiln and pottery on Tuesday` })));
    const json = await rm.exportState(); // under 1 MiB, about a second to import
    await rm.close();
    const t0 = performance.now();
    const cut = await post(w.url, 'get_memory', { state: await packState(json), tag: await stateTag(json), input: {} });
    const ms = performance.now() - t0;
    console.log(`a ${(json.length / 1000).toFixed(0)} kB JSON import under a 100 ms hold: ${cut.status} after ${ms.toFixed(0)} ms`);
    assert.equal(cut.status, 504, JSON.stringify(cut.body));
    assert.equal(cut.body.error.message, 'timed out');
    const next = await post(w.url, 'exports', { input: {} });
    assert.equal(next.status, 200, 'the next request runs on a new instance');
  } finally {
    await w.close();
  }
});
