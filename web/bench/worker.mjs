// The Worker `recmem bench` times in workerd (host/bench/workerd.go): one
// stateless request as an edge deployment would make it, the memory in and
// out, with three calls between. POST / with
//
//   {"state", "tag", "format", "delta", "record": <record input>, "rank": <rank input>, "select": <select_slate input>}
//
// unpacks the state (base64, gunzip), checks its tag (SHA-256), gets an
// instance holding it (a warm one whose tag matches, else one that imports
// it), records, ranks, selects a slate, exports the new state (in format,
// "json" by default or "binary"; with delta, binary only, only what changed),
// tags and packs it, and answers {"record", "rank", "select_slate", "state"
// or "delta", "tag", "warm"}. The instance then stays warm under the new
// state's tag, as examples/worker.mjs keeps it. The module is a Wasm module
// binding, the catalog (RECMEM_CATALOG) a data binding. Two instances per
// isolate; the bench sends one request at a time.
import { RecmemPool, appendState, isBinaryState, messageOf, packState, stateTag, unpackState } from 'recmem';
import wasm from './plugin.wasm';

let pool = null;

export default {
  async fetch(request, env) {
    let rm = null;
    let held = null;
    try {
      pool ??= await RecmemPool.open({ module: wasm, catalog: new Uint8Array(env.RECMEM_CATALOG), size: 2 });
      const body = await request.json();
      const bytes = await unpackState(body.state, { maxBytes: 64 << 20 });
      if (await stateTag(bytes) !== body.tag) return new Response('tag: does not match the state', { status: 422 });
      const doc = isBinaryState(bytes) ? bytes : new TextDecoder().decode(bytes);
      rm = await pool.acquire(doc, { tag: body.tag });
      const record = await rm.call('record', JSON.stringify(body.record), { text: true });
      const rank = await rm.call('rank', JSON.stringify(body.rank), { text: true });
      const slate = await rm.call('select_slate', JSON.stringify(body.select), { text: true });
      let out;
      if (body.delta) {
        const piece = await rm.exportState({ format: 'binary', base: bytes });
        const next = appendState(bytes, piece);
        [held, out] = [await stateTag(next), next === piece ? `"state":"${await packState(piece)}"` : `"delta":"${await packState(piece)}"`];
      } else {
        const state = await rm.exportState({ format: body.format ?? 'json' });
        [held, out] = [await stateTag(state), `"state":"${await packState(state)}"`];
      }
      return new Response(`{"record":${record},"rank":${rank},"select_slate":${slate},${out},"tag":"${held}","warm":${rm.warm}}`,
        { headers: { 'content-type': 'application/json' } });
    } catch (err) {
      return new Response(messageOf(err), { status: err?.trapped ? 500 : 400 });
    } finally {
      if (rm) await pool.release(rm, { tag: held });
    }
  },
};
