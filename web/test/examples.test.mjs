// The documented examples (docs/js.md, docs/http.md) run as they are written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const run = promisify(execFile);
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const wasm = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');

test('examples/node.mjs', async () => {
  const { stdout } = await run(process.execPath, ['--no-warnings', 'examples/node.mjs', wasm], { cwd: web });
  assert.equal(stdout, 'maintenance: maintain\nc1 0.9 Prefers Xbox One\nrestored: true\n'
    + 'a delta of 148 bytes; binary restored: true\n'
    + 'warm: false Ann: I finished Halo 5 last night.\nwarm: true Ann: I finished Halo 5 last night.\n');
});

test('examples/http.mjs against recmem serve', async () => {
  const recmem = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
  const server = spawn(recmem, ['serve', '--addr', '127.0.0.1:0', '--wasm', wasm, '--web', web], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no URL from recmem serve: ${out}`)), 20000);
      server.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+/);
        if (m) { clearTimeout(timer); resolve(m[0]); }
      });
      server.on('exit', (code) => reject(new Error(`recmem serve exited ${code}`)));
    });
    const { stdout } = await run(process.execPath, ['examples/http.mjs', url], { cwd: web });
    assert.equal(stdout, 'c1 0.9 Prefers Xbox One\n400: apply_ops: input.ops[0].chunk: unknown chunk "c9"\n');
  } finally {
    server.kill('SIGINT');
  }
});
