// forge.mjs: the binary states a client can forge from docs/state-binary.md
// alone, every piece's XXH64 recomputed, as the tests of recmem.js and the
// Worker send them (issue 22). The same forgeries as pkg/workload/hostile.go,
// written again from the format (an independent reading of it): the
// checksum guards integrity only, so each passes it; what refuses them is
// the import's limits and budget, and a host's seal.

// XXH64 (seed 0), in BigInt: slow (about 1 MB in a few hundred ms) and
// enough for tests.
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;
const M = (1n << 64n) - 1n;
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
const round = (acc, input) => (rotl((acc + input * P2) & M, 31) * P1) & M;
const merge = (acc, val) => (((acc ^ round(0n, val)) * P1) + P4) & M;

export function xxh64(b) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const len = b.length;
  let i = 0;
  let h;
  if (len >= 32) {
    let v1 = (P1 + P2) & M;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (-P1) & M;
    for (; i + 32 <= len; i += 32) {
      v1 = round(v1, dv.getBigUint64(i, true));
      v2 = round(v2, dv.getBigUint64(i + 8, true));
      v3 = round(v3, dv.getBigUint64(i + 16, true));
      v4 = round(v4, dv.getBigUint64(i + 24, true));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) & M;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(len)) & M;
  for (; i + 8 <= len; i += 8) {
    h ^= round(0n, dv.getBigUint64(i, true));
    h = (rotl(h, 27) * P1 + P4) & M;
  }
  if (i + 4 <= len) {
    h ^= (BigInt(dv.getUint32(i, true)) * P1) & M;
    h = (rotl(h, 23) * P2 + P3) & M;
    i += 4;
  }
  for (; i < len; i++) {
    h ^= (BigInt(b[i]) * P5) & M;
    h = (rotl(h, 11) * P1) & M;
  }
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function uvarint(v) {
  const out = [];
  let x = BigInt(v);
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
  return out;
}

// piece is a binary state piece: its header (kind 'B' a base, 'S' a
// segment), the body and the XXH64 of both.
export function piece(kind, seq, base, body) {
  const b = new Uint8Array(32 + body.length + 8);
  const dv = new DataView(b.buffer);
  b.set([0x52, 0x4d, 0x53, 0x42, 1, kind.charCodeAt(0)]);
  dv.setUint32(8, body.length, true);
  dv.setUint32(12, seq, true);
  dv.setBigUint64(16, base, true);
  dv.setUint32(24, 4, true);
  b.set(body, 32);
  dv.setBigUint64(32 + body.length, xxh64(b.subarray(0, 32 + body.length)), true);
  return b;
}

// section is a body section: its tag, length and content.
export function section(tag, content) {
  const b = new Uint8Array(5 + content.length);
  b[0] = tag.charCodeAt(0);
  new DataView(b.buffer).setUint32(1, content.length, true);
  b.set(content, 5);
  return b;
}

// pieces splits a bare binary state into its pieces by their headers.
export function pieces(state) {
  const out = [];
  for (let at = 0; at < state.length;) {
    const n = 40 + new DataView(state.buffer, state.byteOffset + at + 8, 4).getUint32(0, true);
    out.push(state.subarray(at, at + n));
    at += n;
  }
  return out;
}

function sections(p) {
  const out = [];
  const body = p.subarray(32, p.length - 8);
  for (let at = 0; at + 5 <= body.length;) {
    const n = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0, true);
    out.push([String.fromCharCode(body[at]), body.subarray(at + 5, at + 5 + n)]);
    at += 5 + n;
  }
  return out;
}

const sum = (state) => new DataView(state.buffer, state.byteOffset + state.length - 8, 8).getBigUint64(0, true);

// memoryOf is the memory section (JSON) a state holds last.
export function memoryOf(state) {
  let mem = null;
  for (const p of pieces(state)) for (const [t, c] of sections(p)) if (t === 'M') mem = c;
  return mem;
}

// segment is the segment after state holding body.
export function segment(state, body) {
  const ps = pieces(state);
  const last = ps[ps.length - 1];
  return piece('S', new DataView(last.buffer, last.byteOffset + 12, 4).getUint32(0, true) + 1, sum(state), body);
}

// emptySegments is state followed by n segments that change nothing.
export function emptySegments(state, n) {
  let out = state;
  for (let i = 0; i < n; i++) out = concat(out, segment(out, new Uint8Array(0)));
  return out;
}

// unitSegments is state followed by n segments that each add one unit
// ("x0", "x1", ... in session "x") whose text is the state's token 0.
export function unitSegments(state, n) {
  let out = state;
  for (let i = 0; i < n; i++) {
    const id = new TextEncoder().encode(`x${i}`);
    const u = Uint8Array.from([0, 0, 1, 1, 1, 0x78, 0, 0, 0, 0, 0, 0, ...uvarint(id.length), ...id, 0, 0, 0, 0, 0, 0, 1, 0]);
    out = concat(out, segment(out, section('U', u)));
  }
  return out;
}

// avoidEverything turns every chunk of a memory section into "avoids" at
// strength 1 (issue 22, finding 1).
export function avoidEverything(mem) {
  const m = JSON.parse(new TextDecoder().decode(mem));
  for (const c of m.chunks) Object.assign(c, { polarity: 'avoids', strength: 1 });
  return new TextEncoder().encode(JSON.stringify(m));
}

// unusedVocabulary is a base holding mem and declaring words content words
// no unit uses, seven bytes each (issue 22, finding 3).
export function unusedVocabulary(mem, words) {
  const u = new Uint8Array(1 + uvarint(words).length + 7 * words + 7);
  u.set([0, ...uvarint(words)]);
  let at = 1 + uvarint(words).length;
  for (let i = 0; i < words; i++, at += 7) u.set([1, 0x61, 1 << 4, 0, 0, 0, 1], at);
  return piece('B', 0, 0n, concat(section('M', mem), section('U', u)));
}

// rewriteVectors is a one-piece state with every word's table vector moved
// to the next rank: its texts (its JSON form) unchanged, its analysis forged
// (issue 22, finding 4).
export function rewriteVectors(state) {
  const [p] = pieces(state);
  const out = [];
  for (const [t, c] of sections(p)) out.push(section(t, t === 'U' ? rewriteSources(c) : c));
  return piece('B', 0, 0n, concat(...out));
}

function rewriteSources(u) {
  let at = 0;
  const uv = () => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const c = u[at++];
      v |= BigInt(c & 0x7f) << shift;
      if (c < 0x80) return v;
      shift += 7n;
    }
  };
  const skip = () => { const n = Number(uv()); at += n; };
  const out = [];
  const copy = (from) => out.push(...u.subarray(from, at));
  uv(); // nothing removed
  const nt = Number(uv());
  copy(0);
  for (let i = 0; i < nt; i++) {
    const start = at;
    skip();
    const w = uv() >> 4n;
    if (w === 1n || w === 2n) {
      if (w === 2n) skip();
      if (uv() === 0n) {
        uv();
        skip();
      }
      copy(start);
      const vs = at;
      const vc = uv();
      if (vc === 0n) {
        const d = Number(uv());
        for (let j = 0; j < d; j++) uv(); // its counts, copied as they are
        out.push(...u.subarray(vs, at));
      } else {
        const r = (vc - 1n) / 2n;
        const rank = r === 0n ? 1n : r - 1n; // another word of the table
        out.push(...uvarint(1n + 2n * rank + (vc % 2n === 0n ? 1n : 0n)));
      }
      continue;
    }
    copy(start);
  }
  out.push(...u.subarray(at));
  return Uint8Array.from(out);
}

// unusedVocabularySegment is the segment after state declaring words
// content words no unit uses, seven bytes each: a small delta that unfolds
// into a large vocabulary (issue 22: a 6 kB segment took workerd from 153
// to 290 MB).
export function unusedVocabularySegment(state, words) {
  const head = [0, ...uvarint(words)];
  const u = new Uint8Array(head.length + 7 * words + 7);
  u.set(head);
  for (let i = 0, at = head.length; i < words; i++, at += 7) u.set([1, 0x61, 1 << 4, 0, 0, 0, 1], at);
  return segment(state, section('U', u));
}

// largestAdmitted is a state of short chat turns in form ("json" or
// "binary") as large as a request under 100 kB may bring to a server that
// unpacks at most 6 bytes a byte of gzip, or 256 KiB: the most such a
// request can ask once admitted (the turns as host/edge_hostile_test.go's).
// open opens a Recmem; pack is packState.
export async function largestAdmitted(open, pack, form) {
  const says = ['ok', 'sure, at six', 'the kiln again?', 'see you Tuesday', 'fine by me'];
  let best = null;
  for (let n = 1000; ; n += 1000) {
    const rm = await open();
    const units = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, session: `s${Math.floor(i / 40)}`, speaker: ['Ann', 'Ben'][i % 2], text: `${says[i % 5]} ${i % 97}` }));
    await rm.addUnits(units);
    const doc = form === 'binary' ? await rm.exportState({ format: 'binary' }) : new TextEncoder().encode(await rm.exportState());
    await rm.close();
    const packed = Math.floor((await pack(doc)).length * 3 / 4);
    if (doc.length > Math.max(256 << 10, 6 * packed) || packed > 70000) return best;
    best = doc;
  }
}
