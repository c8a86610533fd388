// recmem.d.ts against real outputs: every key of every output of recmem.js's
// methods must be declared, with a compatible type, and every declared
// required key must be there. The outputs are written as object literals
// typed by the methods' declared return types, and the TypeScript compiler
// checks them (excess property checks reach every nesting level of a fresh
// literal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { Recmem } from 'recmem';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const wasm = readFileSync(process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm'));
const module = await WebAssembly.compile(wasm);
const catalog = readFileSync(path.join(root, 'testdata/catalog/tiny.json'));

const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One'];
const signals = titles.map((t, i) => ({ user: 'u1', item: 'abc'[i], action: 'purchase', meta: { title: t, genre: ['Shooter'] }, time: 1700000000 + i * 86400, client_id: `c${i}` }));
const units = [
  { id: 'D1:1', session: 'S1', date: '8 May 2023', time: '2023-05-08', speaker: 'Ann', text: 'I signed up for a pottery class on Tuesdays.', user: 'ann' },
  { id: 'D1:2', session: 'S1', date: '8 May 2023', time: '2023-05-08', speaker: 'Ben', text: 'Nice, what will you make?', user: 'ann', kind: 'turn' },
  { id: 'R1', session: 'S2', text: 'Ann takes pottery classes.', kind: 'record' },
];

// outputs runs every method on a memory that exercises its optional fields;
// with llm, every LLM step asks a model that always fails, so the outputs
// carry their "llm" outcomes.
async function outputs(llm) {
  const opts = llm ? { module, catalog, llm: () => ({ text: '', input_tokens: 0, output_tokens: 0, error: 'scripted failure' }), llmSteps: ['extract', 'plan', 'synthesize', 'rank'] } : { module, catalog };
  const rm = await Recmem.open(opts);
  const out = [];
  const add = async (method, p) => out.push([method, await p]);
  await add('exports', rm.exports());
  await add('reset', rm.reset({ batch: 2, gamma: 2 }));
  await add('record', rm.record(signals));
  await add('record', rm.record(signals.slice(0, 1).concat([{ ...signals[0], client_id: 'c9', action: 'rate', rating: 2, item: 'd' }]), { maintain: 'planner' }));
  await add('maintain', rm.maintain({ now: 1700900000, scheduler: 'planner', force: true }));
  await add('maintain', rm.maintain({ force: true }));
  await add('plan', rm.plan({ now: 1701000000, force: true }));
  await add('applyOps', rm.applyOps([{ op: 'extract', category: 'genre', text: 'Enjoys puzzles', strength: 0.8, reason: 'told us' }, { op: 'synthesize' }], { now: 1701000000 }));
  await add('memory', rm.memory());
  await add('memory', rm.memory({ journalLimit: 2 }));
  await add('rank', rm.rank(['a', 'b', 'c', { id: 'zz', meta: { title: 'Space Puzzle' } }], { instruction: 'puzzles', k: 3 }));
  await add('addUnits', rm.addUnits(units));
  await add('selectSlate', rm.selectSlate({ query: 'when is the pottery class', budget: 100, with_pool: true }));
  await add('selectSlate', rm.selectSlate({ query: 'pottery', date: '2023-06-01', budget: 50, ranker: 'bm25', explain: false }));
  await add('deleteUnits', rm.deleteUnits(['D1:2']));
  await add('purge', rm.purge({ session: 'S2' }));
  await add('purge', rm.purge({ user: 'ann' }));
  const state = await rm.exportState();
  await add('exportState', Promise.resolve(state));
  await add('importState', rm.importState(state));
  await add('loadCatalog', rm.loadCatalog(catalog));
  await rm.close();
  return out;
}

test('recmem.d.ts declares every key of the real outputs', async () => {
  const all = [...await outputs(false), ...await outputs(true)];
  const lines = [
    `import type { Recmem } from ${JSON.stringify(path.join(web, 'recmem.js'))};`,
    'type Out<K extends keyof Recmem> = Recmem[K] extends (...a: any[]) => Promise<infer R> ? R : never;',
  ];
  all.forEach(([method, value], i) => lines.push(`export const v${i}: Out<${JSON.stringify(method)}> = ${JSON.stringify(value)};`));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recmem-types-'));
  const file = path.join(dir, 'outputs.ts');
  writeFileSync(file, lines.join('\n') + '\n');
  try {
    const program = ts.createProgram([file], {
      noEmit: true, strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file) return msg;
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      const src = d.file.text.split('\n')[line] ?? '';
      return `${path.basename(d.file.fileName)}:${line + 1}: ${msg}\n    ${src.slice(0, 160)}`;
    });
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
