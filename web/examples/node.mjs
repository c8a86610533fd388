// A user's memory in Node with recmem.js: record, read, rank-free, export.
// Run: node examples/node.mjs [path/to/plugin.wasm]
import { readFile } from 'node:fs/promises';
import { Recmem } from 'recmem';

const wasm = await readFile(process.argv[2] ?? new URL('../../out/plugin.wasm', import.meta.url));
const rm = await Recmem.open({ module: new Uint8Array(wasm) });

const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];
const res = await rm.record(titles.map((title, i) => ({
  user: 'u1', item: `g${i}`, action: 'purchase', meta: { title }, time: 1700000000 + i * 86400,
})));
console.log('maintenance:', res.maintenance.decision);
for (const c of (await rm.memory()).chunks) console.log(c.id, c.strength, c.text);

const state = await rm.exportState(); // keep it where the user is
const again = await Recmem.open({ module: new Uint8Array(wasm), state });
console.log('restored:', (await again.exportState()) === state);
await rm.close();
await again.close();
