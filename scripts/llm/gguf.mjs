#!/usr/bin/env node
// gguf.mjs: read a GGUF file's header (its key-value metadata) without
// loading the model, to state a model's provenance: its name, license,
// size, base model and whether it is instruction-tuned (docs/llm.md,
// "Models").
//
//   node scripts/llm/gguf.mjs FILE.gguf [--all]
//
// Prints one JSON object: the general.* keys, the architecture, the
// parameter count if the header states one, whether a chat template is
// present, and the file's SHA-256. Arrays (the tokenizer's vocabulary) are
// summarized by their length; --all prints every other scalar key too.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const types = { 0: 'u8', 1: 'i8', 2: 'u16', 3: 'i16', 4: 'u32', 5: 'i32', 6: 'f32', 7: 'bool', 8: 'string', 9: 'array', 10: 'u64', 11: 'i64', 12: 'f64' };

/** A reader over a file that fetches bytes on demand, in 1 MiB blocks. */
class Reader {
  constructor(fd) {
    this.fd = fd;
    this.pos = 0;
    this.buf = Buffer.alloc(0);
    this.base = 0;
  }

  need(n) {
    if (this.pos + n <= this.base + this.buf.length) return;
    const size = Math.max(n, 1 << 20);
    const b = Buffer.alloc(size);
    const got = fs.readSync(this.fd, b, 0, size, this.pos);
    if (got < n) throw new Error(`gguf: the file ends inside its header (at byte ${this.pos})`);
    this.buf = b.subarray(0, got);
    this.base = this.pos;
  }

  take(n) {
    this.need(n);
    const off = this.pos - this.base;
    this.pos += n;
    return this.buf.subarray(off, off + n);
  }

  u32() { return this.take(4).readUInt32LE(0); }
  u64() { return Number(this.take(8).readBigUInt64LE(0)); }

  string() {
    const n = this.u64();
    if (n > 64 << 20) throw new Error(`gguf: a string of ${n} bytes at byte ${this.pos}: not a GGUF header`);
    return this.take(n).toString('utf8');
  }

  value(type) {
    switch (types[type]) {
      case 'u8': return this.take(1).readUInt8(0);
      case 'i8': return this.take(1).readInt8(0);
      case 'u16': return this.take(2).readUInt16LE(0);
      case 'i16': return this.take(2).readInt16LE(0);
      case 'u32': return this.u32();
      case 'i32': return this.take(4).readInt32LE(0);
      case 'f32': return this.take(4).readFloatLE(0);
      case 'bool': return this.take(1).readUInt8(0) !== 0;
      case 'string': return this.string();
      case 'u64': return this.u64();
      case 'i64': return Number(this.take(8).readBigInt64LE(0));
      case 'f64': return this.take(8).readDoubleLE(0);
      case 'array': {
        const t = this.u32();
        const n = this.u64();
        const first = [];
        for (let i = 0; i < n; i++) {
          const v = this.value(t);
          if (i < 3) first.push(v);
        }
        return { array: types[t], length: n, first };
      }
      default: throw new Error(`gguf: unknown value type ${type} at byte ${this.pos}`);
    }
  }
}

/** readHeader returns a GGUF file's version, tensor count and metadata. */
export function readHeader(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const r = new Reader(fd);
    if (r.take(4).toString('latin1') !== 'GGUF') throw new Error(`gguf: ${file} does not start with the GGUF magic`);
    const version = r.u32();
    const tensors = r.u64();
    const n = r.u64();
    const kv = {};
    for (let i = 0; i < n; i++) {
      const key = r.string();
      kv[key] = r.value(r.u32());
    }
    return { version, tensors, kv };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * provenance summarizes a header: what a model card would say of it.
 * instruction_tuned is what the header says: "yes" when its name or
 * fine-tune label says so (Instruct, -it, Chat); "no" when neither the name
 * says so nor a chat template is present (a pretrained checkpoint such as
 * gemma-3-270m); "not stated" when a chat template is present but the name
 * does not say (SmolLM2-135M-Instruct's header names only its fine-tune
 * mix): the package's own name then decides.
 */
export function provenance({ kv }) {
  const g = (k) => kv[`general.${k}`];
  const arch = g('architecture');
  const label = [g('name'), g('finetune'), g('basename'), g('size_label')].filter(Boolean).join(' ');
  const named = /\b(instruct|it|chat)\b/i.test(label.replaceAll('-', ' ').replaceAll('_', ' '));
  const template = typeof kv['tokenizer.chat_template'] === 'string';
  return {
    name: g('name') ?? null,
    basename: g('basename') ?? null,
    finetune: g('finetune') ?? null,
    size_label: g('size_label') ?? null,
    license: g('license') ?? null,
    license_link: g('license.link') ?? null,
    organization: g('organization') ?? null,
    base_model: g('base_model.0.name') ?? null,
    base_model_repo: g('base_model.0.repo_url') ?? null,
    architecture: arch ?? null,
    context_length: arch ? kv[`${arch}.context_length`] ?? null : null,
    file_type: g('file_type') ?? null,
    quantization_version: g('quantization_version') ?? null,
    chat_template: template,
    instruction_tuned: named ? 'yes' : template ? 'not stated' : 'no',
  };
}

async function sha256(file) {
  const h = createHash('sha256');
  for await (const b of fs.createReadStream(file, { highWaterMark: 1 << 20 })) h.update(b);
  return h.digest('hex');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file || process.argv.length > 4 || (process.argv[3] && process.argv[3] !== '--all')) {
    console.error('usage: node scripts/llm/gguf.mjs FILE.gguf [--all]');
    process.exit(2);
  }
  try {
    const h = readHeader(file);
    const out = { file: file.split('/').at(-1), bytes: fs.statSync(file).size, sha256: await sha256(file), gguf_version: h.version, tensors: h.tensors, ...provenance(h) };
    if (process.argv[3] === '--all') {
      out.keys = Object.fromEntries(Object.entries(h.kv).map(([k, v]) => [k, typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v]));
    }
    console.log(JSON.stringify(out, null, 2));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
