// words.js: what the games view says in words a person reads. The module's
// outputs carry figures (scores, feature contributions, strengths, journal
// ops); these functions turn them into short sentences ("because you liked
// Halo 3", "popular with players", "Learned that you prefer Nintendo Wii
// U"), and the page shows the figures only behind its "Show details" toggle.
// Pure functions of their arguments, so a test can read them without a
// browser.

// FEATURE_GROUPS maps each ranker feature (pkg/rank.Features) to the kind of
// reason it is.
const FEATURE_GROUPS = {
  collaborative: 'history', transition: 'history', transition_log: 'history', cooccurrence: 'history',
  cooccurrence_log: 'history', sequential: 'history', history_text: 'history', history_dense: 'history',
  preference: 'memory', memory_text: 'memory', memory_dense: 'memory',
  profile_text: 'profile', profile_dense: 'profile',
  popularity: 'popular', recent_popularity: 'recent', novelty: 'new',
  instruction: 'asked', instruction_dense: 'asked',
};

// featureOf names the part of the score an explanation child is: its
// feature, or the instruction's tier and penalty, or a shift that places
// the item after others (variety, a stated avoidance).
export function featureOf(message) {
  if (message.startsWith('instruction: ')) return 'instruction_tier';
  if (message.startsWith('instruction, not wanted')) return 'instruction_not';
  if (message.startsWith('the user said') && message.endsWith('shown first')) return 'stated';
  if (message.startsWith('the user said')) return 'avoided';
  if (message.includes('shown after the others')) return 'variety';
  return (message.match(/^[a-z_]+/) ?? [message])[0];
}

// keyOf normalizes a value as the memory keys it ("Assassin's Creed" ->
// "assassins creed"), close enough to match an item's series or platform
// to a chunk's key.
export function keyOf(s) {
  return String(s ?? '').toLowerCase().replace(/['\u2019]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

const VERBS = { like: 'liked', purchase: 'bought', rate: 'rated' };

// NOT_NAMES are title words that name no game: platforms, listing words.
const NOT_NAMES = new Set(('the of and for with edition game games nintendo wii xbox playstation ps2 ps3 ps4 one 360 pc ' +
  'ds 3ds switch gamecube standard deluxe limited pack bundle set controller black white digital code version super').split(' '));

// nameWords are the words of a title that name the game.
const nameWords = (t) => keyOf(t).split(' ').filter((w) => w.length > 2 && !NOT_NAMES.has(w) && !/^\d+$/.test(w));

// deletedEvidence reports whether an event was the evidence of a liking the
// person deleted (a tombstone: the event numbered below its "before", its
// item about the tombstone's key or aliases), which the ranker no longer
// reads. m is the event's item as likedEvent sees it.
export function deletedEvidence(e, m, tombstones) {
  const n = Number(/^e(\d+)$/.exec(e?.id ?? '')?.[1]);
  return (tombstones ?? []).some((t) => t.polarity === 'likes' && n < t.before &&
    [t.key, ...(t.aliases ?? [])].includes(keyOf(m?.[t.category])));
}

// likedEvent is the user's event an item is most like, as a reader would
// see it: the most recent liked or bought item of its series, else the one
// whose title shares the most words that name a game with it ("Mario" of
// "Super Mario Maker" and "Super Mario 3D World"); null when none shares
// one (a platform alone is the memory's reason, not an event's). events are
// the memory's (oldest first), itemOf maps an id to the demo item; an
// event behind a deleted liking (tombstones, deletedEvidence) is no reason.
export function likedEvent(item, events, itemOf, tombstones) {
  const meta = (e) => itemOf(e.item) ?? { title: e.meta?.title?.[0], series: e.meta?.series?.[0], platform: e.meta?.platform?.[0] };
  const liked = [...(events ?? [])].reverse().filter((e) => (e.action === 'like' || e.action === 'purchase' || (e.action === 'rate' && e.rating >= 4)) &&
    !deletedEvidence(e, meta(e), tombstones));
  const series = keyOf(item?.series);
  let e = series ? liked.find((x) => keyOf(meta(x).series) === series) : undefined;
  if (!e) {
    const words = new Set(nameWords(item?.title));
    let best = 0;
    for (const x of liked) {
      const n = nameWords(meta(x).title).filter((w) => words.has(w)).length;
      if (n > best) [e, best] = [x, n];
    }
  }
  if (!e) return null;
  return { title: meta(e).title ?? e.item, verb: VERBS[e.action] ?? 'liked', rating: e.rating };
}

// chunkFor is the preference of the memory an item is about (its series,
// then its platform), or null.
export function chunkFor(item, chunks) {
  for (const v of [item?.series, item?.platform, item?.kind]) {
    const k = keyOf(v);
    if (!k) continue;
    const c = (chunks ?? []).find((x) => x.polarity === 'likes' && (x.key === k || (x.aliases ?? []).includes(k)));
    if (c) return c;
  }
  return null;
}

// reasons turns a ranked item's explanation into at most two reasons in
// words, the parts that added most to its score first. ctx: {item, events,
// chunks, itemOf, meets, tombstones}.
export function reasons(r, ctx) {
  const parts = new Map(); // group -> summed contribution
  let said = null; // the text of a stated liking that puts the item first
  for (const c of r.explanation?.children ?? []) {
    const f = featureOf(c.message);
    const g = f === 'instruction_tier' ? 'asked' : (f === 'stated' ? 'stated' : FEATURE_GROUPS[f]);
    if (!g || !(c.value > 0)) continue;
    if (g === 'stated') said = /"(.+)"/.exec(c.message)?.[1] ?? null;
    parts.set(g, (parts.get(g) ?? 0) + c.value);
  }
  ctx = { ...ctx, said };
  if (!ctx.events?.length) parts.delete('new'); // everything is new to a new user
  if (parts.has('memory')) parts.delete('profile'); // the profile says what the preferences say
  if (parts.has('stated')) parts.delete('memory'); // the same preference, said by the user
  const out = [];
  // What is about the person comes first, then what is about everyone.
  const general = (g) => (g === 'popular' || g === 'recent' || g === 'new' ? 1 : 0);
  for (const [g] of [...parts].sort((a, b) => general(a[0]) - general(b[0]) || b[1] - a[1])) {
    const w = reasonWords(g, ctx);
    if (w && !out.includes(w)) out.push(w);
    if (out.length === 2) break;
  }
  return out.length ? out : ['popular with players'];
}

function reasonWords(group, { item, events, chunks, itemOf, meets, said, tombstones }) {
  switch (group) {
    case 'stated': return said ? `because you said you ${secondPerson(said)}` : 'because you said so';
    case 'history': {
      const e = likedEvent(item, events, itemOf, tombstones);
      if (!e) return 'close to your recent games';
      return e.verb === 'rated' ? `because you rated ${e.title} ${e.rating} stars` : `because you ${e.verb} ${e.title}`;
    }
    case 'memory': {
      const c = chunkFor(item, chunks);
      return c ? `because you ${secondPerson(c.text)}` : 'fits your preferences';
    }
    case 'profile': return 'fits your profile';
    case 'popular': return 'popular with players';
    case 'recent': return 'popular lately';
    case 'new': return 'new to you';
    case 'asked': return meets?.length ? `what you asked for: ${meets.join(', ')}` : 'close to what you asked for';
  }
  return null;
}

// secondPerson turns a preference's text into what "because you ..."
// continues with: "Prefers Nintendo Wii U" -> "prefer Nintendo Wii U",
// "Interested in racing" -> "are interested in racing".
export function secondPerson(text) {
  const t = String(text ?? '');
  for (const [from, to] of [['Interested in ', 'are interested in '], ['Prefers ', 'prefer '], ['Enjoys ', 'enjoy '],
    ['Likes ', 'like '], ['Loves ', 'love '], ['Avoids ', 'avoid ']]) {
    if (t.startsWith(from)) return to + t.slice(from.length);
  }
  return `said: ${lowerFirst(t)}`;
}

function lowerFirst(s) {
  const t = String(s ?? '');
  return /^[A-Z][a-z]/.test(t) ? t[0].toLowerCase() + t.slice(1) : t;
}

// strengthWords says how strong a preference is.
export function strengthWords(c) {
  if (c.stated) return c.polarity === 'avoids' && c.strength >= 1 ? 'you said so: not recommended' : 'you said so';
  const s = Number(c.strength);
  if (s >= 0.9) return 'very strong';
  if (s >= 0.7) return 'strong';
  if (s >= 0.5) return 'moderate';
  return 'weak';
}

// quoted puts a preference's text in quotes for a sentence.
const q = (t) => `“${t}”`;

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// journalSentence says in one sentence what a journal entry did to the
// memory. texts maps chunk ids to their texts (the chunks held now and the
// deleted ones); null for an entry not worth a line (a check that changed
// nothing).
export function journalSentence(j, texts) {
  const t = (j.chunks ?? []).map((id) => texts.get(id)).filter(Boolean);
  const first = t[0] ? q(t[0]) : 'a preference';
  const you = j.trigger === 'user';
  switch (j.op) {
    case 'extract': {
      if ((j.chunks ?? []).length > 0) return `Learned a new preference: ${first}${fromEvents(j)}.`;
      const m = /processed (\d+) pending events?: (\d+) created, (\d+) boosted, (\d+) demoted/.exec(j.reason ?? '');
      if (!m) return (j.events ?? []).length ? `Read ${plural(j.events.length, 'new action')}: nothing changed.` : null;
      const [, n, c, b, d] = m.map(Number);
      const what = [c && `${plural(c, 'new preference')}`, b && `${plural(b, 'preference')} strengthened`, d && `${plural(d, 'preference')} weakened`].filter(Boolean);
      return `Read your ${n === 1 ? 'latest action' : `${n} latest actions`}: ${what.length ? what.join(', ') : 'nothing new to learn'}.`;
    }
    case 'boost': return `${cap(first)} grew stronger${fromEvents(j)}.`;
    case 'demote': return /not seen for/.test(j.reason ?? '') ? `${cap(first)} faded: not seen for a while.` : `${cap(first)} grew weaker${fromEvents(j)}.`;
    case 'merge': return `Merged ${t.length > 1 ? t.slice(1).map(q).join(' and ') : 'a near-duplicate'} into ${first}.`;
    case 'forget': return you ? `You removed ${first}.` : `Forgot ${first}: it had grown too weak.`;
    case 'synthesize': return you ? 'Rewrote your profile, as you asked.' : (/user's edit/.test(j.reason ?? '') ? 'Rewrote your profile after your change.' : 'Rewrote your profile from your preferences.');
    case 'edit': return `You edited ${first}.`;
    case 'delete': return `You deleted ${first}: your past actions will not bring it back.`;
    case 'avoid': {
      const m = /never to be shown (.+?)(?: \(it was|$)/.exec(j.reason ?? '');
      return `You asked never to be shown ${m ? m[1] : first}.`;
    }
    case 'add': return `You said: ${first}.`;
    case 'evict': return `Let go of ${first} to make room for a stronger preference.`;
    case 'drop': return `Did not keep a new preference: the stronger ones fill its kind.`;
  }
  return j.reason ?? j.op;
}

function fromEvents(j) {
  const n = (j.events ?? []).length;
  if (n === 0) return '';
  return n === 1 ? ' (from one of your actions)' : ` (from ${n} of your actions)`;
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
