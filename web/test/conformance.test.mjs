// Conformance in Node: runs every case of testdata/conformance against
// out/plugin.wasm through @extism/extism and demands byte-identical outputs
// with the native and Go-host runs (which check the same "want" bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import createPlugin from '@extism/extism';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Conformance and hostile-input cases share the format.
const caseDirs = ['conformance', 'hostile'];
const wasmPath = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');

// compact removes insignificant whitespace from JSON text without reparsing,
// so numbers and key order stay exactly as written.
export function compact(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') { out += text[++i]; continue; }
      if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') { inString = true; out += ch; continue; }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
    out += ch;
  }
  return out;
}

// skipValue returns the index just past the JSON value starting at i.
function skipValue(t, i) {
  i = skipWs(t, i);
  const ch = t[i];
  if (ch === '"') {
    for (i++; t[i] !== '"'; i++) if (t[i] === '\\') i++;
    return i + 1;
  }
  if (ch === '{' || ch === '[') {
    const close = ch === '{' ? '}' : ']';
    i = skipWs(t, i + 1);
    if (t[i] === close) return i + 1;
    for (;;) {
      if (ch === '{') { i = skipValue(t, i); i = skipWs(t, i) + 1; }
      i = skipWs(t, skipValue(t, i));
      if (t[i] === close) return i + 1;
      i++; // comma
    }
  }
  while (i < t.length && !',}] \n\r\t'.includes(t[i])) i++;
  return i;
}
function skipWs(t, i) {
  while (' \n\r\t'.includes(t[i])) i++;
  return i;
}
// rawFields maps each key of the object at i to the raw text of its value.
function rawFields(t, i) {
  const fields = {};
  i = skipWs(t, i) + 1;
  for (;;) {
    i = skipWs(t, i);
    if (t[i] === '}') return fields;
    const kEnd = skipValue(t, i);
    const key = JSON.parse(t.slice(i, kEnd));
    const vStart = skipWs(t, skipWs(t, kEnd) + 1);
    const vEnd = skipValue(t, vStart);
    fields[key] = t.slice(vStart, vEnd);
    i = skipWs(t, vEnd);
    if (t[i] === ',') i++;
  }
}

// loadCases reads each file as text and keeps each case's raw JSON slices, so
// expectations are compared byte for byte as written, never re-serialised.
function loadCases() {
  const cases = [];
  for (const dir of caseDirs) {
    const casesDir = path.join(root, 'testdata', dir);
    const files = readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort();
    if (files.length === 0) throw new Error(`no case files in ${casesDir}`);
    cases.push(...loadDir(casesDir, dir, files));
  }
  return cases;
}

function loadDir(casesDir, dir, files) {
  const cases = [];
  for (const f of files) {
    const text = readFileSync(path.join(casesDir, f), 'utf8');
    let i = skipWs(text, 0);
    const objs = [];
    if (text[i] === '[') {
      i = skipWs(text, i + 1);
      while (text[i] !== ']') {
        objs.push(rawFields(text, i));
        i = skipWs(text, skipValue(text, i));
        if (text[i] === ',') i = skipWs(text, i + 1);
      }
    } else {
      objs.push(rawFields(text, i));
    }
    for (const o of objs) {
      cases.push({
        file: `${dir}/${f}`,
        name: JSON.parse(o.name),
        export: JSON.parse(o.export),
        state: o.state,
        setup: o.setup ? splitArray(o.setup) : [],
        input: o.input,
        inputB64: o.input_b64 ? JSON.parse(o.input_b64) : undefined,
        llm: o.llm ? JSON.parse(o.llm) : undefined,
        want: o.want,
        wantState: o.want_state,
      });
    }
  }
  return cases;
}
// splitArray returns the raw setup steps as {export, input} with raw input.
function splitArray(t) {
  const steps = [];
  let i = skipWs(t, 1);
  while (t[i] !== ']') {
    const f = rawFields(t, i);
    steps.push({ export: JSON.parse(f.export), input: f.input });
    i = skipWs(t, skipValue(t, i));
    if (t[i] === ',') i = skipWs(t, i + 1);
  }
  return steps;
}

// raw is the input text sent to the plugin: the case's bytes, compacted, or
// empty when absent or null.
const raw = (v) => (v === undefined || v === 'null' ? '' : compact(v));

const cases = loadCases();
const module = await WebAssembly.compile(readFileSync(wasmPath));

// Every host provides llm_complete (docs/llm.md). This one has no model: it
// answers with an error, as the Go host does without --llm, so LLM steps (off
// by default anyway) would fall back to their LLM-free policies.
const functions = {
  'extism:host/user': {
    llm_complete(cp, offset) {
      cp.read(offset);
      return cp.store(JSON.stringify({ text: '', input_tokens: 0, output_tokens: 0, error: 'no LLM configured in this host' }));
    },
  },
};

// scriptedFunctions answers llm_complete from a case's script: the text for
// a scripted purpose, an error for any other (that step falls back).
function scriptedFunctions(script) {
  return {
    'extism:host/user': {
      llm_complete(cp, offset) {
        const req = JSON.parse(cp.read(offset).text());
        const text = script.answers?.[req.purpose];
        let tokens = 0;
        for (const m of req.messages) tokens += Math.floor((Buffer.byteLength(m.content) + 3) / 4);
        const reply = text === undefined
          ? { text: '', input_tokens: 0, output_tokens: 0, error: `no scripted answer for ${req.purpose}` }
          : { text, input_tokens: tokens, output_tokens: Math.floor((Buffer.byteLength(text) + 3) / 4) };
        return cp.store(JSON.stringify(reply));
      },
    },
  };
}

async function newPlugin(script) {
  if (!script) return createPlugin({ wasm: [{ module }] }, { useWasi: true, functions });
  return createPlugin({ wasm: [{ module }] }, { useWasi: true, functions: scriptedFunctions(script), config: { llm_steps: script.steps.join(',') } });
}

async function call(plugin, name, input) {
  try {
    const out = await plugin.call(name, input);
    return { out: out ? out.text() : '' };
  } catch (e) {
    return { err: String(e.message).replace(/^Plugin-originated error: /, '') };
  }
}

test('conformance cases load', () => {
  assert.ok(cases.length > 0, 'zero conformance cases loaded');
});

for (const c of cases) {
  test(`${c.file.replace(/\.json$/, '')}/${c.name}`, async () => {
    const plugin = await newPlugin(c.llm);
    try {
      if (c.state && c.state !== 'null') {
        const r = await call(plugin, 'import_state', raw(c.state));
        assert.equal(r.err, undefined, `import_state: ${r.err}`);
      }
      for (const [i, s] of (c.setup || []).entries()) {
        const r = await call(plugin, s.export, raw(s.input));
        assert.equal(r.err, undefined, `setup[${i}] ${s.export}: ${r.err}`);
      }
      const input = c.inputB64 !== undefined ? new Uint8Array(Buffer.from(c.inputB64, 'base64')) : raw(c.input);
      const r = await call(plugin, c.export, input);
      const w = JSON.parse(c.want);
      const wantsError = w && typeof w === 'object' && !Array.isArray(w) && Object.keys(w).length === 1 && 'error' in w;
      if (wantsError) {
        assert.equal(r.err, w.error);
      } else {
        assert.equal(r.err, undefined, `unexpected error: ${r.err}`);
        assert.equal(r.out, compact(c.want));
      }
      if (c.wantState) {
        const s = await call(plugin, 'export_state', '');
        assert.equal(s.out, compact(c.wantState));
      }
    } finally {
      await plugin.close();
    }
  });
}

