// The page's LLM steps follow the rule recmem.js and the Go host follow
// (docs/llm.md, "Which steps help"): web/app/llmsteps.js turns the settings
// into Recmem.open's options, the module applies llm.ForModel, and the
// settings panel says what it applied. Run against the built module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Recmem } from 'recmem';
import { llmOptions, stepsWhy } from '../app/llmsteps.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasm = readFileSync(process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm'));
const module = await WebAssembly.compile(wasm);

// applied opens the module as the page does for settings s and returns the
// module's account of its LLM configuration (the exports export's llm key).
async function applied(s) {
  const llm = () => ({ text: '', input_tokens: 0, output_tokens: 0, error: 'not asked in this test' });
  const rm = await Recmem.open({ module, llm, ...llmOptions(s) });
  const out = await rm.call('exports');
  await rm.close();
  return out.llm;
}

test('no endpoint: no step, whatever the settings name', async () => {
  assert.deepEqual(llmOptions({ llmSteps: 'extract', llmModel: 'x' }), { llmSteps: [] });
  const cfg = await applied({ llmSteps: 'extract' });
  assert.deepEqual(cfg.steps, []);
});

test('an endpoint with a measured model and no steps named: the measured defaults, none for SmolLM2-135M', async () => {
  const s = { llmEndpoint: 'http://127.0.0.1:8091/v1', llmModel: 'SmolLM2-135M-Instruct' };
  assert.deepEqual(llmOptions(s), { llmModel: 'SmolLM2-135M-Instruct' });
  const cfg = await applied(s);
  assert.deepEqual(cfg.steps, []);
  assert.equal(cfg.model, 'smollm2-135m-instruct');
  assert.deepEqual(cfg.helps, []);
  assert.equal(cfg.prompts, 'compact');
  assert.match(stepsWhy(s, cfg), /^No step asks the model: none was measured to help smollm2-135m-instruct \(docs\/llm\.md, SmolLM2-135M-Instruct Q4_1: testdata\/llm\/smollm2-135m-instruct-q4_1\)\. Name steps below to ask it anyway\.$/);
});

test('an endpoint with a model nothing was measured with: no step, and the panel says why', async () => {
  const s = { llmEndpoint: 'https://llm.example/v1', llmModel: 'some-hosted-model' };
  const cfg = await applied(s);
  assert.deepEqual(cfg.steps, []);
  assert.equal(cfg.model, undefined);
  assert.equal(cfg.prompts, 'full');
  assert.match(stepsWhy(s, cfg), /nothing was measured with “some-hosted-model”.*\(extract, plan, synthesize, rank, parse\)/);
});

test('steps named: those, in the module\'s order, the parse step included', async () => {
  const s = { llmEndpoint: 'http://127.0.0.1:8091/v1', llmModel: 'SmolLM2-135M-Instruct', llmSteps: 'parse, synthesize' };
  assert.deepEqual(llmOptions(s), { llmSteps: ['parse', 'synthesize'], llmModel: 'SmolLM2-135M-Instruct' });
  const cfg = await applied(s);
  assert.deepEqual(cfg.steps, ['synthesize', 'parse']);
  assert.equal(stepsWhy(s, cfg), 'Steps that ask the model: synthesize, parse (named here).');
});
