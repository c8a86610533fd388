// agentfiles.js: reads LoCoMo and LongMemEval JSON files into memory units
// ({id, session, date, time, speaker, text, kind}), the shape add_units takes.
// Parsing happens in the page; a file in neither shape is an Error whose
// message says what was expected.

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

// isoDate turns "1:56 pm on 8 May, 2023" (LoCoMo) or "2023/05/20 (Sat) 02:21"
// (LongMemEval) into "2023-05-08"; "" when it cannot.
export function isoDate(s) {
  if (typeof s !== 'string') return '';
  let m = s.match(/(\d{4})[/-](\d{1,2})[/-](\d{1,2})/);
  if (m) return `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  m = s.match(/(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/);
  if (m) {
    const mon = MONTHS.findIndex((x) => x.startsWith(m[2].toLowerCase().slice(0, 3)));
    if (mon >= 0) return `${m[3]}-${String(mon + 1).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  }
  return '';
}

// parseDialogFile returns {format, units, questions, conversations} for the
// text (or the already parsed JSON) of a LoCoMo or LongMemEval file.
// conversation picks one LoCoMo conversation or LongMemEval question
// (default 0).
export function parseDialogFile(text, conversation = 0) {
  const [format, list] = dialogList(text);
  return format === 'LoCoMo' ? parseLoCoMo(list, conversation) : parseLongMemEval(list, conversation);
}

// dialogChoices lists what a file holds, for the page to offer a choice when
// there are several: {format, choices: [{index, label}]}, a LoCoMo
// conversation labelled by its id, speakers and turns, a LongMemEval
// question by its id and text.
export function dialogChoices(text) {
  const [format, list] = dialogList(text);
  const choices = list.map((c, index) => {
    if (!c || typeof c !== 'object') return { index, label: `item ${index + 1}` };
    if (format === 'LoCoMo') {
      const conv = c.conversation ?? {};
      const turns = Object.keys(conv).filter((k) => /^session_\d+$/.test(k)).reduce((n, k) => n + (Array.isArray(conv[k]) ? conv[k].length : 0), 0);
      const who = [conv.speaker_a, conv.speaker_b].filter((x) => typeof x === 'string').join(' and ');
      return { index, label: `${c.sample_id ?? `conversation ${index + 1}`} (${who ? `${who}, ` : ''}${turns} turns)` };
    }
    const q = typeof c.question === 'string' ? c.question : '';
    return { index, label: `${c.question_id ?? `question ${index + 1}`}${q ? `: ${q.length > 60 ? `${q.slice(0, 57)}...` : q}` : ''}` };
  });
  return { format, choices };
}

// dialogList reads the file's list and tells its format, or throws saying
// what was expected.
function dialogList(text) {
  let data = text;
  if (typeof text === 'string') {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`not JSON: ${err.message}`);
    }
  }
  const list = Array.isArray(data) ? data : [data];
  if (list.length === 0) throw new Error('the file holds an empty list');
  const first = list[0];
  if (first && typeof first === 'object' && first.conversation && typeof first.conversation === 'object') return ['LoCoMo', list];
  if (first && typeof first === 'object' && Array.isArray(first.haystack_sessions)) return ['LongMemEval', list];
  throw new Error('not a LoCoMo file (objects with "conversation") nor a LongMemEval file (objects with "haystack_sessions")');
}

function pick(list, i, what) {
  const n = Math.max(0, Math.min(list.length - 1, i | 0));
  const v = list[n];
  if (!v || typeof v !== 'object') throw new Error(`${what} ${n}: not an object`);
  return [v, n];
}

function parseLoCoMo(list, i) {
  const [c, n] = pick(list, i, 'conversation');
  const conv = c.conversation;
  const units = [];
  const sessions = Object.keys(conv).filter((k) => /^session_\d+$/.test(k))
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
  if (sessions.length === 0) throw new Error(`conversation ${n}: no session_N lists`);
  let lastDate = '';
  for (const s of sessions) {
    const turns = conv[s];
    if (!Array.isArray(turns)) throw new Error(`conversation ${n}.${s}: not a list of turns`);
    const date = typeof conv[`${s}_date_time`] === 'string' ? conv[`${s}_date_time`] : '';
    if (isoDate(date)) lastDate = date;
    turns.forEach((t, j) => {
      if (!t || typeof t.text !== 'string') throw new Error(`conversation ${n}.${s}[${j}].text: missing`);
      let text = t.text;
      if (typeof t.blip_caption === 'string' && t.blip_caption) text += ` [shares ${t.blip_caption}]`;
      units.push(unit(t.dia_id || `${s}:${j + 1}`, s, date, isoDate(date), t.speaker, text));
    });
  }
  const questions = (Array.isArray(c.qa) ? c.qa : [])
    .filter((q) => q && typeof q.question === 'string')
    .map((q) => ({ question: q.question, answer: q.answer ?? q.adversarial_answer ?? '', evidence: q.evidence ?? [], date: lastDate }));
  return { format: 'LoCoMo', name: c.sample_id || `conversation ${n}`, units, questions, conversations: list.length, index: n };
}

function parseLongMemEval(list, i) {
  const [q, n] = pick(list, i, 'question');
  const ids = Array.isArray(q.haystack_session_ids) ? q.haystack_session_ids : [];
  const dates = Array.isArray(q.haystack_dates) ? q.haystack_dates : [];
  const units = [];
  q.haystack_sessions.forEach((sess, si) => {
    if (!Array.isArray(sess)) throw new Error(`question ${n}.haystack_sessions[${si}]: not a list of turns`);
    const sid = String(ids[si] ?? `session_${si + 1}`);
    const date = typeof dates[si] === 'string' ? dates[si] : '';
    sess.forEach((t, j) => {
      if (!t || typeof t.content !== 'string') throw new Error(`question ${n}.haystack_sessions[${si}][${j}].content: missing`);
      units.push(unit(`${sid}:${j + 1}`, sid, date, isoDate(date), t.role, t.content));
    });
  });
  const questions = list.filter((x) => x && typeof x.question === 'string')
    .map((x) => ({ question: x.question, answer: x.answer ?? '', date: x.question_date ?? '', evidence: x.answer_session_ids ?? [] }));
  // The chosen question first: its haystack is the one loaded.
  if (typeof q.question === 'string') questions.unshift(questions.splice(questions.findIndex((x) => x.question === q.question), 1)[0]);
  return { format: 'LongMemEval', name: q.question_id || `question ${n}`, units, questions, conversations: list.length, index: n };
}

function unit(id, session, date, time, speaker, text) {
  const u = { id: String(id), session: String(session), text: String(text).trim(), kind: 'turn' };
  if (date) u.date = date;
  if (time) u.time = time;
  if (speaker) u.speaker = String(speaker);
  return u;
}
