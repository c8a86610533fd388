#!/usr/bin/env node
// serve.mjs: serve a small GGUF model as an OpenAI-compatible
// /v1/chat/completions on loopback (docs/llm.md, "A local model").
//
//   node scripts/llm/serve.mjs [--model NAME | --gguf FILE] [--host 127.0.0.1] [--port 8091]
//                              [--ctx 4096] [--threads 1]
//
// The model must be in the cache already (node scripts/llm/fetch.mjs NAME, or
// scripts/llm/run.sh NAME, which fetches and serves). Progress and one line
// per request go to stderr; the address goes to stdout once the model is up.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultModel, lookup, modelPath } from './models.mjs';
import { createServer, listen } from './server.mjs';

function usage(msg) {
  if (msg) console.error(`serve: ${msg}`);
  console.error('usage: node scripts/llm/serve.mjs [--model NAME | --gguf FILE] [--host 127.0.0.1] [--port 8091] [--ctx 4096] [--threads 1]');
  process.exit(2);
}

let opts;
try {
  opts = parseArgs({
    options: {
      model: { type: 'string' }, gguf: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8091' }, ctx: { type: 'string', default: '4096' }, threads: { type: 'string', default: '1' },
      'repeat-penalty': { type: 'string', default: '1' },
    },
  }).values;
} catch (err) {
  usage(err.message);
}
const int = (name, lo, hi) => {
  const v = Number(opts[name]);
  if (!Number.isInteger(v) || v < lo || v > hi) usage(`--${name}: want an integer from ${lo} to ${hi}, got ${JSON.stringify(opts[name])}`);
  return v;
};
const port = int('port', 1, 65535), contextSize = int('ctx', 256, 131072), threads = int('threads', 1, 256);
const repeatPenalty = Number(opts['repeat-penalty']);
if (!(repeatPenalty >= 1 && repeatPenalty <= 2)) usage(`--repeat-penalty: want a number from 1 (off) to 2, got ${JSON.stringify(opts['repeat-penalty'])}`);
if (opts.model && opts.gguf) usage('give --model or --gguf, not both');
let meta = null, file;
try {
  if (opts.gguf) file = opts.gguf;
  else { meta = lookup(opts.model || defaultModel); file = modelPath(meta); }
} catch (err) {
  usage(err.message);
}
if (!fs.existsSync(file)) {
  const fetch = meta ? `node scripts/llm/fetch.mjs ${meta.name}` : 'node scripts/llm/fetch.mjs MODEL';
  console.error(`serve: the model file ${file} is missing. Fetch it with: ${fetch}` +
    (meta ? ` (or start with scripts/llm/run.sh ${meta.name}, which fetches, then serves)` : ''));
  process.exit(1);
}

const say = (s) => process.stderr.write(`[llm ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const server = createServer({ log: say });
try {
  await listen(server, opts.host, port);
} catch (err) {
  console.error(`serve: ${err.message}`);
  process.exit(1);
}
say(`listening on http://${opts.host}:${port}/v1; loading ${file}`);
const t0 = performance.now();
let engine;
try {
  const { openEngine } = await import('./engine.mjs');
  engine = await openEngine({ modelPath: file, contextSize, threads, repeatPenalty, model: meta });
} catch (err) {
  console.error(`serve: loading ${file}: ${err.message}`);
  if (/Cannot find (package|module)/.test(err.message)) console.error('serve: install the runtime first: (cd scripts/llm && npm ci), or use scripts/llm/run.sh');
  process.exit(1);
}
server.setEngine(engine);
say(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${engine.info.id}, ${engine.info.runtime}`);
console.log(`http://${opts.host}:${port}/v1`);
const stop = async () => {
  server.close();
  await engine.close().catch(() => {});
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
