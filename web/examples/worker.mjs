// A Worker (Cloudflare Workers, workerd) serving recmem's stateless HTTP API,
// the same API as `recmem serve` (docs/http.md): POST /v1/<export> with
// {"state", "tag", "input"} runs one export on the memory the request
// carries and answers {"result", "state", "tag", "base_tag", "changed"}. The
// Worker keeps no memory between requests: the client holds it.
//
// The module comes as a Wasm module binding: workerd and Cloudflare compile
// it when the Worker is deployed, and a Worker may not compile Wasm from
// bytes ("Wasm code generation disallowed by embedder"). Bindings (all
// optional): RECMEM_CATALOG, the catalog rank uses (bytes, server
// configuration like `recmem serve --catalog`); RECMEM_SEAL_KEY, a secret of
// at least 32 bytes that seals the states handed out (`--seal-key-file`).
//
// Run it: npx workerd serve examples/worker.capnp (from web/, after
// ./build.sh); web/test/worker.test.mjs does, on loopback.
import { Recmem, RecmemError, StateError, messageOf, packState, stateTag, unpackState } from 'recmem';
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
const FIELDS = new Set(['state', 'tag', 'input']);

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
    let doc = null;
    if (body.state) {
      try {
        doc = await unpackState(body.state, { maxBytes: MAX_STATE });
      } catch (err) {
        return fail(err instanceof StateError && err.tooLarge ? 413 : 400, name, messageOf(err));
      }
      if (!env.RECMEM_SEAL_KEY && body.tag !== await stateTag(doc)) {
        return fail(422, name, 'tag: does not match the state (damaged, or not the state this tag was issued with)');
      }
      if (env.RECMEM_SEAL_KEY && !/^hmac-sha256:[0-9a-f]{64}$/.test(body.tag ?? '')) {
        return fail(422, name, 'tag: this server seals its states (hmac-sha256:...); a state without the seal it was given is refused');
      }
    } else if (body.tag) {
      return fail(400, name, 'tag: given without a state');
    }
    if (REFUSED[name]) return fail(403, name, `${name} is not served by the stateless API: ${REFUSED[name]}`);
    if (!SERVED.has(name)) return fail(404, name, `unknown export ${JSON.stringify(name)}`);
    return exclusive(() => serve(env, name, body, doc));
  },
};

// serve runs the export on the instance, between importing the request's
// state (or starting an empty memory) and exporting the new one.
async function serve(env, name, body, doc) {
  const sealed = Boolean(env.RECMEM_SEAL_KEY);
  let rm = null;
  try {
    rm = await instance(env);
    let baseTag;
    if (doc) {
      let text;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(doc);
      } catch {
        return fail(400, name, 'state: not UTF-8');
      }
      try {
        await rm.importState(sealed ? `${body.tag}\n${text}` : text);
      } catch (err) {
        if (!err.trapped && messageOf(err).startsWith('seal: ')) {
          return fail(422, name, 'tag: does not match the state\'s seal (changed after it was sealed, or sealed with another key)');
        }
        throw err;
      }
      baseTag = body.tag;
    } else {
      baseTag = await emptyTag(rm, sealed);
    }
    const result = await rm.call(name, body.rawInput, { text: true });
    const { doc: out, tag } = await split(await rm.exportState(), sealed);
    const state = await packState(out);
    return new Response(`{"result":${result || 'null'},"state":"${state}","tag":"${tag}","base_tag":${JSON.stringify(body.state ? body.tag : 'new')},"changed":${tag !== baseTag}}\n`,
      { headers: { 'content-type': 'application/json' } });
  } catch (err) {
    if (err instanceof RecmemError && !err.trapped) return fail(400, name, messageOf(err));
    console.error(`recmem: /v1/${name}: ${messageOf(err)}`);
    return fail(500, name, `the module failed while running ${err.export ?? name} (out of memory, or an internal error); nothing was applied, the instance was discarded, and the request may be retried`);
  } finally {
    if (rm) await release(rm);
  }
}

// One instance per isolate, serving one request at a time: an isolate runs
// one request's JavaScript at a time anyway, and one instance bounds its
// memory. exclusive runs fn after the requests before it.
let current = null;
let turn = Promise.resolve();
let empty = null;

function exclusive(fn) {
  const p = turn.then(fn, fn);
  turn = p.catch(() => {});
  return p;
}

async function instance(env) {
  if (!current) {
    const catalog = env.RECMEM_CATALOG ? new Uint8Array(env.RECMEM_CATALOG) : undefined;
    current = await Recmem.open({ module: wasm, catalog, sealKey: env.RECMEM_SEAL_KEY || undefined });
  }
  return current;
}

// release resets the instance, so that nothing of a request outlives it,
// and replaces an instance that trapped or grew past RECYCLE_BYTES.
async function release(rm) {
  if (!rm.trap && rm.memoryBytes() <= RECYCLE_BYTES) {
    try {
      await rm.reset();
      return;
    } catch { /* replaced below */ }
  }
  current = null;
  await rm.close().catch(() => {});
}

// emptyTag is the tag of the empty memory, the base of a request without a
// state ("changed" compares with it); the same for every request.
async function emptyTag(rm, sealed) {
  empty ??= (await split(await rm.exportState(), sealed)).tag;
  return empty;
}

// split separates an exported state into the document and its tag: the
// seal line when the instance seals ("hmac-sha256:<hex>" before the
// document), else the document's hash.
async function split(text, sealed) {
  if (!sealed) return { doc: text, tag: await stateTag(text) };
  const nl = text.indexOf('\n');
  return { doc: text.slice(nl + 1), tag: text.slice(0, nl) };
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
  for (const k of ['state', 'tag']) {
    if (body[k] !== undefined && typeof body[k] !== 'string') throw new Error(`${k}: a string is required`);
  }
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
