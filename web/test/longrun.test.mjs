// Long runs on one instance (issue 17, item 9): the module's linear memory
// must level off. Before the fix, Go's garbage collector left a cycle
// unfinished at the end of every call (a wasm module has one thread, and the
// background mark workers never ran), so an instance grew by each call's
// garbage: 72, 97, 151, 208, 265 MB over five imports of a 10,000-unit state
// in Node, 447 MB after eight in workerd, until the page cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Recmem, RecmemError, messageOf } from 'recmem';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasm = readFileSync(process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm'));
const module = await WebAssembly.compile(wasm);
const MiB = 1 << 20;

// unitsState is the state document of a memory of n short units.
async function unitsState(n) {
  const rm = await Recmem.open({ module });
  for (let i = 0; i < n; i += 5000) {
    const units = [];
    for (let j = i; j < Math.min(n, i + 5000); j++) {
      units.push({ id: `u${j}`, session: `s${Math.floor(j / 20)}`, speaker: 'Ana', text: `turn ${j} about pottery classes and marathon training` });
    }
    await rm.addUnits(units);
  }
  const state = await rm.exportState();
  await rm.close();
  return state;
}

// run serves one request per state on one instance, as an edge worker
// would (import, read, select, export, reset), and returns the instance's
// memory in bytes after each.
async function run(state, n) {
  const rm = await Recmem.open({ module });
  const memory = (await rm.plugin.getInstance()).exports.memory;
  const sizes = [];
  for (let i = 0; i < n; i++) {
    await rm.importState(state);
    await rm.memory({ journalLimit: 1 });
    await rm.selectSlate({ query: 'when is the pottery class', budget: 200 });
    await rm.exportState();
    await rm.reset();
    sizes.push(memory.buffer.byteLength);
  }
  await rm.close();
  return sizes;
}

test('200 calls with 500-unit states: the memory levels off', async () => {
  const sizes = await run(await unitsState(500), 200);
  const first = Math.max(...sizes.slice(0, 100));
  const last = Math.max(...sizes.slice(100));
  assert.ok(last <= first + 2 * MiB, `grew from ${(first / MiB).toFixed(1)} MiB to ${(last / MiB).toFixed(1)} MiB in the second hundred calls`);
  assert.ok(last < 64 * MiB, `${(last / MiB).toFixed(1)} MiB for a 500-unit state`);
});

test('10,000-unit states: the memory levels off instead of growing by each call', async () => {
  const sizes = await run(await unitsState(10000), 12);
  const mb = sizes.map((s) => (s / MiB).toFixed(0)).join(', ');
  // Before the fix: 72, 97, 151, 208, 265, 322, 379, 437, ... (about 57 MiB
  // more every call). After it the memory still steps a few times, when the
  // collector's heap goal grows (74, 91, 97, ..., 152 at whichever call the
  // goal doubles), and stays between the steps: at most three of the eleven
  // later calls grow it by more than 16 MiB, and the whole stays within 256
  // MiB.
  const grew = sizes.filter((s, i) => i > 0 && s - sizes[i - 1] > 16 * MiB).length;
  assert.ok(grew <= 3 && sizes[11] <= 256 * MiB, `memory after each call: ${mb} MiB (${grew} calls grew it by more than 16 MiB)`);
});

test('any thrown value becomes a message, and a trapped instance runs nothing more', async () => {
  assert.equal(messageOf('async io not supported'), 'async io not supported');
  assert.equal(messageOf(new Error('boom')), 'boom');
  assert.equal(messageOf({ code: 7 }), '{"code":7}');
  assert.equal(messageOf(undefined), 'undefined');
  // A plugin whose call throws a bare string, as a WASI shim does.
  const rm = new Recmem({ call: async () => { throw 'async io not supported'; } });
  await assert.rejects(rm.memory(), (err) => err instanceof RecmemError && err.trapped &&
    err.message === 'the module failed while running get_memory: async io not supported');
  await assert.rejects(rm.exportState(), (err) => err instanceof RecmemError && err.trapped &&
    /failed in an earlier call \(get_memory: .*async io not supported\); open a new one/.test(err.message));
  // A module error is not a trap.
  const ok = await Recmem.open({ module });
  await assert.rejects(ok.applyOps([{ op: 'boost', chunk: 'c9' }]), (err) => !err.trapped);
  assert.equal((await ok.memory()).chunks.length, 0);
  await ok.close();
});
