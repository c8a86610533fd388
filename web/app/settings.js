// settings.js: "your data" (export, import, forget me) and the optional LLM
// endpoint, with the llm_complete host function the module may import.
import { $, download } from './dom.js';
import { act, showError, clearError, refresh, setStatus, inWords, sizeWords } from './core.js';
import * as store from './store.js';
import { isBinaryState } from '../recmem.js';
import { REFUSED } from './engine.js';
import { llmOptions, stepsWhy } from './llmsteps.js';

export { llmOptions };

// complete answers one llm_complete request (docs/llm.md) with the endpoint in
// the settings: {purpose, user, messages, max_tokens, temperature,
// response_format, schema} in, {text, input_tokens, output_tokens} or {error} out.
// Host functions run synchronously inside a module call, so the request is a
// synchronous XMLHttpRequest; the page waits for the endpoint, acceptable for
// an optional feature the user turns on.
export function complete(settings, request) {
  const s = settings ?? {};
  if (!s.llmEndpoint) return { error: 'no LLM endpoint is set in the page' };
  let req;
  try {
    req = JSON.parse(request);
  } catch (err) {
    return { error: `llm_complete: malformed request: ${err.message}` };
  }
  const body = { messages: req.messages, max_tokens: req.max_tokens, temperature: req.temperature ?? 0 };
  if (s.llmModel) body.model = s.llmModel;
  if (req.response_format === 'json') {
    // The answer's schema as a grammar where the endpoint knows json_schema
    // (llama.cpp, scripts/llm, OpenAI), as the Go host sends it (docs/llm.md).
    body.response_format = req.schema
      ? { type: 'json_schema', json_schema: { name: `recmem_${req.purpose}`, schema: req.schema, strict: false } }
      : { type: 'json_object' };
  }
  try {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${s.llmEndpoint.replace(/\/+$/, '')}/chat/completions`, false);
    xhr.setRequestHeader('Content-Type', 'application/json');
    if (s.llmKey) xhr.setRequestHeader('Authorization', `Bearer ${s.llmKey}`);
    xhr.send(JSON.stringify(body));
    if (xhr.status < 200 || xhr.status >= 300) return { error: `the endpoint answered HTTP ${xhr.status}` };
    const res = JSON.parse(xhr.responseText);
    const text = res?.choices?.[0]?.message?.content;
    if (typeof text !== 'string') return { error: 'the endpoint answered without choices[0].message.content' };
    return { text, input_tokens: res.usage?.prompt_tokens ?? 0, output_tokens: res.usage?.completion_tokens ?? 0 };
  } catch (err) {
    return { error: `LLM call failed: ${err.message}` };
  }
}

// llmAnswer returns the llm option of Recmem.open: every host must provide
// llm_complete, which the module imports; recmem.js wires this function to it.
// Every exchange is counted per step (calls, input and output tokens, failed
// answers) and shown in the settings tab: tokens per user are a cost.
export function llmAnswer(getSettings) {
  return (request) => {
    const reply = complete(getSettings(), JSON.stringify(request));
    const u = (usage[request.purpose] ??= { calls: 0, input: 0, output: 0, failed: 0 });
    u.calls++;
    u.input += reply.input_tokens ?? 0;
    u.output += reply.output_tokens ?? 0;
    if (reply.error) u.failed++;
    showUsage();
    return reply;
  };
}

// usage counts this page session's LLM exchanges per step.
export const usage = {};

function showUsage() {
  const el = document.querySelector('#llm-usage');
  if (!el) return;
  const steps = Object.keys(usage).sort();
  el.textContent = steps.length === 0 ? 'No LLM call in this session.'
    : 'This session: ' + steps.map((p) => {
      const u = usage[p];
      return `${p} ${u.calls} call${u.calls === 1 ? '' : 's'}, ${u.input} + ${u.output} tokens${u.failed ? `, ${u.failed} failed` : ''}`;
    }).join('; ') + '.';
}

async function llmStatus(app) {
  const s = app.settings ?? {};
  const wired = app.engine.importsHost('llm_complete');
  let msg;
  if (!wired) {
    msg = 'This build of the module makes no LLM calls (it does not import llm_complete): the LLM-free policies run. '
      + (s.llmEndpoint ? `Your endpoint ${s.llmEndpoint} is kept for a build that does.` : 'An endpoint you set here is kept for a build that does.');
  } else if (s.llmEndpoint) {
    let cfg;
    try {
      cfg = await app.engine.llmConfig();
    } catch { /* an old module without the llm key: the steps are not known */ }
    const on = cfg?.steps ?? [];
    msg = `${stepsWhy(s, cfg)} ${on.length ? `They ask ${s.llmEndpoint}${s.llmModel ? ` (model ${s.llmModel})` : ''}; an answer that fails validation, or no answer, falls back to the LLM-free policy.` : `Every step runs its LLM-free policy; ${s.llmEndpoint} is not called.`}`;
  } else {
    msg = 'No LLM endpoint set: the LLM-free policies run.';
  }
  $('#llm-status').textContent = msg;
}

/** @param {import('./core.js').App} app */
export async function initSettings(app) {
  const s = app.settings ?? {};
  $('#llm-endpoint').value = s.llmEndpoint ?? '';
  $('#llm-model').value = s.llmModel ?? '';
  $('#llm-key').value = s.llmKey ?? '';
  $('#llm-steps').value = s.llmSteps || '';
  await llmStatus(app);
  showUsage();
  const exps = [...app.engine.available].filter((n) => !n.startsWith('_')).sort();
  $('#build-info').textContent = `Module exports: ${exps.join(', ')}. Imports llm_complete: ${app.engine.importsHost('llm_complete') ? 'yes' : 'no'}.`;

  $('#llm-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const endpoint = $('#llm-endpoint').value.trim();
    if (endpoint && !/^https?:\/\//.test(endpoint)) {
      showError('The LLM endpoint must be an http:// or https:// URL, e.g. http://127.0.0.1:8081/v1');
      return;
    }
    const before = JSON.stringify(llmOptions(app.settings));
    app.settings = { ...app.settings, llmEndpoint: endpoint, llmModel: $('#llm-model').value.trim(), llmKey: $('#llm-key').value, llmSteps: $('#llm-steps').value.replace(/\s+/g, '') };
    await store.put('settings', app.settings);
    clearError();
    // The module reads its LLM steps once, from the manifest: a changed
    // configuration takes a fresh module, so reload (the memory is saved).
    if (app.engine.importsHost('llm_complete') && JSON.stringify(llmOptions(app.settings)) !== before) location.reload();
    else await llmStatus(app);
  });
  $('#llm-clear').addEventListener('click', async () => {
    const had = app.settings?.llmEndpoint;
    app.settings = { ...app.settings, llmEndpoint: '', llmModel: '', llmKey: '' };
    await store.put('settings', app.settings);
    for (const id of ['#llm-endpoint', '#llm-model', '#llm-key']) $(id).value = '';
    llmStatus(app);
    if (had && app.engine.importsHost('llm_complete')) location.reload();
  });

  $('#export').addEventListener('click', () => act('export', async () => {
    const text = await app.engine.exportText();
    download(`recmem-memory-${new Date().toISOString().slice(0, 10)}.json`, text);
    $('#data-meta').textContent = `Exported ${sizeWords(new TextEncoder().encode(text).length)}.`;
  }));

  // A saved memory the module refused at load is kept (engine.js); it can
  // be downloaded as it was saved, to inspect or to import elsewhere.
  const refused = await store.get(REFUSED).catch(() => undefined);
  if (refused !== undefined) {
    $('#download-refused').hidden = false;
    $('#download-refused').addEventListener('click', () => {
      const binary = refused instanceof Uint8Array;
      download(`recmem-memory-not-restored.${binary ? 'bin' : 'json'}`, refused, binary ? 'application/octet-stream' : 'application/json');
      $('#data-meta').textContent = `Downloaded the memory that could not be restored (${sizeWords(binary ? refused.length : new TextEncoder().encode(refused).length)}).`;
    });
  }

  $('#import-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    // The JSON document, or a binary state (bytes starting RMSB).
    const bytes = new Uint8Array(await file.arrayBuffer());
    const state = isBinaryState(bytes) ? bytes : new TextDecoder().decode(bytes);
    const t0 = performance.now();
    try {
      // The module validates the state; on any error it keeps the memory
      // it had, and so does the page.
      await app.engine.importState(state);
    } catch (err) {
      showError(`Import of ${file.name} failed: ${inWords(err.message)}. Your memory is unchanged.`);
      $('#data-meta').textContent = '';
      return;
    }
    clearError();
    await refresh();
    app.timings.push({ action: 'import', ms: performance.now() - t0 });
    $('#data-meta').textContent = `Imported ${file.name} (${sizeWords(bytes.length)}).`;
    setStatus(`Memory imported from ${file.name}`);
  });

  $('#forget').addEventListener('click', () => {
    const dlg = $('#confirm-forget');
    dlg.returnValue = '';
    dlg.onclose = () => {
      if (dlg.returnValue !== 'forget') return;
      act('forget me', async () => {
        await app.engine.unsaved(() => app.engine.reset());
        await store.clear();
        app.settings = {};
        for (const id of ['#llm-endpoint', '#llm-model', '#llm-key']) $(id).value = '';
        llmStatus(app);
        $('#data-meta').textContent = 'Everything was forgotten: the module holds an empty memory and this browser\'s storage is empty.';
        setStatus('Memory wiped');
      });
    };
    dlg.showModal();
  });
}

