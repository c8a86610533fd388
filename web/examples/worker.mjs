// A Worker (Cloudflare Workers, workerd) serving recmem's stateless HTTP API,
// the same API as `recmem serve` (docs/http.md): POST /v1/<export> with
// {"state", "tag", "input", "format", "delta"} runs one export on the memory
// the request carries and answers {"result", "state" or "delta", "tag",
// "base_tag", "changed"}; the state is a JSON document or a binary state
// (docs/state-binary.md), and with "delta" the answer carries only what
// changed. The client holds the memory: the Worker keeps a few instances
// warm with the states they served last, keyed by tag, so that a request
// whose state has the tag of one skips the import, but a warm instance is a
// cache, never the authority (a tag covers the whole state). With
// RECMEM_BASE_TAG, a request may name its state by that tag ("base_tag",
// and a "delta" segment to append) instead of sending it, as with
// `recmem serve --base-tag`: answered from the warm instance holding it,
// else 409.
//
// The module comes as a Wasm module binding: workerd and Cloudflare compile
// it when the Worker is deployed, and a Worker may not compile Wasm from
// bytes ("Wasm code generation disallowed by embedder"). Bindings (all
// optional): RECMEM_CATALOG, the catalog rank uses (bytes, server
// configuration like `recmem serve --catalog`); RECMEM_SEAL_KEY, a secret of
// at least 32 bytes that seals the states handed out (`--seal-key-file`);
// RECMEM_WARM, how many instances the isolate keeps (default 2);
// RECMEM_BASE_TAG, "1" or "true" to serve a state by its tag ("base_tag",
// off by default: a tag then reads and changes its memory like a bearer
// token, docs/http.md); RECMEM_MAX_EXPANSION, the most bytes a request's
// packed state or delta may unpack to per byte of its gzip (default 6, as
// `recmem serve --max-expansion`; -1: no bound but MAX_STATE).
//
// What bounds a request here: the state it may unpack to (MAX_STATE, and
// RECMEM_MAX_EXPANSION times its packed size), and the module's own limits
// on what a state may declare (16 segments, a memory budget checked before
// anything is allocated; docs/limits.md), all decided before the work; and
// RECMEM_HOLD_MS (default 10,000), the longest a request may hold an
// instance: a call past it is cut off at the module's next clock reading,
// the instance discarded, and the answer 504. workerd's clock runs during
// a call; Cloudflare's hosted runtime advances it only between I/O (its
// Spectre mitigation), where the limits decided before the work are what
// bound a call.
//
// Run it: npx workerd serve examples/worker.capnp (from web/, after
// ./build.sh); web/test/worker.test.mjs does, on loopback.
import { EXPORTS, PoolTimeoutError, RecmemError, RecmemPool, StateError, appendState, checkTag, isBinaryState, messageOf, packState, stateChecksum, unpackState } from 'recmem';
import wasm from './plugin.wasm';

// Limits: a request body (as recmem serve); a state document, uncompressed
// (importing takes up to about 76 bytes of instance memory per document
// byte, and an isolate has 128 MB); the instance memory past which an
// instance is replaced after its request (its memory never shrinks).
const MAX_BODY = 8 << 20;
const MAX_STATE = 1 << 20;
const RECYCLE_BYTES = 64 << 20;
const HOLD_MS = 10000; // the default of RECMEM_HOLD_MS

// The exports /v1 serves, and those it refuses (as recmem serve).
const SERVED = new Set(['exports', 'record', 'maintain', 'plan', 'apply_ops', 'get_memory', 'rank',
  'add_units', 'delete_units', 'purge', 'select_slate', 'export_state', 'reset']);
const REFUSED = {
  load_catalog: 'the catalog is server configuration (the RECMEM_CATALOG binding), shared by every request',
  import_state: 'the state travels in the request\'s "state" field, with its tag',
};
const FIELDS = new Set(['state', 'tag', 'base_tag', 'input', 'format', 'delta']);
const RESEND = 'send the whole state in "state" with its "tag"';

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
    // A state named by its tag is served by one request at a time: a
    // request on a tag another one (queued or running) has claimed gets
    // 409, as recmem serve answers while the instance holding it is taken.
    // (A read by tag that leaves the state as it was runs without yielding
    // the isolate, so reads on one tag meet only behind a request that
    // yields; a change moves the state to a new tag anyway.)
    const claim = body.base_tag && !claimed.has(body.base_tag) ? body.base_tag : '';
    const busy = Boolean(body.base_tag) && !claim;
    if (claim) claimed.add(claim);
    try {
      return await exclusive(() => serve(env, name, body, busy));
    } finally {
      if (claim) claimed.delete(claim);
    }
  },
};

// serve is the protocol of docs/http.md, in the order `recmem serve`
// checks it (host/edge.go): the state and its tag, the export, the format;
// then one call on an instance holding the state (a warm one whose tag
// matches, else one that imports it), and the answer: the state whole, a
// delta to append to the request's state, or nothing new.
//
// A request with base_tag starts from the warm instance holding that state
// and the state's bytes kept with it (RecmemPool.takeWarm), with the
// request's delta segment imported after them; the answer is then as with
// "delta": true. busy: another request holds that tag now.
async function serve(env, name, body, busy = false) {
  const sealKey = env.RECMEM_SEAL_KEY || undefined;
  let doc = null;
  if (body.base_tag && (body.state || body.tag)) {
    return fail(400, name, 'base_tag: send either the state with its tag ("state", "tag") or the tag of a state this server answered with ("base_tag", and a "delta" to append), not both');
  }
  if (!body.base_tag && body.segment) {
    return fail(400, name, 'delta: a segment to append needs "base_tag", the tag of the state it appends to (or send the whole state in "state")');
  }
  let maxExpansion;
  let instances;
  let byTag;
  try {
    maxExpansion = expansionOf(env);
  } catch (err) {
    console.error(`recmem: ${messageOf(err)}`);
    return fail(500, name, messageOf(err));
  }
  if (body.state) {
    try {
      doc = await unpackState(body.state, { maxBytes: MAX_STATE, maxExpansion });
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
  try {
    instances = await pool(env);
    byTag = baseTagOn(env);
  } catch (err) {
    console.error(`recmem: ${messageOf(err)}`);
    return fail(500, name, messageOf(err));
  }
  // A state's tag, as the pool keys it: its seal with a seal key, else its
  // SHA-256.
  const tag = (state) => instances.tag(state);
  let rm = null;
  // base: with a delta by tag, the state of base_tag, imported again into
  // the instance when the module refuses the call (it stays warm, as it was).
  let base = null;
  try {
    let startTag = body.tag; // the tag of the state the request starts from
    if (body.base_tag) {
      if (!byTag) return fail(409, name, `base_tag: this server does not serve a state by its tag (the RECMEM_BASE_TAG binding); ${RESEND}`);
      const warm = busy ? null : instances.takeWarm(body.base_tag);
      if (!warm) return fail(409, name, `base_tag: this server holds no state ${body.base_tag} (it keeps a few states for a while, as a cache, and may have dropped this one or never held it); ${RESEND}`);
      [rm, doc, startTag] = [warm.rm, warm.state, body.base_tag];
      if (body.segment) {
        const got = await appendSegment(rm, doc, body.segment, { sealKey, maxExpansion });
        if (got.status) return fail(got.status, name, got.message);
        base = doc;
        doc = got.state;
        startTag = await tag(doc);
      }
    }
    const binary = doc !== null && isBinaryState(doc);
    const format = body.format || (binary ? 'binary' : 'json');
    if (format !== 'json' && format !== 'binary') return fail(400, name, `format: want "json" or "binary", got ${JSON.stringify(format)}`);
    // The client holds the state it named: answer with what changed, when the state stays binary.
    if (body.base_tag) body.want = format === 'binary' && binary;
    if (body.want && format !== 'binary') return fail(400, name, 'delta: only with the binary format ("format": "binary")');
    if (doc !== null && !binary && typeof doc !== 'string') {
      try {
        doc = new TextDecoder('utf-8', { fatal: true }).decode(doc);
      } catch {
        return fail(400, name, 'state: not UTF-8');
      }
    }

    // The pool checks the request's tag against the state again, and keys
    // the instance by the bytes alone.
    rm ??= await instances.acquire(doc, { tag: body.tag });
    const baseTag = doc === null ? await emptyTag(rm, format, tag) : startTag;
    let result;
    try {
      result = await rm.call(name, body.rawInput, { text: true });
    } catch (err) {
      // Refused: the memory is as it was, and the state of base_tag, before
      // the delta, is imported again to stay warm as it was.
      if (base !== null && err instanceof RecmemError && !err.trapped) {
        await rm.importOpened(base, { trusted: Boolean(sealKey) }).catch(() => {});
      }
      throw err;
    }
    const answer = { state: undefined, delta: undefined, tag: undefined };
    if (!x.mutates && doc !== null && binary === (format === 'binary')) {
      // Nothing changed: the state is the one the request brought.
      answer.tag = startTag;
      if (!body.want) answer.state = body.state;
    } else if (body.want && stateChecksum(doc ?? new Uint8Array(0)) !== '') {
      const piece = await rm.exportState({ format: 'binary', base: doc });
      if (piece.length === 0) {
        answer.tag = startTag;
      } else if (appendState(doc, piece) === piece) {
        [answer.state, answer.tag] = [await packState(piece), await tag(piece)];
      } else {
        // The bytes the client holds after the answer, as the instance
        // holds them (their tag is computed once).
        const after = rm.heldState() ?? appendState(doc, piece);
        [answer.delta, answer.tag] = [await packState(piece), await tag(after)];
      }
    } else {
      const after = await rm.exportState({ format });
      [answer.state, answer.tag] = [await packState(after), await tag(rm.heldState() ?? after)];
    }
    // The fields in the order recmem serve writes them.
    return new Response(`{"result":${result || 'null'}${answer.state ? `,"state":"${answer.state}"` : ''}${answer.delta ? `,"delta":"${answer.delta}"` : ''},"tag":"${answer.tag}","base_tag":${JSON.stringify(doc === null ? 'new' : startTag)},"changed":${answer.tag !== baseTag}}\n`,
      // x-recmem-warm: whether the request's state was served by a warm
      // instance, without importing it (recmem serve counts them instead).
      { headers: { 'content-type': 'application/json', 'x-recmem-warm': String(rm.warm) } });
  } catch (err) {
    if (err instanceof PoolTimeoutError || err?.timedOut) return fail(504, name, 'timed out');
    if (err instanceof RecmemError && !err.trapped) return fail(400, name, messageOf(err));
    console.error(`recmem: /v1/${name}: ${messageOf(err)}`);
    return fail(500, name, `the module failed while running ${err.export ?? name} (out of memory, or an internal error); nothing was applied, the instance was discarded, and the request may be retried`);
  } finally {
    // The instance stays warm under the tag of the state whose import gives
    // exactly its state (the pool computes it from the bytes), with those
    // bytes when requests may name it by tag; with none, it is reset before
    // it serves again.
    if (rm) await instances.release(rm, { state: byTag ? rm.heldState() : null });
  }
}

// appendSegment imports held (the bytes of the state the warm instance rm
// holds) and the client's segment, packed like a state, into rm. It returns
// {state}, the two together, or the refusal {status, message}, as recmem
// serve words it: a refused segment leaves rm holding held (the module
// refuses a state whole). With a seal key the segment must carry this
// Worker's seal (a seal line, then the piece): a sealed server seals only
// what it computed from states it sealed.
async function appendSegment(rm, held, packed, { sealKey, maxExpansion }) {
  let seg;
  try {
    seg = await unpackState(packed, { maxBytes: MAX_STATE, maxExpansion });
  } catch (err) {
    return { status: err instanceof StateError && err.tooLarge ? 413 : 400, message: `delta: ${messageOf(err).replace(/^state: /, '')}` };
  }
  if (!isBinaryState(held)) return { status: 400, message: 'delta: appends to a binary state, and the state of base_tag is a JSON document' };
  if (sealKey) {
    const nl = seg.indexOf(0x0a);
    const line = nl < 0 ? '' : new TextDecoder().decode(seg.subarray(0, nl));
    if (!line.startsWith('hmac-sha256:')) {
      return { status: 422, message: 'delta: this server seals its states, and a segment it did not seal is refused: send the change as the export\'s input (the answer\'s "delta" is then the server\'s), or the whole state with its tag' };
    }
    seg = seg.subarray(nl + 1);
    if (await checkTag(seg, line, { sealKey })) return { status: 422, message: 'delta: does not match its seal (changed after it was sealed, or sealed with another key)' };
  }
  if (!isBinaryState(seg) || seg.length < 6 || seg[5] !== 0x53 /* 'S', a segment */) {
    return { status: 400, message: 'delta: not a segment of a binary state (a whole state goes in "state", with its "tag")' };
  }
  if (held.length + seg.length > MAX_STATE) {
    return { status: 413, message: `delta: the state and its delta pass ${MAX_STATE >> 20} MiB, the most this Worker imports into one instance; nothing was imported` };
  }
  const state = appendState(held, seg);
  try {
    await rm.importOpened(state, { trusted: Boolean(sealKey) });
  } catch (err) {
    if (err instanceof RecmemError && !err.trapped) return { status: 400, message: `delta: ${messageOf(err)}` };
    if (err?.timedOut) return { status: 504, message: 'timed out' };
    console.error(`recmem: base_tag: ${messageOf(err)}`);
    return { status: 500, message: 'delta: the module failed while importing the state and its delta; nothing was applied, and the request may be retried' };
  }
  return { state };
}

// expansionOf reads RECMEM_MAX_EXPANSION: the most bytes a packed state or
// delta may unpack to per byte of its gzip (default 6; -1: no bound).
function expansionOf(env) {
  const v = env.RECMEM_MAX_EXPANSION;
  if (v === undefined || v === null || v === '') return 6;
  const n = Number(v);
  if (!Number.isInteger(n) || (n < 1 && n !== -1)) throw new Error(`RECMEM_MAX_EXPANSION: want a whole number of bytes a byte, at least 1, or -1 for no bound, got ${JSON.stringify(v)}`);
  return n;
}

// baseTagOn reads RECMEM_BASE_TAG: whether a request may name its state by
// tag (off unless "1" or "true").
function baseTagOn(env) {
  const v = env.RECMEM_BASE_TAG;
  if (v === undefined || v === null || v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new Error(`RECMEM_BASE_TAG: want "1" or "true" (on), "0" or "false" (off), got ${JSON.stringify(v)}`);
}

// The isolate's instances: a RecmemPool of RECMEM_WARM instances (default
// 2), each kept warm with the state it served last, keyed by that state's
// tag (the request's, checked against the state, or the seal). Requests run
// one at a time: an isolate runs one request's JavaScript at a time anyway,
// and the warm instances bound its memory (an isolate has 128 MB).
// exclusive runs fn after the requests before it.
// claimed are the tags named by a request queued or running ("base_tag").
let isolatePool = null;
let turn = Promise.resolve();
const claimed = new Set();
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
    // Tags are the seals of the states with a seal key, so that a state
    // acquired with its seal, checked, counts as one this Worker wrote.
    const holdMs = env.RECMEM_HOLD_MS ? Number(env.RECMEM_HOLD_MS) : HOLD_MS;
    if (!(holdMs > 0)) throw new Error(`RECMEM_HOLD_MS: want a number of milliseconds above 0, got ${JSON.stringify(env.RECMEM_HOLD_MS)}`);
    isolatePool = await RecmemPool.open({ module: wasm, catalog, size, recycleBytes: RECYCLE_BYTES, holdMs, tagKey: env.RECMEM_SEAL_KEY || undefined });
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
// MAX_BODY bytes with the fields state, tag, base_tag, input, format and
// delta. delta is true, false (or null), or a segment to append (a packed
// non-empty string): body.want tells whether the answer is to be a delta,
// body.segment is the segment ('' for none).
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
  for (const k of ['state', 'tag', 'base_tag', 'format']) {
    if (body[k] !== undefined && typeof body[k] !== 'string') throw new Error(`${k}: a string is required`);
  }
  const d = body.delta ?? false;
  if (typeof d !== 'boolean' && (typeof d !== 'string' || d === '')) {
    throw new Error('delta: want true, false, or a segment to append (a non-empty string, gzipped and base64-encoded)');
  }
  body.want = d !== false;
  body.segment = typeof d === 'string' ? d : '';
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
