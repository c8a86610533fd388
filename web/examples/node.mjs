// A user's memory in Node with recmem.js: record, read, rank-free, export;
// the binary state and its deltas; warm instances.
// Run: node examples/node.mjs [path/to/plugin.wasm]
import { readFile } from 'node:fs/promises';
import { Recmem, RecmemPool, appendState } from 'recmem';

const wasm = await readFile(process.argv[2] ?? new URL('../../out/plugin.wasm', import.meta.url));
const module = await WebAssembly.compile(wasm); // compiled once, for every instance below
const rm = await Recmem.open({ module });

const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];
const res = await rm.record(titles.map((title, i) => ({
  user: 'u1', item: `g${i}`, action: 'purchase', meta: { title }, time: 1700000000 + i * 86400,
})));
console.log('maintenance:', res.maintenance.decision);
for (const c of (await rm.memory()).chunks) console.log(c.id, c.strength, c.text);

const state = await rm.exportState(); // keep it where the user is
const again = await Recmem.open({ module, state });
console.log('restored:', (await again.exportState()) === state);

// The binary state (docs/state-binary.md): the form to carry, growing by deltas.
let bin = await rm.exportState({ format: 'binary' }); // a Uint8Array: the whole state
await rm.addUnits([{ id: 'D1:1', session: '1', speaker: 'Ann', text: 'I finished Halo 5 last night.' }]);
const piece = await rm.exportState({ format: 'binary', base: bin }); // only what changed
bin = appendState(bin, piece); // the state to keep now
const restored = await Recmem.open({ module, state: bin });
console.log('a delta of', piece.length, 'bytes; binary restored:', (await restored.exportState()) === await rm.exportState());

// Warm instances: a state whose tag matches one skips the import.
const pool = await RecmemPool.open({ module, size: 2 });
for (let i = 0; i < 2; i++) {
  const user = await pool.acquire(bin); // user.warm: nothing was imported
  const slate = await user.selectSlate({ query: 'which Halo did Ann finish', budget: 50 });
  console.log('warm:', user.warm, slate.units.map((u) => u.line).join(' | '));
  await pool.release(user); // stays warm under the state's tag
}
await pool.close();
await Promise.all([rm.close(), again.close(), restored.close()]);
