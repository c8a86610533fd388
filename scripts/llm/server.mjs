// server.mjs: an OpenAI-compatible /v1/chat/completions on loopback, over any
// engine with the interface of engine.mjs. It holds no model code itself, so
// its tests (test/) run with a stand-in engine and need neither the model nor
// node-llama-cpp.
//
// What reaches it and what it answers:
//   POST /v1/chat/completions  {messages, max_tokens, temperature, response_format}
//     response_format {"type":"json_object"}  -> any JSON object (a grammar)
//     response_format {"type":"json_schema","json_schema":{"name","schema"}}
//                                             -> a value of that schema (a grammar)
//   GET  /v1/models, GET /healthz
// Every refusal is an OpenAI-style {"error":{"message","type","code","param"}}
// naming the field: 400 for a bad request, a prompt over the context length
// (code context_length_exceeded) or an unusable schema; 413 for a body over
// 1 MiB; 503 while the model loads; 500 when the runtime fails.
import http from 'node:http';
import net from 'node:net';

const maxBody = 1 << 20;

/** isLoopback reports whether host names this machine only. */
export function isLoopback(host) {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

function fail(status, message, param = null, code = null) {
  const e = new Error(message);
  Object.assign(e, { status, param, code: code ?? (status === 400 ? 'invalid_request_error' : null) });
  return e;
}

/** parseChat checks a chat-completions body and returns the engine's request. */
export function parseChat(body, contextSize) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw fail(400, 'the body must be a JSON object');
  const { messages, max_tokens: maxTokens = 256, temperature = 0, response_format: rf, stream = false, n = 1 } = body;
  if (!Array.isArray(messages) || messages.length === 0) throw fail(400, 'messages: must be a non-empty array', 'messages');
  messages.forEach((m, i) => {
    if (m === null || typeof m !== 'object') throw fail(400, `messages[${i}]: must be an object`, `messages[${i}]`);
    if (!['system', 'user', 'assistant'].includes(m.role)) throw fail(400, `messages[${i}].role: want system, user or assistant, got ${JSON.stringify(m.role)}`, `messages[${i}].role`);
    if (typeof m.content !== 'string') throw fail(400, `messages[${i}].content: must be a string`, `messages[${i}].content`);
  });
  if (!Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > contextSize) throw fail(400, `max_tokens: want an integer from 1 to the context length ${contextSize}, got ${JSON.stringify(maxTokens)}`, 'max_tokens');
  if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2)) throw fail(400, `temperature: want a number from 0 to 2, got ${JSON.stringify(temperature)}`, 'temperature');
  if (stream !== false) throw fail(400, 'stream: streaming is not supported by this server', 'stream');
  if (n !== 1) throw fail(400, 'n: only one choice is supported', 'n');
  let format;
  if (rf !== undefined && rf !== null) {
    switch (rf.type) {
      case 'text':
        break;
      case 'json_object':
        format = { type: 'json_object' };
        break;
      case 'json_schema': {
        const s = rf.json_schema?.schema;
        if (s === null || typeof s !== 'object' || Array.isArray(s)) throw fail(400, 'response_format.json_schema.schema: must be a JSON schema object', 'response_format.json_schema.schema');
        format = { type: 'json_schema', name: String(rf.json_schema.name ?? ''), schema: s };
        break;
      }
      default:
        throw fail(400, `response_format.type: want text, json_object or json_schema, got ${JSON.stringify(rf.type)}`, 'response_format.type');
    }
  }
  return { messages: messages.map((m) => ({ role: m.role, content: m.content })), maxTokens, temperature, format };
}

/**
 * createServer returns an http.Server; set its engine with setEngine once the
 * model is loaded (until then, chat requests get a 503). log receives one
 * line per request.
 */
export function createServer({ log = () => {} } = {}) {
  let engine = null;
  let queue = Promise.resolve(); // one generation at a time
  const send = (res, status, obj, headers = {}) => {
    const b = JSON.stringify(obj);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b), ...headers });
    res.end(b);
  };
  const sendError = (res, err) => {
    const status = err.status ?? 500;
    const type = status === 400 || status === 413 ? 'invalid_request_error' : status === 503 ? 'unavailable' : 'server_error';
    send(res, status, { error: { message: err.message, type, code: err.code ?? null, param: err.param ?? null } }, status === 503 ? { 'retry-after': '1' } : {});
  };
  // readBody keeps at most maxBody bytes; a longer body is read to its end
  // (so the client hears the 413) unless it goes on past 16 times that.
  const readBody = (req) => new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size <= maxBody) chunks.push(c);
      else if (size > 16 * maxBody) req.destroy();
    });
    req.on('end', () => (size > maxBody ? reject(fail(413, `the body is over ${maxBody} bytes`)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });

  const chat = async (req, res) => {
    if (!engine) throw fail(503, 'the model is still loading; retry in a moment');
    const raw = await readBody(req);
    let body;
    try {
      body = JSON.parse(raw);
    } catch (err) {
      throw fail(400, `the body is not JSON: ${err.message}`);
    }
    const r = parseChat(body, engine.contextSize);
    const ac = new AbortController();
    res.on('close', () => { if (!res.writableFinished) ac.abort(); });
    const run = async () => {
      if (ac.signal.aborted) throw fail(499, 'the client went away');
      const t0 = performance.now(), cpu0 = process.cpuUsage();
      const promptTokens = engine.promptTokens(r.messages);
      if (promptTokens + r.maxTokens > engine.contextSize) {
        throw fail(400, `the prompt is ${promptTokens} tokens and max_tokens ${r.maxTokens}: together more than the context length ${engine.contextSize}`, 'messages', 'context_length_exceeded');
      }
      const out = await engine.complete({ ...r, signal: ac.signal });
      const ms = performance.now() - t0, cpu = process.cpuUsage(cpu0);
      log(`${r.format?.name || r.format?.type || 'text'}: ${promptTokens} prompt + ${out.completionTokens} completion tokens in ${ms.toFixed(0)} ms, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU (${out.finishReason})`);
      return { promptTokens, ...out };
    };
    const job = queue.then(run, run);
    queue = job.catch(() => {});
    const out = await job;
    send(res, 200, {
      id: `chatcmpl-${Date.now().toString(36)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: engine.info.id,
      choices: [{ index: 0, message: { role: 'assistant', content: out.text }, finish_reason: out.finishReason }],
      usage: { prompt_tokens: out.promptTokens, completion_tokens: out.completionTokens, total_tokens: out.promptTokens + out.completionTokens },
    });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let p;
    if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
      p = chat(req, res);
    } else if (req.method === 'GET' && url.pathname === '/v1/models') {
      p = Promise.resolve(send(res, 200, { object: 'list', data: engine ? [{ object: 'model', owned_by: 'recmem-llm', ...engine.info }] : [] }));
    } else if (req.method === 'GET' && url.pathname === '/healthz') {
      p = Promise.resolve(send(res, engine ? 200 : 503, { ok: !!engine, model: engine?.info.id ?? null }));
    } else {
      p = Promise.reject(fail(404, `no route ${req.method} ${url.pathname}`));
    }
    p.catch((err) => {
      if (res.headersSent || res.destroyed) return;
      if (!err.status) log(`error: ${err.stack || err.message}`);
      sendError(res, err);
    });
  });
  server.setEngine = (e) => { engine = e; };
  return server;
}

/** listen binds server to host:port, with clear errors for a port in use. */
export function listen(server, host, port) {
  if (!isLoopback(host)) {
    return Promise.reject(new Error(`--host: ${host} is not a loopback address; this server has no authentication and serves this machine only`));
  }
  return new Promise((resolve, reject) => {
    server.once('error', (err) => {
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use (another server is listening there); stop it or choose another with --port`));
      else if (err.code === 'EACCES') reject(new Error(`port ${port} on ${host}: permission denied; choose a port above 1023 with --port`));
      else reject(err);
    });
    server.listen(port, host, () => resolve(server.address()));
  });
}
