#!/usr/bin/env node
// compare.mjs: compare the candidate models on recorded recmem prompts.
//
//   node scripts/llm/compare.mjs RECORDING.jsonl [--steps extract,plan,synthesize,rank]
//                                [--models smollm2,gemma3-270m] [--repeat 3] [--threads 1]
//
// It takes the first exchange of each step (extract, plan, synthesize, rank)
// from a recording made by `recmem eval rec --llm-record`, asks each model the
// same request --repeat times (greedy, under the request's schema as a
// grammar, as the server does) and prints, per model and step, the prompt and
// answer tokens, the median and the spread of the latency, and the answer.
// Latency on a shared machine is noisy: the load average is printed with it,
// and so is the CPU time the process spent (all its threads), which is what
// the call costs an otherwise idle machine.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { openEngine } from './engine.mjs';
import { lookup, modelPath } from './models.mjs';

const { values: o, positionals } = parseArgs({
  allowPositionals: true,
  options: { steps: { type: 'string', default: 'extract,plan,synthesize,rank' }, models: { type: 'string', default: 'smollm2,gemma3-270m' }, repeat: { type: 'string', default: '3' }, threads: { type: 'string', default: '1' } },
});
if (positionals.length !== 1) {
  console.error('usage: node scripts/llm/compare.mjs RECORDING.jsonl [--models smollm2,gemma3-270m] [--repeat 3] [--threads 1]');
  process.exit(2);
}
const byStep = new Map();
for (const line of fs.readFileSync(positionals[0], 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const ex = JSON.parse(line);
  if (!byStep.has(ex.request.purpose) && o.steps.split(',').includes(ex.request.purpose)) byStep.set(ex.request.purpose, ex.request);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const rows = [];
for (const name of o.models.split(',')) {
  const meta = lookup(name);
  const t0 = performance.now();
  const engine = await openEngine({ modelPath: modelPath(meta), threads: Number(o.threads), model: meta });
  const loadMs = performance.now() - t0;
  for (const [step, req] of byStep) {
    const format = req.schema ? { type: 'json_schema', schema: req.schema } : { type: 'json_object' };
    const ms = [], cpu = [];
    let out;
    for (let i = 0; i < Number(o.repeat); i++) {
      const s = performance.now(), c = process.cpuUsage();
      out = await engine.complete({ messages: req.messages, maxTokens: req.max_tokens, temperature: 0, format });
      ms.push(performance.now() - s);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
    let json = true;
    try { JSON.parse(out.text); } catch { json = false; }
    const row = { model: engine.info.id, step, prompt_tokens: engine.promptTokens(req.messages), answer_tokens: out.completionTokens,
      median_ms: Math.round(median(ms)), median_cpu_ms: Math.round(median(cpu)), min_ms: Math.round(Math.min(...ms)), max_ms: Math.round(Math.max(...ms)), json, load_ms: Math.round(loadMs),
      loadavg: os.loadavg()[0].toFixed(1), answer: out.text.slice(0, 300) };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  await engine.close();
}
