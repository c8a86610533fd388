// agent.js: the agent-memory view. An example conversation, imported LoCoMo
// or LongMemEval conversations (one chosen when a file holds several) and
// typed chat turns become memory units (add_units), each source kept apart:
// an import's ids and sessions carry its name, typed turns go into a chat of
// their own date. A question with a token budget gets its slate
// (select_slate): the chosen units in the order they enter the context, each
// with its rank and why it is there in words.
import { $, h, fill } from './dom.js';
import { act, showError, clearError } from './core.js';
import { parseDialogFile, dialogChoices, isoDate } from './agentfiles.js';
import { exampleConversation } from './example.js';

// USER owns the typed turns; an import's units belong to `import:NAME`, so
// each source can be removed alone (purge by user).
const USER = 'me';
const IMPORT = 'import:';

// What the hops of the pool mean, for a reader (select_slate's "hop").
const HOPS = {
  first: 'first pass',
  context: 'next to a best match',
  session: 'same chat',
  feedback: 'feedback hop',
  near: 'similar words',
};

// unitsOf finds the stored units in the state document, wherever the slate
// section keeps them.
function unitsOf(doc) {
  const s = doc?.slate ?? doc?.agent ?? doc?.units;
  if (Array.isArray(s)) return s;
  if (Array.isArray(s?.units)) return s.units;
  return [];
}

// sourceName makes a name fit for ids: letters, digits and - _ . only, at
// most 48 characters ("conv-26", "example").
export function sourceName(name) {
  const s = String(name ?? '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48);
  return s || 'conversation';
}

// staleSlate clears a slate shown for a memory that has changed since.
function staleSlate() {
  if (!$('#slate li')) return;
  fill($('#slate'));
  $('#slate-order').hidden = true;
  $('#slate-meta').textContent = 'The memory changed: choose the slate again.';
}

// pending is a file read but not imported yet (several conversations: the
// user picks one).
let pending = null;

/** @param {import('./core.js').App} app */
export async function initAgent(app) {
  const can = (name) => app.engine.has(name);
  if (!can('add_units')) {
    $('#units-meta').textContent = '· storing units is not available in this build';
    for (const el of document.querySelectorAll('#turn-form button, #dialog-file, #load-example')) el.disabled = true;
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
    // A typed turn joins the chat of its date, never an imported session.
    const session = date ? `typed-${date}` : 'typed';
    const n = unitsOf(app.doc).filter((u) => u.session === session).length + 1;
    const unit = { id: `${session}:${n}-${Date.now().toString(36)}`, session, speaker: $('#turn-speaker').value.trim() || USER, text, kind: 'turn', user: USER };
    if (date) { unit.date = date; unit.time = date; }
    act('add turn', async () => {
      await app.engine.addUnits([unit]);
      $('#turn-text').value = '';
      staleSlate();
    });
  });

  // The example is short (about 800 tokens): a budget of 200 makes the
  // slate a choice.
  $('#load-example').addEventListener('click', async () => {
    if (await importConversation(app, exampleConversation(), 0, 'the example')) $('#budget').value = '200';
  });

  $('#dialog-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    pending = null;
    $('#dialog-pick-row').hidden = true;
    if (!file) return;
    let data;
    let choices;
    try {
      const text = await file.text();
      ({ choices } = dialogChoices(text));
      data = JSON.parse(text);
    } catch (err) {
      showError(`Could not import ${file.name}: ${err.message}. Nothing was added.`);
      return;
    }
    clearError();
    if (choices.length === 1) {
      await importConversation(app, data, 0, file.name);
      return;
    }
    pending = { data, file: file.name };
    $('#dialog-count').textContent = `${choices.length} conversations`;
    fill($('#dialog-pick'), choices.map((c) => h('option', { value: String(c.index) }, c.label)));
    $('#dialog-pick-row').hidden = false;
    $('#dialog-file-meta').textContent = `${file.name}: choose the conversation to import.`;
  });

  $('#dialog-import').addEventListener('click', async () => {
    if (!pending) return;
    const { data, file } = pending;
    await importConversation(app, data, Number($('#dialog-pick').value) || 0, file);
  });

  // Every source in turn: by its user, or by session for a unit without one.
  $('#purge-units').addEventListener('click', () => act('purge units', async () => {
    const units = unitsOf(app.doc);
    for (const user of new Set(units.filter((u) => u.user).map((u) => u.user))) await app.engine.purge({ user });
    for (const session of new Set(units.filter((u) => !u.user).map((u) => u.session))) await app.engine.purge({ session });
    staleSlate();
  }));

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

// importConversation adds one conversation of a parsed file, its ids and
// sessions prefixed with its name so that it stays apart from typed turns
// and other imports; one already in memory is not added twice. It returns
// whether the units were added.
/** @param {import('./core.js').App} app */
async function importConversation(app, data, index, from) {
  let parsed;
  try {
    parsed = parseDialogFile(data, index);
  } catch (err) {
    showError(`Could not import ${from}: ${err.message}. Nothing was added.`);
    return false;
  }
  const name = sourceName(parsed.name);
  const user = IMPORT + name;
  if (unitsOf(app.doc).some((u) => u.user === user)) {
    showError(`${parsed.name} is already in memory. Remove it first (in Stored units) to import it again. Nothing was added.`);
    return false;
  }
  const units = parsed.units.map((u) => ({ ...u, id: `${name}/${u.id}`, session: `${name}/${u.session}`, user }));
  return await act('import dialogue', async () => {
    await app.engine.addUnits(units);
    staleSlate();
    pending = null;
    $('#dialog-pick-row').hidden = true;
    showQuestions(parsed.questions);
    const sessions = new Set(units.map((u) => u.session)).size;
    $('#dialog-file-meta').textContent = `${parsed.format} · ${parsed.name}: ${units.length} turns in ${sessions} sessions added${parsed.conversations > 1 ? ` (conversation ${parsed.index + 1} of ${parsed.conversations} in the file)` : ''}${parsed.questions.length ? ' · its questions are under the question box' : ''}.`;
    return true;
  }) ?? false;
}

// showQuestions offers a conversation's questions (at most six) as buttons
// that fill the question box and its date, and fills in the first.
function showQuestions(questions) {
  const qs = questions.slice(0, 6);
  const use = (q) => {
    $('#question').value = q.question;
    $('#ask-date').value = isoDate(q.date ?? '');
  };
  if (qs[0]) use(qs[0]);
  $('#try-questions').hidden = qs.length === 0;
  fill($('#try-questions'), qs.length ? [h('small', {}, 'Try:'), qs.map((q) => h('button', {
    type: 'button', title: q.answer !== '' && q.answer !== undefined ? `the file's answer: ${q.answer}` : '', onclick: () => use(q),
  }, q.question))] : []);
}

/** @param {import('./core.js').App} app */
function renderUnits(app, doc) {
  const units = unitsOf(doc);
  const sessions = new Set(units.map((u) => u.session));
  if (app.engine.has('add_units')) $('#units-meta').textContent = units.length ? `${units.length} units in ${sessions.size} sessions` : '';
  // One group per source: typed turns, then each import in the order added.
  const groups = new Map();
  for (const u of units) {
    const key = u.user?.startsWith(IMPORT) ? u.user : USER;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(u);
  }
  const order = [...groups.keys()].sort((a, b) => (a === USER ? -1 : b === USER ? 1 : 0));
  fill($('#sources'), units.length ? order.map((key) => {
    const us = groups.get(key);
    const typed = key === USER;
    const label = typed ? 'Typed turns' : `Imported: ${key.slice(IMPORT.length)}`;
    const nSess = new Set(us.map((u) => u.session)).size;
    const last = us.slice(-200).reverse();
    return h('details', { open: typed || order.length === 1, dataset: { source: key } },
      h('summary', {}, h('b', {}, label), ` · ${us.length} ${us.length === 1 ? 'turn' : 'turns'} in ${nSess} ${nSess === 1 ? 'session' : 'sessions'} `,
        app.engine.has('purge') ? h('button', { class: 'link', onclick: (e) => { e.preventDefault(); act('remove source', async () => { await app.engine.purge({ user: key }); staleSlate(); }); } }, typed ? 'remove typed turns' : 'remove this conversation') : ''),
      h('ol', { class: 'units' }, last.map((u) => h('li', { dataset: { unit: u.id } },
        h('span', { class: 'meta' }, `${u.date ?? u.time ?? 'no date'} · ${u.session} · `), h('b', {}, u.speaker ?? ''), u.speaker ? ': ' : '', u.text,
        app.engine.has('delete_units') ? [' ', h('button', { class: 'link', onclick: () => act('delete unit', async () => { await app.engine.deleteUnits([u.id]); staleSlate(); }) }, 'delete')] : ''))));
  }) : h('p', { class: 'muted' }, 'No units yet: load the example conversation, import a dialogue file, or type a chat turn.'));
}

function renderSlate(out) {
  const units = out?.units ?? [];
  $('#slate-meta').classList.remove('na');
  $('#slate-meta').textContent = `${units.length} units · ${out?.tokens ?? 0} of ${out?.budget ?? '?'} tokens used · ranker ${out?.ranker ?? '?'} over a pool of ${out?.pool ?? '?'} candidates`;
  $('#slate-order').hidden = units.length < 2;
  fill($('#slate'), units.length ? units.map((u) => h('li', { dataset: { unit: u.id, rank: String(u.rank) } },
    h('div', { class: 'unit-head' }, h('b', {}, `#${u.rank}`), ' ', u.hop ? h('span', { class: `hop ${u.hop}` }, HOPS[u.hop] ?? u.hop) : '',
      ` · ${u.session} · ${u.tokens} tokens · score ${Number(u.score).toFixed(3)}`),
    h('div', {}, highlight(u.line ?? u.text, u.matched ?? [])),
    u.why ? h('div', { class: 'why' }, u.why) : ''))
    : h('li', { class: 'muted' }, 'No unit fits or matches.'));
}

// highlight marks the question's words in a unit's line (whole words, any
// case, a plural or -ing form too).
function highlight(line, words) {
  if (!words.length) return line;
  const esc = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`\\b(${esc.join('|')})(s|es|ed|ing)?\\b`, 'gi');
  const parts = [];
  let last = 0;
  for (const m of line.matchAll(re)) {
    parts.push(line.slice(last, m.index), h('mark', {}, m[0]));
    last = m.index + m[0].length;
  }
  parts.push(line.slice(last));
  return parts;
}
