// instruct.js: how the page shows what the module understood of the user's
// instruction (rank's "understood", "kept" and "relaxed"): removable chips
// under the instruction box, the words not understood, "nothing matches"
// said plainly, and an offer to keep an exclusion as a standing "avoids"
// preference (the memory's journaled user op "avoid"). Also the collapse of
// near-duplicate editions in the shown list.
import { $, h, fill } from './dom.js';

const KINDS = [['only', 'only'], ['exclude', 'not'], ['prefer', 'prefer'], ['avoid', 'avoid']];

// label is how a clause is shown: the value; the typed words for a title
// phrase (its corrected words for a typo); a number facet and its range (as
// pkg/intent's Clause.Label).
export function label(c) {
  if (c.facet === 'title') return c.how === 'typo' ? c.value : c.text;
  if (numeric(c)) return `${c.facet} ${c.value}`;
  return c.value;
}

// numeric reports whether a clause is a range of a number facet (as
// pkg/intent's Clause.Numeric): grounded from a number, or a range the
// language model read.
export const numeric = (c) => c.how === 'number' || c.min != null || c.max != null;

// HOW says, on a chip, how its words were grounded when it was not as typed.
const HOW = {
  alias: (c) => `from “${c.text}”`,
  synonym: (c) => `“${c.text}” means it`,
  typo: (c) => `read “${c.text}” as a typo`,
  inferred: () => 'inferred from titles, may miss some',
  implied: (c) => (c.text ? `implied by “${c.text}”` : 'no kind named'),
  partial: (c) => `“${c.text}” is part of the name`,
  llm: (c) => `“${c.text}” read by the language model`,
};

// groups folds the clauses of one kind that one phrase named ("not
// Nintendo": eleven platforms) into one entry, in order.
export function groups(cs) {
  const out = [];
  const byGroup = new Map();
  cs.forEach((c, i) => {
    if (c.group && byGroup.has(c.group)) {
      byGroup.get(c.group).items.push({ c, i });
      return;
    }
    const g = { label: c.group || label(c), items: [{ c, i }] };
    if (c.group) byGroup.set(c.group, g);
    out.push(g);
  });
  return out;
}

// canonicalInstruction writes an understood intent back as an instruction
// the interpreter reads the same way: the page puts it in the box when a
// chip is removed. Words that were not understood are left out (they are
// shown, never acted on as a match).
export function canonicalInstruction(u) {
  const parts = [];
  // One "only" sentence: the interpreter groups its values by facet itself
  // (either of one facet, all facets at once), as the user's words did.
  const only = [...new Set(groups(u.only ?? []).map((g) => g.label))];
  if (only.length) parts.push(`only ${only.join(' or ')}`);
  for (const g of groups(u.exclude ?? [])) parts.push(`not ${g.label}`);
  for (const g of groups(u.prefer ?? [])) parts.push(`preferably ${g.label}`);
  for (const g of groups(u.avoid ?? [])) parts.push(`less ${g.label}`);
  return parts.join('. ');
}

// without returns the understood intent less some clauses of one kind.
function without(u, kind, indexes) {
  const v = structuredClone(u);
  v[kind] = v[kind].filter((_, i) => !indexes.includes(i));
  return v;
}

// renderUnderstood fills #understood from rank's output. onInstruction(text)
// is called with the rewritten instruction when a chip is removed;
// onAvoid(clause) when the user keeps an exclusion for next time.
export function renderUnderstood(out, { onInstruction, onAvoid, canAvoid, avoided }) {
  const box = $('#understood');
  const u = out?.understood;
  if (!u) {
    fill(box);
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const chips = [];
  for (const [kind, word] of KINDS) {
    for (const g of groups(u[kind] ?? [])) {
      const c = g.items[0].c;
      const n = g.items.length;
      const text = n > 1 ? `${word}: ${g.label} (${n})` : `${word}: ${g.label}`;
      const how = HOW[c.how]?.(c);
      const title = n > 1 ? `${g.items.map((x) => label(x.c)).join(', ')} (from “${c.text}”)` : (c.detail || `${c.facet}: ${c.value} (from “${c.text}”)`);
      chips.push(h('span', { class: `chip ${kind}`, dataset: { kind, facet: c.facet, value: c.value, how: c.how ?? '', count: String(n) }, title },
        text, how ? h('small', { class: 'how' }, ` · ${how}`) : '',
        h('button', { class: 'chip-x', 'aria-label': `remove ${text}`, onclick: () => onInstruction(canonicalInstruction(without(u, kind, g.items.map((x) => x.i)))) }, '×')));
    }
  }
  for (const w of u.unknown ?? []) {
    const hint = (u.hints ?? []).includes(w);
    chips.push(h('span', { class: 'chip unknown', dataset: { kind: 'unknown' },
      title: hint ? 'not found in this catalog: used only as a hint (word similarity), never as a match' : 'not found in this catalog: not used' },
    `not understood: ${w}${hint ? ' (a hint)' : ''}`));
  }
  const lines = [];
  if ((out.relaxed ?? []).length > 0) {
    lines.push(h('p', { class: 'nothing', dataset: { relaxed: 'true' } },
      `Nothing matches all of your instruction. ${out.relaxed.map((r) => `Dropped “${r.constraint === 'only' ? 'only' : 'not'} ${r.value}”`).join('; ')}, so the list below does not meet it.`));
  } else if (out.kept === 0) {
    lines.push(h('p', { class: 'nothing' }, 'Nothing matches your instruction.'));
  } else if (Number.isFinite(out.kept) && out.kept < 10 && (u.only.length || u.exclude.length)) {
    lines.push(h('p', { class: 'muted', dataset: { kept: String(out.kept) } }, `${out.kept} item${out.kept === 1 ? '' : 's'} match${out.kept === 1 ? 'es' : ''}.`));
  }
  for (const c of u.conflicts ?? []) lines.push(h('p', { class: 'conflict' }, c));
  for (const n of u.notes ?? []) lines.push(h('p', { class: 'muted' }, n));
  // One offer per phrase: "Always avoid Nintendo" keeps all its values. A
  // number range is not a preference the memory can keep.
  const offers = canAvoid ? groups((u.exclude ?? []).filter((c) => !numeric(c))).filter((g) => g.items.some((x) => !avoided(x.c))).map((g) =>
    h('button', { class: 'offer', dataset: { avoid: g.items[0].c.value, count: String(g.items.length) },
      onclick: () => g.items.filter((x) => !avoided(x.c)).reduce((p, x) => p.then(() => onAvoid(x.c)), Promise.resolve()) }, `Always avoid ${g.label}`)) : [];
  if (offers.length) lines.push(h('p', { class: 'offers' }, 'Keep for next time: ', offers));
  fill(box, chips.length ? h('div', { class: 'chips' }, chips) : h('p', { class: 'muted' }, 'Understood: nothing to act on.'), lines);
}

// editionKey is a title with what tells editions of one game apart removed:
// the platform suffix, bracketed notes and edition words. "Halo 3", "Halo 3 -
// Xbox 360" and "Halo 3 Limited Edition" share one key.
export function editionKey(title) {
  let t = String(title).toLowerCase();
  const dash = t.lastIndexOf(' - ');
  if (dash > 0) t = t.slice(0, dash);
  return t.replace(/\(.*?\)|\[.*?\]/g, ' ')
    .replace(/\b(limited|collector'?s|standard|special|deluxe|legendary|gold|complete|game of the year|goty|day one|launch|premium|ultimate|anniversary|definitive)\s+edition\b/g, ' ')
    .replace(/\b(greatest hits|platinum hits|player'?s choice|nintendo selects|essentials|physical disc|digital code|pre-?load)\b/g, ' ')
    .replace(/\b(playstation ?[2-4]|ps[2-4]|xbox( one| 360)?|nintendo (wii u|wii|3ds|ds|switch)|wii u|wii|pc)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ').trim();
}

// collapseEditions keeps the best-ranked edition of each game and the first
// k games, noting on each how many other editions were folded into it.
export function collapseEditions(ranking, titleOf, k) {
  const seen = new Map();
  const out = [];
  for (const r of ranking) {
    const key = editionKey(titleOf(r.id) ?? r.id) || r.id;
    if (seen.has(key)) {
      seen.get(key).editions += 1;
      continue;
    }
    const x = { ...r, editions: 0 };
    seen.set(key, x);
    if (out.length < k) out.push(x);
  }
  return out;
}
