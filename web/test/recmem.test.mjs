// The typed JS module in Node, through its package name (the exports map):
// the same calls as the Go examples, with the same results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Recmem, RecmemError, StateError, packState, stateTag, unpackState } from 'recmem';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const wasm = readFileSync(process.env.RECMEM_WASM || path.join(root, 'out/plugin.wasm'));
const module = await WebAssembly.compile(wasm);

const titles = ['Halo 5: Guardians - Xbox One', 'Forza Horizon 3 - Xbox One', 'Gears of War 4 - Xbox One',
  'Halo Wars 2 - Xbox One', 'Sea of Thieves - Xbox One'];

test('record, read the tiers, export and restore', async () => {
  const rm = await Recmem.open({ module });
  const signals = titles.map((t, i) => ({ user: 'u1', item: `g${i}`, action: 'purchase', meta: { title: t }, time: 1700000000 + i * 86400 }));
  const res = await rm.record(signals, { maintain: 'fixed' });
  assert.equal(res.maintenance.decision, 'maintain');
  const mem = await rm.memory();
  assert.deepEqual(mem.chunks.map((c) => [c.id, c.strength, c.text]), [['c1', 0.9, 'Prefers Xbox One']]);
  const state = await rm.exportState();
  const again = await Recmem.open({ module, state });
  assert.equal(await again.exportState(), state);
  await rm.close();
  await again.close();
});

test('a bad op is a RecmemError naming the field; the memory is unchanged', async () => {
  const rm = await Recmem.open({ module });
  const before = await rm.exportState();
  await assert.rejects(rm.applyOps([{ op: 'boost', chunk: 'c9' }]), (err) => {
    assert.ok(err instanceof RecmemError);
    assert.equal(err.export, 'apply_ops');
    assert.equal(err.message, 'apply_ops: input.ops[0].chunk: unknown chunk "c9"');
    return true;
  });
  assert.equal(await rm.exportState(), before);
  await rm.close();
});

test('agent memory: a slate within the budget holds both evidence turns', async () => {
  const rm = await Recmem.open({ module });
  await rm.addUnits([
    { id: 'D1:1', session: '1', date: '8 May 2023', time: '2023-05-08', speaker: 'Ana', text: 'I signed up for a pottery class on Tuesdays.' },
    { id: 'D1:2', session: '1', date: '8 May 2023', time: '2023-05-08', speaker: 'Ben', text: 'Nice! I am training for a marathon.' },
    { id: 'D2:1', session: '2', date: '2 June 2023', time: '2023-06-02', speaker: 'Ana', text: 'My pottery class moved to Thursdays.' },
    { id: 'D2:2', session: '2', date: '2 June 2023', time: '2023-06-02', speaker: 'Ben', text: 'The marathon is in October.' },
  ]);
  const slate = await rm.selectSlate({ query: "Which day is Ana's pottery class now?", date: '2023-06-20', budget: 40 });
  assert.deepEqual(slate.units.map((u) => u.line), [
    '[8 May 2023] Ana: I signed up for a pottery class on Tuesdays.',
    '[2 June 2023] Ana: My pottery class moved to Thursdays.',
  ]);
  assert.ok(slate.tokens <= 40);
  await rm.close();
});

test('the llm option answers llm_complete for the configured steps', async () => {
  const asked = [];
  const rm = await Recmem.open({
    module,
    llmSteps: ['synthesize'],
    llm: (req) => { asked.push(req.purpose); return { text: '{"profile":"Loves Xbox shooters."}', input_tokens: 40, output_tokens: 8 }; },
  });
  // A profile must name what the memory holds (docs/llm.md): an Xbox chunk first.
  await rm.applyOps([{ op: 'extract', category: 'platform', text: 'Plays on Xbox One', strength: 0.8 }], { now: 100 });
  const out = await rm.applyOps([{ op: 'synthesize' }]);
  assert.deepEqual(out.llm, [{ purpose: 'synthesize', status: 'accepted' }]);
  assert.equal((await rm.memory()).profile.text, 'Loves Xbox shooters.');
  assert.deepEqual(asked, ['synthesize']);
  await rm.close();
});

test('llmModel: without llmSteps, the steps measured to help with the model, none for an unmeasured one', async () => {
  const asked = [];
  const llm = (req) => { asked.push(req.purpose); return { text: '{"profile":"Loves Xbox shooters."}', input_tokens: 40, output_tokens: 8 }; };
  const synth = async (opts) => {
    const rm = await Recmem.open({ module, llm, ...opts });
    await rm.applyOps([{ op: 'extract', category: 'platform', text: 'Plays on Xbox One', strength: 0.8 }], { now: 100 });
    const out = await rm.applyOps([{ op: 'synthesize' }]);
    await rm.close();
    return out.llm ?? [];
  };
  assert.deepEqual(await synth({ llmModel: 'some-hosted-model' }), []);
  // SmolLM2-135M was measured: none of its steps helped (docs/llm.md), so none is on by default.
  assert.deepEqual(await synth({ llmModel: 'SmolLM2-135M-Instruct.Q4_1.gguf' }), []);
  assert.deepEqual(await synth({ llmModel: 'some-hosted-model', llmSteps: [] }), []);
  assert.deepEqual(await synth({ llmModel: 'some-hosted-model', llmSteps: ['synthesize'] }), [{ purpose: 'synthesize', status: 'accepted' }]);
  assert.deepEqual(asked, ['synthesize']);
  await assert.rejects(Recmem.open({ module, llm, llmSteps: 'synthesize' }), /llmSteps must be an array/);
});

test('sealKey: exports are sealed (HMAC-SHA-256, as the Go host), only sealed documents import', async () => {
  const { createHmac } = await import('node:crypto');
  const key = 'a key of at least thirty-two bytes, held by the host';
  const rm = await Recmem.open({ module, sealKey: key });
  await rm.applyOps([{ op: 'extract', category: 'series', text: 'Enjoys the Uncharted series', strength: 0.9 }], { now: 100 });
  const sealed = await rm.exportState();
  const nl = sealed.indexOf('\n');
  const doc = sealed.slice(nl + 1);
  assert.equal(sealed.slice(0, nl), `hmac-sha256:${createHmac('sha256', key).update(doc).digest('hex')}`);
  const again = await Recmem.open({ module, sealKey: key, state: sealed });
  assert.equal(await again.exportState(), sealed);
  // Unsealed, altered (checksum recomputed or not), or sealed with another key: refused.
  const forged = sealed.replace('"polarity":"likes"', '"polarity":"avoids"');
  const other = `hmac-sha256:${createHmac('sha256', 'another key, thirty-two bytes or more').update(doc).digest('hex')}\n${doc}`;
  for (const [bad, msg] of [[doc, 'seal: missing'], [forged, 'seal: does not match'], [other, 'seal: does not match']]) {
    await assert.rejects(again.importState(bad), (err) => err instanceof RecmemError && err.message.startsWith(msg));
  }
  assert.equal(await again.exportState(), sealed);
  await assert.rejects(Recmem.open({ module, sealKey: 'short' }), /fewer than 32/);
  await rm.close();
  await again.close();
});

test('bytes that are a view (a Node Buffer from readFile) are sent as they are', async () => {
  const rm = await Recmem.open({ module, catalog: readFileSync(path.join(root, 'testdata/catalog/tiny.json')) });
  const state = Buffer.from(`xx${await rm.exportState()}`).subarray(2);
  assert.equal((await rm.importState(state)).ok, true);
  await rm.close();
});

test('packState, unpackState, stateTag: the stateless API\'s wire form, as the Go host writes it', async () => {
  // echo -n '{"a":1}' | sha256sum
  assert.equal(await stateTag('{"a":1}'), 'sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
  assert.equal(await stateTag(new TextEncoder().encode('{"a":1}')), await stateTag('{"a":1}'));
  // host.PackState([]byte(`{"a":1}`)), as Go's compress/gzip writes it.
  const fromGo = 'H4sIAAAAAAAE/wAHAPj/eyJhIjoxfQEAAP//r6wbVgcAAAA=';
  assert.equal(new TextDecoder().decode(await unpackState(fromGo)), '{"a":1}');
  const rm = await Recmem.open({ module });
  await rm.record([{ user: 'u1', item: 'g1', action: 'like', meta: { title: titles[0] }, time: 1700000000 }]);
  const doc = await rm.exportState();
  const packed = await packState(doc);
  assert.match(packed, /^H4sI/);
  assert.equal(new TextDecoder().decode(await unpackState(packed)), doc);
  const cases = [
    [() => unpackState('not base64!'), 'state: not base64', false],
    [() => unpackState(btoa('{"a":1}')), 'state: not gzip', false],
    [() => unpackState(packed.slice(0, 40)), 'state: truncated or damaged', false],
    [() => unpackState(packed, { maxBytes: 100 }), 'state: too large to serve: the state document is more than 100 bytes', true],
    [() => unpackState(null), 'state: a string of base64 is required, not null', false],
  ];
  for (const [f, msg, tooLarge] of cases) {
    await assert.rejects(f(), (err) => err instanceof StateError && err.message.startsWith(msg) && err.tooLarge === tooLarge);
  }
  assert.ok(rm.memoryBytes() >= 1 << 20, 'the instance has its linear memory');
  await rm.close();
});
