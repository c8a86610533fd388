// Tests of the local model server that need neither the model nor
// node-llama-cpp: the HTTP layer over a stand-in engine, and serve.mjs's
// refusals before it loads anything. ./build.sh test runs them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer, isLoopback, listen } from '../server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const serve = path.join(here, '..', 'serve.mjs');

// fakeEngine counts a token per 4 characters and answers with canned text,
// or fails the way a runtime does.
function fakeEngine({ fail = null } = {}) {
  const calls = [];
  return {
    calls,
    info: { id: 'fake', model: 'fake', quantization: 'none', runtime: 'test' },
    contextSize: 64,
    promptTokens: (msgs) => Math.ceil(msgs.map((m) => m.content).join('').length / 4),
    async complete(r) {
      calls.push(r);
      if (fail) throw new Error(fail);
      return { text: '{"profile":"ok"}', completionTokens: 5, finishReason: 'stop' };
    },
  };
}

async function withServer(engine, fn) {
  const srv = createServer();
  if (engine) srv.setEngine(engine);
  const { port } = await listen(srv, '127.0.0.1', 0);
  try {
    await fn(`http://127.0.0.1:${port}`);
  } finally {
    srv.close();
  }
}

const post = (url, body) => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
});
const user = (content) => ({ messages: [{ role: 'user', content }], max_tokens: 8 });

test('answers a chat completion with usage, and passes the schema to the engine', async () => {
  const e = fakeEngine();
  await withServer(e, async (url) => {
    const schema = { type: 'object', properties: { profile: { type: 'string' } } };
    const res = await post(url, { ...user('hello'), response_format: { type: 'json_schema', json_schema: { name: 'recmem_synthesize', schema } } });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.choices[0].message.content, '{"profile":"ok"}');
    assert.deepEqual(body.usage, { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 });
    assert.deepEqual(e.calls[0].format, { type: 'json_schema', name: 'recmem_synthesize', schema });
    assert.equal(e.calls[0].temperature, 0);
  });
});

test('a request over the context length is refused, naming the sizes', async () => {
  const e = fakeEngine();
  await withServer(e, async (url) => {
    const res = await post(url, { ...user('x'.repeat(240)), max_tokens: 8 }); // 60 + 8 > 64
    assert.equal(res.status, 400);
    const { error } = await res.json();
    assert.equal(error.code, 'context_length_exceeded');
    assert.equal(error.param, 'messages');
    assert.match(error.message, /the prompt is 60 tokens and max_tokens 8: together more than the context length 64/);
    assert.equal(e.calls.length, 0, 'the engine was not asked');
  });
});

test('bad requests get a 400 naming the field', async () => {
  await withServer(fakeEngine(), async (url) => {
    const cases = [
      ['{"messages":', /the body is not JSON/, null],
      [{ messages: [] }, /messages: must be a non-empty array/, 'messages'],
      [{ messages: [{ role: 'tool', content: 'x' }] }, /messages\[0\].role: want system, user or assistant/, 'messages[0].role'],
      [{ messages: [{ role: 'user', content: 7 }] }, /messages\[0\].content: must be a string/, 'messages[0].content'],
      [{ ...user('x'), max_tokens: 0 }, /max_tokens: want an integer from 1 to the context length 64/, 'max_tokens'],
      [{ ...user('x'), temperature: -1 }, /temperature/, 'temperature'],
      [{ ...user('x'), stream: true }, /stream: streaming is not supported/, 'stream'],
      [{ ...user('x'), response_format: { type: 'yaml' } }, /response_format.type: want text, json_object or json_schema/, 'response_format.type'],
      [{ ...user('x'), response_format: { type: 'json_schema', json_schema: { name: 'x' } } }, /response_format.json_schema.schema: must be a JSON schema object/, 'response_format.json_schema.schema'],
    ];
    for (const [body, msg, param] of cases) {
      const res = await post(url, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const { error } = await res.json();
      assert.match(error.message, msg);
      assert.equal(error.param, param);
    }
    const big = await post(url, user('x'.repeat(1 << 20)));
    assert.equal(big.status, 413);
    const nf = await fetch(`${url}/v1/embeddings`, { method: 'POST', body: '{}' });
    assert.equal(nf.status, 404);
  });
});

test('while the model loads, requests get a 503 with Retry-After', async () => {
  await withServer(null, async (url) => {
    const res = await post(url, user('x'));
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.match((await res.json()).error.message, /still loading/);
  });
});

test('a runtime failure mid-answer is a 500 with its message', async () => {
  await withServer(fakeEngine({ fail: 'llama_decode failed' }), async (url) => {
    const res = await post(url, user('x'));
    assert.equal(res.status, 500);
    assert.equal((await res.json()).error.message, 'llama_decode failed');
  });
});

test('only loopback addresses are served', async () => {
  assert.ok(isLoopback('127.0.0.1') && isLoopback('127.1.2.3') && isLoopback('::1') && isLoopback('localhost'));
  assert.ok(!isLoopback('0.0.0.0') && !isLoopback('10.0.0.1') && !isLoopback('::'));
  await assert.rejects(listen(createServer(), '0.0.0.0', 0), /not a loopback address/);
});

test('serve.mjs: a missing model file names the command that fetches it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recmem-models-'));
  const r = spawnSync(process.execPath, [serve, '--model', 'gemma3-270m'], { env: { ...process.env, RECMEM_MODEL_DIR: dir }, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /the model file .*gemma-3-270m-q4_k_m.gguf is missing\. Fetch it with: node scripts\/llm\/fetch.mjs gemma3-270m/);
  const unknown = spawnSync(process.execPath, [serve, '--model', 'gpt-5'], { encoding: 'utf8' });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown model "gpt-5" \(known: smollm2, gemma3-270m\)/);
});

test('serve.mjs: a port in use is a clear error before any model loads', async () => {
  const busy = net.createServer();
  await new Promise((r) => busy.listen(0, '127.0.0.1', r));
  const { port } = busy.address();
  const gguf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recmem-models-')), 'x.gguf');
  fs.writeFileSync(gguf, 'not a model');
  try {
    const r = spawnSync(process.execPath, [serve, '--gguf', gguf, '--port', String(port)], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`port ${port} on 127.0.0.1 is in use .*choose another with --port`));
  } finally {
    busy.close();
  }
  const bad = spawnSync(process.execPath, [serve, '--port', 'eighty'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--port: want an integer from 1 to 65535, got "eighty"/);
});
