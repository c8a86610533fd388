// A Worker (Cloudflare Workers, workerd) serving recmem's stateless HTTP API,
// the same API as `recmem serve` (docs/http.md): POST /v1/<export> with
// {"state", "tag", "input", "format", "delta"} runs one export on the memory
// the request carries and answers {"result", "state" or "delta", "tag",
// "base_tag", "changed"}; the state is a JSON document or a binary state
// (docs/state-binary.md), and with "delta" the answer carries only what
// changed. The client holds the memory: the Worker keeps a few instances
// warm with the states they served last, keyed by tag, so that a request
// whose state has the tag of one skips the import, but a warm instance is a
// cache, never the authority (a tag covers the whole state).
//
// The module comes as a Wasm module binding: workerd and Cloudflare compile
// it when the Worker is deployed, and a Worker may not compile Wasm from
// bytes ("Wasm code generation disallowed by embedder"). Bindings (all
// optional): RECMEM_CATALOG, the catalog rank uses (bytes, server
// configuration like `recmem serve --catalog`); RECMEM_SEAL_KEY, a secret of
// at least 32 bytes that seals the states handed out (`--seal-key-file`);
// RECMEM_WARM, how many instances the isolate keeps (default 2).
//
// Run it: npx workerd serve examples/worker.capnp (from web/, after
// ./build.sh); web/test/worker.test.mjs does, on loopback.
import { EXPORTS, RecmemError, RecmemPool, StateError, appendState, checkTag, isBinaryState, messageOf, packState, stateChecksum, stateTag, unpackState } from 'recmem';
import wasm from './plugin.wasm';

// Limits: a request body (as recmem serve); a state document, uncompressed
// (importing takes up to about 76 bytes of instance memory per document
// byte, and an isolate has 128 MB); the instance memory past which an
// instance is replaced after its request (its memory never shrinks).
const MAX_BODY = 8 << 20;
const MAX_STATE = 1 << 20;
const RECYCLE_BYTES = 64 << 20;

// The exports /v1 serves, and those it refuses (as recmem serve).
const SERVED = new Set(['exports', 'record', 'maintain', 'plan', 'apply_ops', 'get_memory', 'rank',
  'add_units', 'delete_units', 'purge', 'select_slate', 'export_state', 'reset']);
const REFUSED = {
  load_catalog: 'the catalog is server configuration (the RECMEM_CATALOG binding), shared by every request',
  import_state: 'the state travels in the request\'s "state" field, with its tag',
};
const FIELDS = new Set(['state', 'tag', 'input', 'format', 'delta']);

export default {
  async fetch(request, env) {
    const m = /^\/v1\/([^/]+)$/.exec(new URL(request.url).pathname);
    if (!m) return fail(404, '', 'not found: use POST /v1/<export>');
    const name = m[1];
    if (request.method !== 'POST') return fail(405, name, 'method not allowed: use POST', { allow: 'POST' });
    let body;
    try {
      body = await readBody(request);
    } catch (err) {
      return fail(err.status ?? 400, name, `body: ${messageOf(err)}`);
    }
    return exclusive(() => serve(env, name, body));
  },
};

// serve is the protocol of docs/http.md, in the order `recmem serve`
// checks it (host/edge.go): the state and its tag, the export, the format;
// then one call on an instance holding the state (a warm one whose tag
// matches, else one that imports it), and the answer: the state whole, a
// delta to append to the request's state, or nothing new.
async function serve(env, name, body) {
  const sealKey = env.RECMEM_SEAL_KEY || undefined;
  let doc = null;
  if (body.state) {
    try {
      doc = await unpackState(body.state, { maxBytes: MAX_STATE });
    } catch (err) {
      return fail(err instanceof StateError && err.tooLarge ? 413 : 400, name, messageOf(err));
    }
    const why = await checkTag(doc, body.tag, { sealKey });
    if (why) return fail(422, name, why);
  } else if (body.tag) {
    return fail(400, name, 'tag: given without a state');
  }
  if (REFUSED[name]) return fail(403, name, `${name} is not served by the stateless API: ${REFUSED[name]}`);
  const x = EXPORTS.find((e) => e.name === name);
  if (!x || !SERVED.has(name)) return fail(404, name, `unknown export ${JSON.stringify(name)}`);
  const binary = doc !== null && isBinaryState(doc);
  const format = body.format || (binary ? 'binary' : 'json');
  if (format !== 'json' && format !== 'binary') return fail(400, name, `format: want "json" or "binary", got ${JSON.stringify(format)}`);
  if (body.delta && format !== 'binary') return fail(400, name, 'delta: only with the binary format ("format": "binary")');
  if (doc !== null && !binary) {
    try {
      doc = new TextDecoder('utf-8', { fatal: true }).decode(doc);
    } catch {
      return fail(400, name, 'state: not UTF-8');
    }
  }

  const tag = (state) => stateTag(state, { sealKey });
  let instances;
  try {
    instances = await pool(env);
  } catch (err) {
    console.error(`recmem: ${messageOf(err)}`);
    return fail(500, name, messageOf(err));
  }
  let rm = null;
  let held = null; // the tag of the state the instance holds after the request
  try {
    rm = await instances.acquire(doc, { tag: body.tag });
    const baseTag = doc === null ? await emptyTag(rm, format, tag) : body.tag;
    const result = await rm.call(name, body.rawInput, { text: true });
    const answer = { state: undefined, delta: undefined, tag: undefined };
    if (!x.mutates && doc !== null && binary === (format === 'binary')) {
      // Nothing changed: the state is the one the request brought.
      answer.tag = body.tag;
      if (!body.delta) answer.state = body.state;
    } else if (body.delta && stateChecksum(doc ?? new Uint8Array(0)) !== '') {
      const piece = await rm.exportState({ format: 'binary', base: doc });
      if (piece.length === 0) {
        answer.tag = body.tag;
      } else if (appendState(doc, piece) === piece) {
        [answer.state, answer.tag] = [await packState(piece), await tag(piece)];
      } else {
        [answer.delta, answer.tag] = [await packState(piece), await tag(appendState(doc, piece))];
      }
    } else {
      const out = await rm.exportState({ format });
      [answer.state, answer.tag] = [await packState(out), await tag(out)];
    }
    held = answer.tag;
    // The fields in the order recmem serve writes them.
    return new Response(`{"result":${result || 'null'}${answer.state ? `,"state":"${answer.state}"` : ''}${answer.delta ? `,"delta":"${answer.delta}"` : ''},"tag":"${answer.tag}","base_tag":${JSON.stringify(doc === null ? 'new' : body.tag)},"changed":${answer.tag !== baseTag}}\n`,
      // x-recmem-warm: whether the request's state was served by a warm
      // instance, without importing it (recmem serve counts them instead).
      { headers: { 'content-type': 'application/json', 'x-recmem-warm': String(rm.warm) } });
  } catch (err) {
    if (err instanceof RecmemError && !err.trapped) return fail(400, name, messageOf(err));
    console.error(`recmem: /v1/${name}: ${messageOf(err)}`);
    return fail(500, name, `the module failed while running ${err.export ?? name} (out of memory, or an internal error); nothing was applied, the instance was discarded, and the request may be retried`);
  } finally {
    // The instance stays warm under the answer's tag; after a failure it
    // holds nothing anyone can name, and is reset before it serves again.
    if (rm) await instances.release(rm, { tag: held });
  }
}

// The isolate's instances: a RecmemPool of RECMEM_WARM instances (default
// 2), each kept warm with the state it served last, keyed by that state's
// tag (the request's, checked against the state, or the seal). Requests run
// one at a time: an isolate runs one request's JavaScript at a time anyway,
// and the warm instances bound its memory (an isolate has 128 MB).
// exclusive runs fn after the requests before it.
let isolatePool = null;
let turn = Promise.resolve();
const empty = {};

function exclusive(fn) {
  const p = turn.then(fn, fn);
  turn = p.catch(() => {});
  return p;
}

async function pool(env) {
  if (!isolatePool) {
    const catalog = env.RECMEM_CATALOG ? new Uint8Array(env.RECMEM_CATALOG) : undefined;
    const size = env.RECMEM_WARM ? Number(env.RECMEM_WARM) : 2;
    if (!Number.isInteger(size) || size < 1) throw new Error(`RECMEM_WARM: want a whole number of instances, at least 1, got ${JSON.stringify(env.RECMEM_WARM)}`);
    isolatePool = await RecmemPool.open({ module: wasm, catalog, size, recycleBytes: RECYCLE_BYTES });
  }
  return isolatePool;
}

// emptyTag is the tag of the empty memory in a format, the base of a
// request without a state ("changed" compares with it); the same for every
// request. rm holds the empty memory.
async function emptyTag(rm, format, tag) {
  empty[format] ??= await tag(await rm.exportState({ format }));
  return empty[format];
}

// readBody reads and decodes the request body: a JSON object of at most
// MAX_BODY bytes with the fields state, tag and input.
async function readBody(request) {
  // Read up to the limit, as recmem serve does: a client that sent a little
  // too much still reads the 413.
  const parts = [];
  let n = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.length;
      if (n > MAX_BODY) {
        await reader.cancel().catch(() => {});
        throw Object.assign(new Error(`more than ${MAX_BODY} bytes`), { status: 413 });
      }
      parts.push(value);
    }
  }
  const bytes = new Uint8Array(n);
  for (let at = 0, k = 0; k < parts.length; at += parts[k++].length) bytes.set(parts[k], at);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes); // a BOM is not JSON
  const body = JSON.parse(text);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not a JSON object');
  for (const k of Object.keys(body)) if (!FIELDS.has(k)) throw new Error(`unknown field ${JSON.stringify(k)}`);
  for (const k of ['state', 'tag', 'format']) {
    if (body[k] !== undefined && typeof body[k] !== 'string') throw new Error(`${k}: a string is required`);
  }
  if (body.delta !== undefined && typeof body.delta !== 'boolean') throw new Error('delta: true or false is required');
  // The module gets the input's own text, as recmem serve passes it: parsed
  // and written again, 1e400 would become null and 2^63 lose its digits.
  body.rawInput = rawMembers(text).input;
  return body;
}

// rawMembers returns the text of each member of a JSON object (the last of
// a name given twice, as JSON.parse keeps), by name. The text must already
// have parsed as an object. Linear in the text.
function rawMembers(text) {
  const out = {};
  let i = text.indexOf('{') + 1;
  const space = () => { while (' \t\n\r'.includes(text[i]) && i < text.length) i++; };
  const string = () => {
    for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
  };
  const value = () => {
    if (text[i] === '"') return string();
    if (text[i] !== '{' && text[i] !== '[') {
      while (i < text.length && !',}] \t\n\r'.includes(text[i])) i++;
      return;
    }
    let depth = 0;
    do {
      const c = text[i];
      if (c === '"') { string(); continue; }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      i++;
    } while (depth > 0);
  };
  for (;;) {
    space();
    if (text[i] !== '"') return out;
    const k = i;
    string();
    const name = JSON.parse(text.slice(k, i));
    space();
    i++; // the colon
    space();
    const v = i;
    value();
    out[name] = text.slice(v, i);
    space();
    if (text[i] === ',') i++;
  }
}

// fail is the body of every non-200 answer, as recmem serve writes it.
function fail(status, name, message, headers = {}) {
  return new Response(`${JSON.stringify({ error: { status, ...(name ? { export: name } : {}), message } })}\n`,
    { status, headers: { 'content-type': 'application/json', ...headers } });
}
