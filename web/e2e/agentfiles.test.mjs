// The dialogue-file parser of the agent view, run in Node on the hand-made
// fixtures (no browser needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDialogFile, dialogChoices, isoDate } from '../app/agentfiles.js';
import { exampleConversation } from '../app/example.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name) => readFileSync(path.join(root, 'testdata/web', name), 'utf8');

test('isoDate reads LoCoMo and LongMemEval dates', () => {
  assert.equal(isoDate('1:56 pm on 8 May, 2023'), '2023-05-08');
  assert.equal(isoDate('2023/05/20 (Sat) 02:21'), '2023-05-20');
  assert.equal(isoDate('10:02 am on 21 March, 2023'), '2023-03-21');
  assert.equal(isoDate('someday'), '');
});

test('a LoCoMo file becomes turns with sessions, dates and speakers', () => {
  const r = parseDialogFile(fixture('locomo-mini.json'));
  assert.equal(r.format, 'LoCoMo');
  assert.equal(r.units.length, 12);
  assert.deepEqual(r.units[5], {
    id: 'D2:2', session: 'session_2', kind: 'turn', speaker: 'Ana', date: '10:02 am on 21 March, 2023', time: '2023-03-21',
    text: 'Messy but fun! I made a lopsided bowl and painted it blue. [shares a photo of a small blue bowl]',
  });
  assert.equal(r.questions[0].question, 'What colour did Ana paint her first bowl?');
});

test('a LongMemEval file becomes the haystack turns of its question', () => {
  const r = parseDialogFile(fixture('longmemeval-mini.json'));
  assert.equal(r.format, 'LongMemEval');
  assert.equal(r.units.length, 6);
  assert.deepEqual(r.units[4], {
    id: 's-c:1', session: 's-c', kind: 'turn', speaker: 'user', date: '2023/06/14 (Wed) 20:05', time: '2023-06-14',
    text: 'The startup is based in Portugal, so I moved to Lisbon last week. The light here is amazing.',
  });
  assert.equal(r.questions[0].answer, 'Lisbon');
});

test('files in neither shape are refused with a clear message', () => {
  assert.throws(() => parseDialogFile('{'), /not JSON/);
  assert.throws(() => parseDialogFile('[]'), /empty list/);
  assert.throws(() => parseDialogFile('[{"nothing": 1}]'), /not a LoCoMo file .* nor a LongMemEval file/);
  assert.throws(() => parseDialogFile('[{"conversation": {"session_1": [{"speaker": "A"}]}}]'), /session_1\[0\]\.text: missing/);
});

test('a file of several conversations lists them to choose from, and one is read', () => {
  const text = fixture('locomo-two.json');
  const { format, choices } = dialogChoices(text);
  assert.equal(format, 'LoCoMo');
  assert.deepEqual(choices, [
    { index: 0, label: 'two-1 (Rosa and Ivan, 5 turns)' },
    { index: 1, label: 'two-2 (Noor and Eli, 6 turns)' },
  ]);
  const r = parseDialogFile(text, 1);
  assert.equal(r.name, 'two-2');
  assert.equal(r.units.length, 6);
  assert.equal(r.units[0].speaker, 'Noor');
  // A LoCoMo question is asked as of the conversation's last session.
  assert.equal(r.questions[1].date, '7:05 pm on 3 June, 2023');
  assert.deepEqual(dialogChoices(fixture('longmemeval-mini.json')).choices, [
    { index: 0, label: 'lme-mini-1: Which city did I move to after I changed jobs?' },
  ]);
  assert.throws(() => dialogChoices('[{"nothing": 1}]'), /not a LoCoMo file/);
});

test('the built-in example conversation reads as a LoCoMo file, its questions dated at its last chat', () => {
  const r = parseDialogFile(exampleConversation());
  assert.equal(r.format, 'LoCoMo');
  assert.equal(r.name, 'example');
  assert.equal(new Set(r.units.map((u) => u.session)).size, 6);
  assert.equal(r.units.length, 33);
  assert.ok(r.units.every((u) => u.date && u.time && u.speaker), 'every turn has a date and a speaker');
  assert.equal(r.questions[0].question, "Which day is Maya's pottery class now?");
  assert.equal(isoDate(r.questions[0].date), '2024-06-08');
  // Every evidence id names a turn of the example.
  const ids = new Set(r.units.map((u) => u.id));
  for (const q of r.questions) for (const e of q.evidence) assert.ok(ids.has(e), `${q.question}: ${e}`);
});
