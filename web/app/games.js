// games.js: the games view. Browse the demo catalog and act on items (each act
// is a signal recorded with the item's metadata and the page's time); watch
// the three tiers and the journal; rank with an optional instruction; edit or
// delete a preference by hand (an apply_ops call, journaled like any other).
import { $, h, fill, bar, fmtTime } from './dom.js';
import { act, clock } from './core.js';
import { renderUnderstood, collapseEditions } from './instruct.js';
import { key, words as analyzedWords } from './analyze.js';
import { reasons, strengthWords, journalSentence, featureOf } from './words.js';

const USER = 'me';
const PAGE = 40;

let catalog = []; // demo items
let byId = new Map();
let shown = PAGE;

// metaOf is an item's metadata as the module takes it: field -> values. The
// defaults (kind "game", format "physical") are left out: said of nearly every
// item, they would only become preferences like "likes games".
export function metaOf(it) {
  const m = {};
  for (const k of ['title', 'platform', 'series']) {
    if (it[k]) m[k] = [String(it[k])];
  }
  if (it.kind && it.kind !== 'game') m.kind = [it.kind];
  if (it.format === 'digital') m.format = ['digital'];
  return m;
}

/** @param {import('./core.js').App} app */
export async function initGames(app) {
  try {
    const res = await (app.prefetched?.demo ?? fetch('catalog/games-demo.json'));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    catalog = (await res.json()).items;
  } catch (err) {
    fill($('#items'), h('li', { class: 'na' }, `The demo catalog did not load: ${err.message}`));
  }
  app.phases.demo = performance.now();
  catalog.sort((a, b) => b.popularity - a.popularity || Number(a.id) - Number(b.id));
  byId = new Map(catalog.map((it) => [it.id, it]));
  app.catalog = byId;
  const platforms = [...new Set(catalog.map((it) => it.platform).filter(Boolean))].sort();
  $('#platform').append(...platforms.map((p) => h('option', { value: p }, p)));
  $('#search').addEventListener('input', () => { shown = PAGE; renderItems(app); });
  $('#platform').addEventListener('change', () => {
    shown = PAGE;
    renderItems(app);
    if (lastRanked) act('rank', () => rank(app));
  });
  $('#more').addEventListener('click', () => { shown += PAGE; renderItems(app); });
  $('#maintain').addEventListener('click', () => act('maintain', () => maintain(app)));
  $('#synthesize').addEventListener('click', () => act('rewrite profile', () => app.engine.applyOps([{ op: 'synthesize' }], { now: clock.now() })));
  $('#synthesize').disabled = !app.engine.has('apply_ops');
  $('#rank').addEventListener('click', () => act('rank', () => rank(app)));
  $('#add-pref').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('#add-pref-text').value.trim();
    act('add preference', async () => {
      const out = await addPreference(app, text);
      $('#add-pref-text').value = '';
      return out;
    });
  });
  $('#add-pref-text').disabled = $('#add-pref button').disabled = !app.engine.has('apply_ops');
  $('#instruction').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); $('#rank').click(); }
  });
  if (!app.engine.has('record')) {
    $('#catalog-count').textContent = '· recording is not available in this build';
  }
  let ranker = false;
  try {
    ranker = await loadRanker(app);
  } catch (err) {
    fill($('#recs'), h('li', { class: 'na' }, `The ranker's catalog did not load: ${err.message}`));
  }
  if (!app.engine.has('rank')) {
    fill($('#recs'), h('li', { class: 'na' }, 'Ranking is not available in this build of the module (it has no rank export). No list is shown rather than a made-up one.'));
  }
  $('#rank').disabled = !ranker;
  app.phases.catalog = performance.now();
  lastRanked = ranker; // rank at once, and again after every change
  app.listeners.add((doc) => renderMemory(app, doc));
  app.listeners.add(() => renderItems(app));
  app.listeners.add(() => autoRank(app));
  renderItems(app);
}

// ----- catalog -----

// matches reads the search words and the item's as the module reads them
// (web/app/analyze.js: "pokemon" finds "Pokémon"), each word a prefix or
// part of the item's words.
function matches(it, words, platform) {
  if (platform && it.platform !== platform) return false;
  if (words.length === 0) return true;
  const hay = ` ${key(`${it.title} ${it.series ?? ''} ${it.platform ?? ''} ${it.kind} ${(it.genre ?? []).join(' ')}`)} `;
  return words.every((w) => hay.includes(w));
}

function lastActions(app) {
  const m = new Map();
  for (const e of app.doc?.memory?.events ?? []) m.set(e.item, e.action === 'rate' ? `rated ${e.rating}` : e.action);
  return m;
}

function renderItems(app) {
  const words = analyzedWords($('#search').value);
  const platform = $('#platform').value;
  const hits = catalog.filter((it) => matches(it, words, platform));
  const acted = lastActions(app);
  $('#catalog-count').textContent = `${hits.length} of ${catalog.length} items`;
  fill($('#items'), hits.slice(0, shown).map((it) => itemRow(app, it, acted.get(it.id))));
  $('#more').hidden = hits.length <= shown;
}

// busy holds the items whose record call is running: their buttons stay
// disabled until it ends, so a double-click records once.
const busy = new Set();

// actOnItem records one action on an item, with the item's buttons disabled
// while the call runs (a re-render keeps them so, through busy). The signal
// carries a fresh client id, so a retry of the same call is not recorded
// twice either.
async function actOnItem(app, it, label, action, rating) {
  if (busy.has(it.id)) return;
  busy.add(it.id);
  const row = document.querySelector(`#items li[data-item="${CSS.escape(it.id)}"]`);
  const controls = row ? [...row.querySelectorAll('button, select')] : [];
  for (const c of controls) c.disabled = true;
  row?.setAttribute('data-busy', '');
  try {
    await act(label, () => record(app, it, action, rating, newClientId()));
  } finally {
    busy.delete(it.id);
    const now = document.querySelector(`#items li[data-item="${CSS.escape(it.id)}"]`);
    now?.removeAttribute('data-busy');
    for (const c of now ? now.querySelectorAll('button, select') : []) c.disabled = !app.engine.has('record');
  }
}

// newClientId names one action (a signal's client_id).
function newClientId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function itemRow(app, it, acted) {
  const can = app.engine.has('record');
  const off = !can || busy.has(it.id);
  const btn = (label, action, title) => h('button', {
    disabled: off, title, dataset: { action },
    // The second and third clicks of a double or triple click (detail 2,
    // 3) are the same intent as the first, even when its call has already
    // ended and the button is enabled again.
    onclick: (e) => { if (e.detail <= 1) actOnItem(app, it, action, action); },
  }, label);
  const rate = h('select', { 'aria-label': `Rate ${it.title}`, disabled: off, dataset: { action: 'rate' },
    onchange: (e) => { const r = Number(e.target.value); e.target.value = ''; if (r) actOnItem(app, it, `rate ${r}`, 'rate', r); } },
  h('option', { value: '' }, 'Rate…'), [5, 4, 3, 2, 1].map((r) => h('option', { value: String(r) }, `${'★'.repeat(r)} ${r}`)));
  return h('li', { dataset: busy.has(it.id) ? { item: it.id, busy: '' } : { item: it.id } },
    h('div', { class: 'item-title' }, it.title),
    h('div', { class: 'meta' },
      [it.platform, it.kind !== 'game' ? it.kind : '', it.series ? `series: ${it.series}` : '', `${it.popularity} players`].filter(Boolean).join(' · '),
      acted ? h('span', { class: 'acted' }, ` · you: ${acted}`) : ''),
    h('div', { class: 'actions' },
      btn('Like', 'like', 'I like this'), btn('Buy', 'purchase', 'I bought this'), btn('Dislike', 'dislike', 'Not for me'), rate));
}

// ----- module calls -----

/** @param {import('./core.js').App} app */
async function record(app, it, action, rating, clientId) {
  const sig = { user: USER, item: it.id, action, meta: metaOf(it), time: clock.now(), client_id: clientId };
  if (action === 'rate') sig.rating = rating;
  // The fixed scheduler maintains every B signals; "planner decides" lets the
  // heuristic planner choose when and what.
  return app.engine.record([sig], { maintain: $('#use-planner').checked ? 'planner' : 'fixed' });
}

/** @param {import('./core.js').App} app */
async function maintain(app) {
  const planner = $('#use-planner').checked;
  // Asked for by the user: the fixed scheduler runs even below B pending.
  return app.engine.maintain(planner ? { scheduler: 'planner', now: clock.now() } : { scheduler: 'fixed', force: true, now: clock.now() });
}

/** @param {import('./core.js').App} app */
export async function editChunk(app, chunk, text, strength) {
  const op = { op: 'edit', chunk: chunk.id };
  if (text !== chunk.text) op.text = text;
  if (Number.isFinite(strength) && strength !== chunk.strength) op.strength = strength;
  return app.engine.applyOps([op], { now: clock.now() });
}

/** @param {import('./core.js').App} app */
export async function deleteChunk(app, chunk) {
  return app.engine.applyOps([{ op: 'delete', chunk: chunk.id }], { now: clock.now() });
}

// addPreference keeps a preference the user states in words ("likes
// racing", "avoids Nintendo"): the memory's journaled user op "add", which
// the module grounds in the catalog's platforms, series and kinds.
/** @param {import('./core.js').App} app */
export async function addPreference(app, text) {
  return app.engine.applyOps([{ op: 'add', text }], { now: clock.now() });
}

// rankerCatalog is the asset load_catalog takes, in its JSON form, built from
// the demo catalog: each item's metadata and popularity, no collaborative
// factors. The weights are the page's choice for this demo (the catalog
// trained by `recmem train catalog` carries learned ones): popularity,
// similarity to recent games, to the preference memory and to the profile,
// and the instruction.
// The metadata columns and weights are in catalog/games-ranker.json (shared
// with `recmem eval instructions`, which builds the same catalog); the
// instruction interpreter's table for games (aliases, filler words) is
// catalog/games-intent.json and travels in the catalog's "intent".
export function rankerCatalog(items, spec, table) {
  const names = spec.meta_names;
  return {
    format: 'recmem.catalog', version: 2, dataset: 'games-demo', meta_names: names, dim: 0,
    ...(spec.facets ? { facets: spec.facets } : {}),
    items: items.map((it) => ({ id: it.id, meta: names.map((k) => it[k] ?? ''), pop: it.popularity })),
    weights: spec.weights,
    ...(table ? { intent: table } : {}),
  };
}

async function fetchJSON(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

// TRAINED is where a catalog trained on all of Games-6k may be put
// (bin/recmem train catalog ... --out web/catalog/games-6k.catalog); the page
// ranks with it, its collaborative factors and learned weights, when the URL
// asks for it (?catalog=trained). Otherwise it builds the demo catalog, and
// asks for no file that may not exist.
const TRAINED = 'catalog/games-6k.catalog';

/** @param {import('./core.js').App} app */
async function loadRanker(app) {
  if (!app.engine.has('rank') || !app.engine.has('load_catalog')) return false;
  if (new URLSearchParams(location.search).get('catalog') === 'trained') {
    const res = await fetch(TRAINED);
    if (!res.ok) throw new Error(`${TRAINED}: HTTP ${res.status} (train it with bin/recmem train catalog, docs/web.md)`);
    const out = await app.engine.loadCatalog(new Uint8Array(await res.arrayBuffer()));
    app.rankerInfo = { ...out, source: 'trained on Games-6k' };
    return true;
  }
  const pre = app.prefetched ?? {};
  const [spec, table] = await Promise.all([pre.ranker ?? fetchJSON('catalog/games-ranker.json'), pre.intent ?? fetchJSON('catalog/games-intent.json')]);
  const out = await app.engine.loadCatalog(rankerCatalog(catalog, spec, table));
  app.rankerInfo = { ...out, source: 'demo catalog, no collaborative factors' };
  return true;
}

// candidates are the items the ranker orders: those of the selected platform
// (all platforms when none is), minus the ones already acted on, the most
// popular first, at most 1000 (the export's limit).
function candidates(app) {
  const platform = $('#platform').value;
  const acted = lastActions(app);
  return catalog.filter((it) => !acted.has(it.id) && (!platform || it.platform === platform)).slice(0, 1000).map((it) => it.id);
}

let lastRanked = false;
/** @param {import('./core.js').App} app */
async function rankNow(app) {
  const cands = candidates(app);
  if (cands.length === 0) return { ranking: [] };
  // 30 ranked, so that 10 remain once editions of one game are collapsed.
  // An empty box is no instruction: nothing to understand or show.
  const instruction = $('#instruction').value.trim();
  return app.engine.rank(cands, instruction ? { instruction, k: 30 } : { k: 30 });
}

async function rank(app) {
  const out = await rankNow(app);
  lastRanked = true;
  renderRecs(app, out);
  return out;
}

// autoRank re-ranks after every state change once the user has asked once, so
// the list follows the memory.
async function autoRank(app) {
  if (!lastRanked || !app.engine.has('rank')) return;
  try {
    renderRecs(app, await rankNow(app));
  } catch (err) {
    fill($('#recs'), h('li', { class: 'na' }, `Ranking failed: ${err.message}`));
  }
}

// avoidChunk keeps an exclusion as a standing preference: the memory's
// journaled user op "avoid" (an "avoids" chunk).
/** @param {import('./core.js').App} app */
async function avoidChunk(app, c) {
  const category = c.facet === 'title' ? 'title' : c.facet;
  return app.engine.applyOps([{ op: 'avoid', category, key: c.facet === 'title' ? c.text : c.value }], { now: clock.now() });
}

function avoided(app, c) {
  const key = String(c.facet === 'title' ? c.text : c.value).toLowerCase();
  return (app.doc?.memory?.chunks ?? []).some((x) => x.polarity === 'avoids' && x.key === key);
}

function renderRecs(app, out) {
  renderUnderstood(out, {
    onInstruction: (text) => { $('#instruction').value = text; act('rank', () => rank(app)); },
    onAvoid: (c) => act('avoid', () => avoidChunk(app, c)),
    canAvoid: app.engine.has('apply_ops'),
    avoided: (c) => avoided(app, c),
  });
  const list = collapseEditions(out?.ranking ?? [], (id) => app.catalog.get(id)?.title, 10);
  const ctx = out?.context;
  const mem = app.doc?.memory;
  fill($('#rank-meta'), ctx ? [
    ctx.events || ctx.chunks ? `From your ${ctx.events} recent action${ctx.events === 1 ? '' : 's'}${ctx.chunks ? ` and ${ctx.chunks} preference${ctx.chunks === 1 ? '' : 's'}` : ''}` : 'The most popular games, until you act on some',
    $('#platform').value ? `, ${$('#platform').value} only` : '',
    h('span', { class: 'detail' }, ` · ${out.ranker} ranker, ${app.rankerInfo?.source}${out.llm_calls ? ` · ${out.llm_calls} LLM calls` : ' · no LLM'}`),
  ] : '');
  if (list.length === 0) {
    fill($('#recs'), h('li', { class: 'muted' }, 'Nothing to recommend: no game left for this platform.'));
    return;
  }
  fill($('#recs'), list.map((r, i) => {
    const it = app.catalog.get(r.id);
    const why = reasons(r, { item: it, events: mem?.events, chunks: mem?.chunks, tombstones: mem?.tombstones, itemOf: (id) => app.catalog.get(id), meets: r.meets });
    return h('li', { dataset: { item: r.id } },
      h('span', { class: 'rank-no' }, `${i + 1}.`),
      h('div', {},
        h('div', { class: 'item-title' }, it?.title ?? r.id, r.editions ? h('small', { class: 'editions' }, ` +${r.editions} other edition${r.editions > 1 ? 's' : ''}`) : ''),
        r.meets?.length ? h('div', { class: 'meets' }, r.meets.join(' · ')) : '',
        h('div', { class: 'why' }, why.join(' · ')),
        h('div', { class: 'explain detail', title: explanationTree(r.explanation) }, explanation(r))));
  }));
  if (app.firstRecsMs === null) app.firstRecsMs = app.phases.firstRecs = performance.now();
}

// explanationTree is the ranker's whole explanation as indented lines (shown
// on hover, with the details).
function explanationTree(e, depth = 0) {
  if (!e) return '';
  const line = `${'  '.repeat(depth)}${Number(e.value).toFixed(3)}  ${e.message}`;
  return [line, ...(e.children ?? []).map((c) => explanationTree(c, depth + 1))].join('\n');
}

// explanation is the figures behind the words (shown with the details): the
// score and the features that added most to it.
export function explanation(r) {
  const kids = (r.explanation?.children ?? []).map((c) => ({ name: featureOf(c.message), v: c.value }))
    .filter((c) => c.v !== 0).sort((a, b) => Math.abs(b.v) - Math.abs(a.v)).slice(0, 4);
  const parts = kids.map((c) => `${c.name} ${c.v > 0 ? '+' : ''}${c.v.toFixed(2)}`);
  return `score ${Number(r.score).toFixed(2)}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

// ----- memory tiers -----

function renderMemory(app, doc) {
  const mem = doc?.memory;
  if (!mem) return;
  const p = mem.profile ?? {};
  $('#profile').textContent = p.text || ((mem.chunks ?? []).length
    ? 'Not written yet: it is written from your preferences after a few changes, or when you press “Rewrite the profile”.'
    : 'Nothing yet: act on a few games.');
  $('#profile').classList.toggle('muted', !p.text);
  fill($('#profile-meta'), p.version ? [`written ${fmtDay(p.time)}`, h('span', { class: 'detail' }, ` · version ${p.version}`)] : '');

  const chunks = [...(mem.chunks ?? [])].sort((a, b) => b.strength - a.strength || a.category.localeCompare(b.category));
  $('#chunks-meta').textContent = chunks.length ? `${chunks.length}` : '';
  fill($('#chunks'), chunks.length ? chunks.map((c) => chunkRow(app, c)) : h('li', { class: 'muted' }, 'None yet. They are learned from your actions every few actions, or add one above.'));
  const gone = mem.tombstones ?? [];
  fill($('#deleted'), gone.length ? ['Deleted by you, not brought back by past actions: ', gone.map((t) => `“${t.text}”`).join(', ')] : '');

  const events = [...(mem.events ?? [])].reverse();
  const pending = events.filter((e) => e.pending).length;
  fill($('#events-meta'), events.length ? [`the last ${events.length}`, pending ? `, ${pending} not yet read into preferences` : '',
    h('span', { class: 'detail' }, ` · ${events.length} of ${mem.config?.event_cap ?? '?'} kept, ${pending} pending`)] : '');
  fill($('#events'), events.length ? [] : h('li', { class: 'muted' }, 'None yet: like, buy, dislike or rate a game.'), events.map((e) => h('li', { dataset: { event: e.id } },
    h('span', { class: 'op' }, e.action === 'rate' ? `rated ${e.rating}` : ACTION_WORDS[e.action] ?? e.action), ' ',
    app.catalog.get(e.item)?.title ?? e.meta?.title?.[0] ?? e.item,
    h('span', { class: 'meta detail' }, ` · ${e.id} · ${fmtTime(e.time)}${e.pending ? ' · pending' : ''}`))));

  const texts = new Map([...(mem.chunks ?? []).map((c) => [c.id, c.text]), ...gone.map((t) => [t.chunk, t.text])]);
  for (const j of mem.journal ?? []) {
    // A chunk's earlier text, from the entry that made it.
    if (j.op === 'extract' && j.chunks?.length && !texts.has(j.chunks[0])) {
      const m = /for \S+ "(.+)"$/.exec(j.reason ?? '');
      if (m) texts.set(j.chunks[0], m[1]);
    }
  }
  const journal = [...(mem.journal ?? [])].reverse().map((j) => [j, journalSentence(j, texts)]).filter(([, s]) => s).slice(0, 60);
  fill($('#journal'), journal.length ? [] : h('li', { class: 'muted' }, 'Nothing yet.'), journal.map(([j, sentence]) => h('li', { dataset: { op: j.op, trigger: j.trigger } },
    sentence,
    h('div', { class: 'meta detail' }, `${j.op} · ${j.trigger}${j.before !== undefined || j.after !== undefined ? ` · ${j.before ?? '–'} → ${j.after ?? '–'}` : ''} · ${j.reason}`))));
}

const ACTION_WORDS = { like: 'liked', purchase: 'bought', dislike: 'disliked', click: 'opened', view: 'viewed', skip: 'skipped' };

// fmtDay shows unix seconds as a date a person reads ("12 Jun 2024").
function fmtDay(sec) {
  if (!Number.isFinite(sec) || sec <= 0) return '';
  return new Date(sec * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function chunkRow(app, c) {
  const neg = c.polarity === 'avoids';
  const canEdit = app.engine.has('apply_ops');
  const n = c.evidence;
  return h('li', { dataset: { chunk: c.id } },
    h('div', { class: 'chunk-head' },
      h('span', {}, h('span', { class: neg ? 'tag neg' : 'tag' }, neg ? 'avoid' : c.category.replace(/_/g, ' ')), c.text),
      h('span', { class: 'actions' },
        h('button', { disabled: !canEdit, dataset: { do: 'edit' }, onclick: () => openEdit(app, c) }, 'Edit'),
        h('button', { disabled: !canEdit, dataset: { do: 'delete' }, onclick: () => act('delete preference', () => deleteChunk(app, c)) }, 'Delete'))),
    bar(c.strength, neg),
    h('div', { class: 'meta' }, `${strengthWords(c)}${c.stated ? '' : ` · from ${n === 1 ? 'one action' : `${n} actions`}`} · last seen ${fmtDay(c.last_seen)}`,
      h('span', { class: 'detail' }, ` · ${c.category} · strength ${Number(c.strength).toFixed(2)} · evidence ${c.evidence}${c.events?.length ? ` · events ${c.events.join(', ')}` : ''}`)));
}

function openEdit(app, c) {
  const dlg = $('#edit-chunk');
  $('#edit-text').value = c.text;
  $('#edit-strength').value = String(c.strength);
  dlg.onclose = () => {
    if (dlg.returnValue !== 'save') return;
    const text = $('#edit-text').value.trim();
    const strength = Number($('#edit-strength').value);
    act('edit preference', () => editChunk(app, c, text, strength));
  };
  dlg.returnValue = '';
  dlg.showModal();
}
