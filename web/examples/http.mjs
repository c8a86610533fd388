// The stateless HTTP API with fetch: the memory travels with each request.
// Run against `bin/recmem serve`: node examples/http.mjs http://127.0.0.1:8080
const base = process.argv[2] ?? 'http://127.0.0.1:8080';

async function call(exportName, input, memory = {}) {
  const res = await fetch(`${base}/v1/${exportName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: memory.state, tag: memory.tag, input }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${body.error.message}`);
  return body;
}

let memory = {}; // what a client keeps: the packed state and its tag
for (const [i, title] of ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'].entries()) {
  const r = await call('record', { signals: [{ user: 'u1', item: `g${i}`, action: 'purchase', meta: { title }, time: 1700000000 + i * 86400 }] }, memory);
  if (memory.tag && r.base_tag !== memory.tag) throw new Error('lost update: the memory changed under us');
  memory = { state: r.state, tag: r.tag };
}
const view = await call('get_memory', {}, memory);
for (const c of view.result.chunks) console.log(c.id, c.strength, c.text);
try {
  await call('apply_ops', { ops: [{ op: 'boost', chunk: 'c9' }] }, memory);
} catch (err) {
  console.log(err.message);
}
