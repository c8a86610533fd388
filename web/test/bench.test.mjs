// The Node runner of `recmem bench` (web/bench/lib.mjs) on a tiny
// hand-made workload: the shapes of its report, the statistics, and the
// Orama peer's greedy fill under the budget with hand-computed tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { greedyFill, OramaPeer, runAll, stats } from '../bench/lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasm = new Uint8Array(readFileSync(process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm')));
const catalog = new Uint8Array(readFileSync(path.join(root, 'testdata/catalog/tiny.json')));

const date = '8 May, 2023';
const texts = [
  'I adopted a dog from the shelter.', 'We went hiking in the mountains last weekend.', 'My café serves crêpes.',
  'The painting class was fun, I painted a lake.', 'I started learning the guitar in March.', 'Our trip to Paris was lovely.',
  'I read a book about whales.', 'The kids love the beach.', 'I ran a marathon in the rain.', 'My sister moved to Berlin.',
];

// tokens is slate.Unit.Tokens: ceil(code points of "[date] speaker: text" / 4).
const tokens = (u) => Math.ceil([...`[${u.date}] ${u.speaker}: ${u.text}`].length / 4);

// vec is a made-up unit-length 4-dimension vector.
function vec(i) {
  const v = [Math.cos(i), Math.sin(i), Math.cos(2 * i) / 2, 0.25];
  const n = Math.hypot(...v);
  return v.map((x) => Math.round((x / n) * 1e6) / 1e6);
}

// tinyWorkload is a 20-unit, 3-question workload in the shape of the file
// pkg/workload writes.
function tinyWorkload() {
  const units = Array.from({ length: 20 }, (_, i) => ({
    id: `D${1 + (i >> 2)}:${1 + (i & 3)}`, session: `S${1 + (i >> 2)}`, date, time: '2023-05-08T13:56:00Z',
    speaker: i % 2 ? 'Bob' : 'Ann', text: texts[i % texts.length] + (i >= texts.length ? ' Again.' : ''),
  }));
  const queries = [
    { text: 'What did Ann adopt?', vector: vec(0), evidence: ['D1:1'], sessions: 1 },
    { text: 'Where did they go hiking and running?', vector: vec(1), evidence: ['D1:2', 'D3:1'], sessions: 2 },
    { text: 'Who moved to Berlin?', vector: vec(9), evidence: ['D3:2'], sessions: 1 },
  ];
  const record = (i) => JSON.stringify({ signals: [{ user: 'u1', item: 'abcde'[i % 5], action: 'purchase', meta: { title: `Game ${i}` }, time: 1672531200 + i * 86400 }], maintain: 'fixed' });
  return {
    version: 1, budget: 2000, sizes: [5, 20],
    units, tokens: units.map(tokens), vectors: units.map((_, i) => vec(i)),
    queries: queries.map(({ text, vector }) => ({ text, vector })),
    record_inputs: Array.from({ length: 6 }, (_, i) => record(i)),
    add_inputs: Array.from({ length: 6 }, (_, i) => JSON.stringify({ units: [{ ...units[i], id: `copy-${i}` }] })),
    rank: {
      catalog: 'testdata/catalog/tiny.json', setup: [record(0), record(1)], inputs: [JSON.stringify({ candidates: ['a', 'b', 'c', 'd', 'e'] })],
      sized: { 3: [JSON.stringify({ candidates: ['a', 'b', 'c'] })], '3_instruction': [JSON.stringify({ candidates: ['c', 'd', 'e'], instruction: 'nothing like a' })] },
    },
    quality: [{ id: 'conv-1', units, tokens: units.map(tokens), vectors: units.map((_, i) => vec(i)), questions: queries }],
  };
}

test('tokens are counted in code points, as slate.Unit.Tokens does', () => {
  assert.equal(tokens({ date, speaker: 'Ann', text: texts[0] }), 13); // 52 characters
  assert.equal(tokens({ date, speaker: 'Bob', text: texts[1] }), 16); // 64 characters
  assert.equal(tokens({ date, speaker: 'Ann', text: texts[2] }), 11); // 41 code points, 43 bytes
});

test('stats: median and nearest-rank p90', () => {
  assert.deepEqual(stats([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]), { median: 5.5, p90: 9 });
  assert.deepEqual(stats([3, 1, 2], 1000), { median: 2000, p90: 3000 });
  assert.deepEqual(stats([]), { median: null, p90: null });
});

test('greedyFill takes units in rank order while they fit and skips the others', () => {
  const t = new Map([['a', 10], ['b', 5], ['c', 8], ['d', 3]]);
  assert.deepEqual(greedyFill(['a', 'b', 'c', 'd'], t, 16), { ids: ['a', 'b'], used: 15 });
  assert.deepEqual(greedyFill(['a', 'b', 'c', 'd'], t, 21), { ids: ['a', 'b', 'd'], used: 18 });
  assert.deepEqual(greedyFill(['c', 'a', 'b', 'd'], t, 9), { ids: ['c'], used: 8 });
  assert.deepEqual(greedyFill(['a'], t, 9), { ids: [], used: 0 });
});

test('the Orama peer fills its hybrid hits under the budget', async () => {
  const wl = tinyWorkload();
  const peer = await OramaPeer.build(wl.units, wl.vectors, wl.tokens);
  const byID = new Map(wl.units.map((u, i) => [u.id, wl.tokens[i]]));
  const hits = await peer.hits(wl.queries[0]);
  assert.ok(hits.length > 0 && hits.length <= 20);
  assert.equal(new Set(hits).size, hits.length);
  for (const budget of [13, 30, 45, 2000]) {
    const { ids, used } = await peer.select(wl.queries[0], budget);
    assert.equal(used, ids.reduce((s, id) => s + byID.get(id), 0));
    assert.ok(used <= budget, `used ${used} > ${budget}`);
    // Greedy: every hit left out did not fit when its turn came.
    let acc = 0;
    for (const id of hits) {
      if (ids.includes(id)) acc += byID.get(id);
      else assert.ok(acc + byID.get(id) > budget, `${id} fits at B=${budget}`);
    }
  }
  // At B = 13 only a unit of at most 13 tokens fits: the adoption turn (13) is the best text hit.
  assert.deepEqual((await peer.select(wl.queries[0], 13)).ids, ['D1:1']);
});

test('runAll measures every path and reports the shape bench.mjs prints', async () => {
  const wl = tinyWorkload();
  const r = await runAll(wl, wasm, catalog, { iters: 3, warmup: 1, maxMs: 500 });
  assert.equal(r.host, 'node');
  assert.match(r.extism, /^\d+\.\d+\.\d+$/);
  for (const k of ['warm_start_ms', 'first_call_ms', 'compile_ms', 'instantiate_ms', 'cold_start_ms']) assert.ok(r[k] > 0, k);
  const isStat = (v) => typeof v.median === 'number' && typeof v.p90 === 'number' && v.median <= v.p90 && Object.keys(v).length === 2;
  for (const k of ['signal_us', 'add_unit_us', 'rank10_ms']) assert.ok(isStat(r[k]), k);
  for (const k of ['select_ms', 'export_ms', 'import_ms']) {
    assert.deepEqual(Object.keys(r[k]), ['5', '20'], k);
    for (const v of Object.values(r[k])) assert.ok(isStat(v), k);
  }
  assert.ok(r.state_bytes['5'] > 0 && r.state_bytes['20'] > r.state_bytes['5']);
  assert.ok(isStat(r.rank_ms['3']) && isStat(r.rank_instruction_ms['3']));
  // Each path broken down into the module's phases (docs/phases.md).
  assert.deepEqual(Object.keys(r.phases), ['signal', 'add_unit', 'select_5', 'select_20']);
  for (const [path, b] of Object.entries(r.phases)) {
    assert.equal(b.n, 3, path);
    assert.ok(b.phases.length >= 3 && b.phases.at(-1).name === 'encode', path);
    assert.ok(b.total_us > 0 && b.phases.every((p) => p.median_us >= 0), path);
  }
  assert.deepEqual(r.phases.select_20.phases.slice(0, 3).map((p) => p.name), ['decode', 'analyse', 'bm25']);
  assert.equal(r.orama.version, '3.1.18');
  assert.equal(r.orama.mode, 'hybrid');
  assert.deepEqual(Object.keys(r.orama.select_ms), ['5', '20']);
  for (const v of Object.values(r.orama.select_ms)) assert.ok(isStat(v));
  assert.ok(r.orama.index_ms['20'] > 0);
  assert.equal(r.orama.questions, 3);
  // Budget 2000 holds all 20 units: every question's slate is complete.
  assert.equal(r.orama.r_slate, 1);
  assert.equal(r.orama.r_slate_k2, 1);
  assert.ok(JSON.parse(JSON.stringify(r)));
});
