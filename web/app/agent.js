// agent.js: the agent-memory view. Chat turns and imported LoCoMo or
// LongMemEval dialogues become memory units (add_units); a question with a
// token budget gets its slate (select_slate): the chosen units with their
// dates, speakers, why each is there, and the tokens used.
import { $, h, fill } from './dom.js';
import { act, showError, clearError } from './core.js';
import { parseDialogFile, isoDate } from './agentfiles.js';

const USER = 'me';
let turnCount = 0;

// unitsOf finds the stored units in the state document, wherever the slate
// section keeps them.
function unitsOf(doc) {
  const s = doc?.slate ?? doc?.agent ?? doc?.units;
  if (Array.isArray(s)) return s;
  if (Array.isArray(s?.units)) return s.units;
  return [];
}

/** @param {import('./core.js').App} app */
export async function initAgent(app) {
  const can = (name) => app.engine.has(name);
  if (!can('add_units')) {
    $('#units-meta').textContent = '· storing units is not available in this build';
    for (const el of document.querySelectorAll('#turn-form button, #dialog-file')) el.disabled = true;
  }
  if (!can('select_slate')) {
    $('#slate-meta').textContent = 'Slate selection is not available in this build of the module (it has no select_slate export).';
    $('#slate-meta').classList.add('na');
    $('#ask-form button').disabled = true;
  }
  $('#purge-units').hidden = !can('purge');
  $('#turn-date').value = new Date().toISOString().slice(0, 10);

  $('#turn-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('#turn-text').value.trim();
    if (!text) return;
    const date = $('#turn-date').value;
    const n = unitsOf(app.doc).filter((u) => u.session === `chat-${date}`).length + ++turnCount;
    const unit = { id: `chat-${date}-${Date.now().toString(36)}-${n}`, session: `chat-${date}`, speaker: $('#turn-speaker').value.trim() || USER, text, kind: 'turn', user: USER };
    if (date) { unit.date = date; unit.time = date; }
    act('add turn', async () => {
      await app.engine.addUnits([unit]);
      $('#turn-text').value = '';
    });
  });

  $('#dialog-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    let parsed;
    try {
      parsed = parseDialogFile(await file.text());
    } catch (err) {
      showError(`Could not import ${file.name}: ${err.message}. Nothing was added.`);
      return;
    }
    clearError();
    const units = parsed.units.map((u) => ({ ...u, user: USER }));
    await act('import dialogue', async () => {
      await app.engine.addUnits(units);
      const q = parsed.questions[0];
      if (q) {
        $('#question').value = q.question;
        $('#ask-date').value = isoDate(q.date ?? '');
      }
      $('#dialog-file-meta').textContent = `${parsed.format} · ${parsed.name}: ${units.length} turns added${parsed.conversations > 1 ? ` (item 1 of ${parsed.conversations} in the file)` : ''}${q ? ` · a question from the file is filled in${q.answer !== '' ? ` (its answer: ${q.answer})` : ''}` : ''}.`;
    });
  });

  $('#purge-units').addEventListener('click', () => act('purge units', () => app.engine.purge({ user: USER })));

  $('#ask-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const query = $('#question').value.trim();
    const budget = Number($('#budget').value) || 1000;
    if (!query) return;
    act('select slate', async () => {
      // The question's date (optional) lets the ranker read temporal cues.
      const date = $('#ask-date').value;
      const out = await app.engine.selectSlate(date ? { query, budget, date } : { query, budget });
      renderSlate(out);
    });
  });

  app.listeners.add((doc) => renderUnits(app, doc));
}

/** @param {import('./core.js').App} app */
function renderUnits(app, doc) {
  const units = unitsOf(doc);
  const sessions = new Set(units.map((u) => u.session));
  if (app.engine.has('add_units')) $('#units-meta').textContent = units.length ? `${units.length} units in ${sessions.size} sessions` : '';
  const last = units.slice(-200).reverse();
  fill($('#units'), units.length ? last.map((u) => h('li', { dataset: { unit: u.id } },
    h('span', { class: 'meta' }, `${u.date ?? u.time ?? ''} · ${u.session} · `), h('b', {}, u.speaker ?? ''), u.speaker ? ': ' : '', u.text,
    app.engine.has('delete_units') ? [' ', h('button', { class: 'link', onclick: () => act('delete unit', () => app.engine.deleteUnits([u.id])) }, 'delete')] : ''))
    : h('li', { class: 'muted' }, 'No units yet: add a chat turn or import a dialogue file.'));
}

function renderSlate(out) {
  const units = out?.units ?? [];
  $('#slate-meta').classList.remove('na');
  $('#slate-meta').textContent = `${units.length} units · ${out?.tokens ?? 0} of ${out?.budget ?? '?'} tokens used · ranker ${out?.ranker ?? '?'} over a pool of ${out?.pool ?? '?'} candidates`;
  fill($('#slate'), units.length ? units.map((u) => h('li', { dataset: { unit: u.id } },
    h('div', { class: 'unit-head' }, `#${u.rank} · ${u.session} · ${u.tokens} tokens · ${u.reason === 'context' ? 'context: a neighbour of a retrieved turn' : `retrieved, score ${Number(u.score).toFixed(3)}`}`),
    h('div', {}, u.line ?? u.text),
    u.features ? h('div', { class: 'explain' }, topFeatures(u.features)) : ''))
    : h('li', { class: 'muted' }, 'No unit fits or matches.'));
}

function topFeatures(f) {
  const top = Object.entries(f).filter(([, v]) => v).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 4);
  return top.length ? `strongest features: ${top.map(([k, v]) => `${k} ${Number(v).toFixed(2)}`).join(', ')}` : '';
}
