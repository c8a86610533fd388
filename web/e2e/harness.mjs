// harness.mjs: what the page tests share: bin/recmem serve on a free
// loopback port with web/ and the built module, and Debian's chromium with a
// fresh profile (headless, through playwright-core). Not a test file itself
// (node --test runs *.test.mjs).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const chromiumPath = process.env.RECMEM_CHROMIUM || '/usr/bin/chromium';
export const recmem = process.env.RECMEM_BIN || path.join(root, 'bin/recmem');
export const wasm = process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm');
// NOW is the page's clock (?now=) in these tests; T bounds every wait.
export const NOW = 1717236000;
export const T = 30_000;

// openPage starts the server and a browser on a fresh profile, opens the
// page at `${base}${query}` and waits until it is ready. It returns what
// the test needs and close(), which stops both and removes the profile.
// Page errors are collected in pageErrors; viewport is the window's size;
// before(page), when given, is called before the page is opened (to listen
// to its first requests).
export async function openPage({ query = `?now=${NOW}&catalog=demo#recs`, acceptDownloads = false, viewport = { width: 1400, height: 900 }, before } = {}) {
  assert.ok(existsSync(chromiumPath), `${chromiumPath} is missing`);
  assert.ok(existsSync(recmem), `${recmem} is missing: run ./build.sh first`);
  const server = spawn(recmem, ['serve', '--addr', '127.0.0.1:0', '--web', path.join(root, 'web'), '--wasm', wasm], { stdio: ['ignore', 'pipe', 'inherit'] });
  let context;
  let userData;
  const close = async () => {
    await context?.close();
    server.kill('SIGINT');
    await new Promise((r) => { server.once('exit', r); setTimeout(r, 5000); });
    if (userData) rmSync(userData, { recursive: true, force: true });
  };
  try {
    const base = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no URL from recmem serve: ${out}`)), T);
      server.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (m) { clearTimeout(timer); resolve(m[0]); }
      });
    });
    userData = mkdtempSync(path.join(tmpdir(), 'recmem-chromium-'));
    context = await chromium.launchPersistentContext(userData, {
      executablePath: chromiumPath, headless: true, viewport, acceptDownloads,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.setDefaultTimeout(T);
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    before?.(page);
    await page.goto(`${base}${query}`);
    await page.waitForSelector('body[data-ready="true"]');
    return { base, context, page, pageErrors, close };
  } catch (err) {
    await close();
    throw err;
  }
}
