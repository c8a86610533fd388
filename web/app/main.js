// main.js: the recmem page. Loads the module, restores the memory saved in
// IndexedDB, and wires the three views (games, agent memory, your data).
// Every number the page shows comes from the module; the page only calls
// exports and renders their JSON.
import { Engine } from './engine.js';
import * as store from './store.js';
import { $ } from './dom.js';
import { app, refresh, setStatus, showError } from './core.js';
import { initGames } from './games.js';
import { initAgent } from './agent.js';
import { initSettings, llmAnswer, llmOptions } from './settings.js';

function initTabs() {
  const tabs = [...document.querySelectorAll('nav [role=tab]')];
  const show = (name) => {
    for (const t of tabs) t.setAttribute('aria-selected', String(t.dataset.tab === name));
    for (const s of document.querySelectorAll('main > .tab')) s.hidden = s.id !== `tab-${name}`;
  };
  for (const t of tabs) t.addEventListener('click', () => { show(t.dataset.tab); history.replaceState(null, '', `${location.search}#${t.dataset.tab}`); });
  const start = location.hash.slice(1);
  if (tabs.some((t) => t.dataset.tab === start)) show(start);
}

// initDetails wires "Show details": the figures behind the page's words
// (scores, strengths, event ids, the journal's ops), hidden until asked for.
function initDetails() {
  const box = $('#show-details');
  box.addEventListener('change', () => document.body.classList.toggle('details', box.checked));
  document.body.classList.toggle('details', box.checked);
}

async function main() {
  initTabs();
  initDetails();
  // The demo catalog's files are fetched while the module compiles.
  const json = (url) => fetch(url).then((r) => { if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`); return r.json(); });
  const trained = new URLSearchParams(location.search).get('catalog') === 'trained';
  app.prefetched = { demo: fetch('catalog/games-demo.json') };
  if (!trained) {
    app.prefetched.ranker = json('catalog/games-ranker.json');
    app.prefetched.intent = json('catalog/games-intent.json');
    app.prefetched.ranker.catch(() => {});
    app.prefetched.intent.catch(() => {});
  }
  let settings = {};
  try {
    settings = (await store.get('settings')) ?? {};
  } catch (err) {
    showError(`This browser's storage (IndexedDB) is not available, so your memory will not survive a reload: ${err?.message ?? err}`);
  }
  app.settings = settings;
  let opened;
  try {
    opened = await Engine.open({ llm: llmAnswer(() => app.settings), ...llmOptions(settings) });
  } catch (err) {
    setStatus('The module did not load.');
    showError(`Could not load the module (out/plugin.wasm): ${err.message}`);
    return;
  }
  app.engine = opened.engine;
  app.phases.module = performance.now();
  if (opened.restored?.error) {
    showError(`Your saved memory could not be restored: ${opened.restored.error}. Nothing was lost: it is kept in this browser's storage (IndexedDB "recmem", key "${opened.restored.kept}"), apart from the new memory this page starts. "Your data & settings" has a button to download it; "Forget me" there deletes it.`);
  }
  await Promise.all([initGames(app), initAgent(app), initSettings(app)]);
  await refresh();
  app.loadMs = performance.now();
  setStatus(`Ready in ${app.loadMs.toFixed(0)} ms · ${opened.restored && !opened.restored.error ? `memory restored from this browser (${opened.restored.ms.toFixed(0)} ms)` : 'new memory'}`);
  $('#timing').textContent = `first load ${app.loadMs.toFixed(0)} ms`;
  document.body.dataset.ready = 'true';
}

main().catch((err) => {
  console.error(err);
  showError(`The page failed to start: ${err.message}`);
});
