// The Node runner of `recmem bench`: the same paths as the Go host, through
// the JavaScript host (web/recmem.js over @extism/extism), and the Orama
// peer, on the workload file written by Go (pkg/workload/file.go).
//
//   node web/bench/bench.mjs --workload FILE --wasm out/plugin.wasm [--iters N] [--max-ms MS] [--catalog FILE] [--json]
//
// Paths are relative to the current directory, or else to the repository
// root, so it runs from the root and from web/. The catalog is the
// workload's rank.catalog (relative to the repository root) unless --catalog
// is given. Progress goes to stderr when it is a terminal; --json prints one
// JSON object on stdout.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULTS, loadWorkload, runAll } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// find resolves p against the current directory, then the repository root.
function find(p) {
  if (path.isAbsolute(p) || existsSync(p)) return path.resolve(p);
  const r = path.join(root, p);
  return existsSync(r) ? r : path.resolve(p);
}

const usage = 'usage: node web/bench/bench.mjs --workload FILE --wasm FILE [--iters N] [--max-ms MS] [--catalog FILE] [--json]';

async function main() {
  let args;
  try {
    ({ values: args } = parseArgs({
      options: {
        workload: { type: 'string' },
        wasm: { type: 'string' },
        iters: { type: 'string', default: String(DEFAULTS.iters) },
        'max-ms': { type: 'string', default: String(DEFAULTS.maxMs) },
        catalog: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
  const iters = Number(args.iters), maxMs = Number(args['max-ms']);
  if (!args.workload || !args.wasm || !(iters >= 1) || !(maxMs > 0)) {
    console.error(usage);
    return 2;
  }
  const wl = loadWorkload(find(args.workload));
  const bytes = new Uint8Array(readFileSync(find(args.wasm)));
  const catalogPath = args.catalog ? find(args.catalog) : wl.rank?.catalog ? find(wl.rank.catalog) : null;
  const catalog = catalogPath ? new Uint8Array(readFileSync(catalogPath)) : null;
  const tty = process.stderr.isTTY;
  const t0 = performance.now();
  const progress = (step) => {
    if (tty) process.stderr.write(`\r\x1b[K[${((performance.now() - t0) / 1000).toFixed(0)} s] ${step}`);
  };
  const res = await runAll(wl, bytes, catalog, { iters, maxMs, progress });
  if (tty) process.stderr.write('\r\x1b[K');
  res.run_s = Math.round(performance.now() - t0) / 1000;
  for (const [k, msg] of Object.entries(res.errors ?? {})) console.error(`bench: ${k}: ${msg}`);
  if (args.json) {
    console.log(JSON.stringify(res));
    return 0;
  }
  printTable(res);
  return 0;
}

// printTable writes the results as a readable table.
function printTable(r) {
  const f = (x) => (x === null || x === undefined ? '-' : String(x));
  const row = (name, v, unit) => console.log(`${name.padEnd(28)} ${f(v?.median).padStart(10)} ${f(v?.p90).padStart(10)}  ${unit}`);
  console.log(`recmem bench, Node host: node ${r.node}, @extism/extism ${r.extism}, wasm ${r.wasm_bytes} bytes, ${r.run_s} s\n`);
  console.log(`start: compile ${r.compile_ms} ms, instantiate ${r.instantiate_ms} ms, first call ${r.first_call_ms} ms, warm start ${r.warm_start_ms} ms, cold start ${r.cold_start_ms} ms\n`);
  console.log(`${'path'.padEnd(28)} ${'median'.padStart(10)} ${'p90'.padStart(10)}`);
  row('record a signal', r.signal_us, 'µs');
  row('add one unit (500)', r.add_unit_us, 'µs');
  if (r.rank10_ms) row('rank 10 candidates', r.rank10_ms, 'ms');
  for (const n of Object.keys(r.select_ms)) {
    row(`select_slate ${n}`, r.select_ms[n], 'ms');
    row(`orama hybrid + fill ${n}`, r.orama.select_ms[n], `ms (index ${r.orama.index_ms[n]} ms)`);
    row(`export_state ${n}`, r.export_ms[n], `ms (${r.state_bytes[n]} bytes)`);
    row(`import_state ${n}`, r.import_ms[n], 'ms');
  }
  console.log(`\norama ${r.orama.version} ${r.orama.mode} at B=2000: r_slate ${r.orama.r_slate}, r_slate_k2 ${r.orama.r_slate_k2} over ${r.orama.questions} questions`);
}

process.exitCode = await main();
