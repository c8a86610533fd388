// recmem.js in a page without a bundler (examples/browser.html maps the bare
// specifiers): record a few purchases and show the preferences.
import { Recmem, RecmemError } from 'recmem';
const rm = await Recmem.open({ module: new URL('/out/plugin.wasm', location.href) }); // or bytes, a Response, a WebAssembly.Module, a path in Node

const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];
await rm.record(titles.map((title, i) => ({
  user: 'u1', item: `g${i}`, action: 'purchase', meta: { title }, time: 1700000000 + i * 86400, client_id: `buy-${i}`,
})));
const lines = (await rm.memory()).chunks.map((c) => `${c.id} ${c.strength} ${c.text}`);
try {
  await rm.applyOps([{ op: 'boost', chunk: 'c9' }]);
} catch (err) {
  if (err instanceof RecmemError) lines.push(err.message);
}
document.querySelector('#out').textContent = lines.join('\n');
