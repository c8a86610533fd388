// The Worker `recmem bench` times in workerd (host/bench/workerd.go): one
// stateless request as an edge deployment would make it, the memory in and
// out, with three calls between. POST / with
//
//   {"state", "tag", "record": <record input>, "rank": <rank input>, "select": <select_slate input>}
//
// unpacks the state (base64, gunzip), checks its tag (SHA-256), imports it,
// records, ranks, selects a slate, exports the new state, tags and packs it,
// and answers {"record", "rank", "select_slate", "state", "tag"}; then it
// resets the instance, as examples/worker.mjs does. The module is a Wasm
// module binding, the catalog (RECMEM_CATALOG) a data binding. One instance
// per isolate; the bench sends one request at a time.
import { Recmem, messageOf, packState, stateTag, unpackState } from 'recmem';
import wasm from './plugin.wasm';

let rm = null;

export default {
  async fetch(request, env) {
    try {
      rm ??= await Recmem.open({ module: wasm, catalog: new Uint8Array(env.RECMEM_CATALOG) });
      const body = await request.json();
      const doc = await unpackState(body.state, { maxBytes: 64 << 20 });
      if (await stateTag(doc) !== body.tag) return new Response('tag: does not match the state', { status: 422 });
      await rm.importState(doc);
      const record = await rm.call('record', JSON.stringify(body.record), { text: true });
      const rank = await rm.call('rank', JSON.stringify(body.rank), { text: true });
      const slate = await rm.call('select_slate', JSON.stringify(body.select), { text: true });
      const out = await rm.exportState();
      const [tag, state] = await Promise.all([stateTag(out), packState(out)]);
      await rm.reset();
      return new Response(`{"record":${record},"rank":${rank},"select_slate":${slate},"state":"${state}","tag":"${tag}"}`,
        { headers: { 'content-type': 'application/json' } });
    } catch (err) {
      if (rm?.trap) rm = null;
      return new Response(messageOf(err), { status: err?.trapped ? 500 : 400 });
    }
  },
};
