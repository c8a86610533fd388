// The page's reasons in words (web/app/words.js): an event behind a liking
// the person deleted is no reason any more ("because you bought Mario Kart
// 8" under a list the deletion of "Prefers Nintendo Wii U" steered), as
// the ranker no longer reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletedEvidence, likedEvent } from '../app/words.js';

const items = {
  mk8: { title: 'Mario Kart 8 - Nintendo Wii U', series: 'Mario Kart', platform: 'Nintendo Wii U' },
  mkds: { title: 'Mario Kart DS', series: 'Mario Kart', platform: 'Nintendo DS' },
  mk7: { title: 'Mario Kart 7', series: 'Mario Kart', platform: 'Nintendo 3DS' },
};
const itemOf = (id) => items[id];
const ev = (n, item) => ({ id: `e${n}`, item, action: 'purchase' });
const wiiU = { category: 'platform', key: 'nintendo wii u', aliases: [], polarity: 'likes', before: 3, text: 'Prefers Nintendo Wii U' };

test('deletedEvidence: about the deleted liking and older than the deletion', () => {
  for (const [name, e, tombstones, want] of [
    ['a Wii U purchase before the deletion', ev(1, 'mk8'), [wiiU], true],
    ['the same game bought after it: new evidence', ev(3, 'mk8'), [wiiU], false],
    ['another platform', ev(2, 'mkds'), [wiiU], false],
    ['a deleted avoidance is not a liking', ev(1, 'mk8'), [{ ...wiiU, polarity: 'avoids' }], false],
    ['an alias names it', ev(1, 'mkds'), [{ ...wiiU, key: 'nintendo', aliases: ['nintendo ds'] }], true],
    ['no tombstone', ev(1, 'mk8'), undefined, false],
  ]) {
    assert.equal(deletedEvidence(e, itemOf(e.item), tombstones), want, name);
  }
});

test('likedEvent skips the evidence of a deleted liking', () => {
  const events = [ev(1, 'mkds'), ev(2, 'mk8')]; // Mario Kart 8 is the latest
  assert.equal(likedEvent(items.mk7, events, itemOf)?.title, 'Mario Kart 8 - Nintendo Wii U');
  assert.equal(likedEvent(items.mk7, events, itemOf, [wiiU])?.title, 'Mario Kart DS');
  assert.equal(likedEvent(items.mk7, [ev(2, 'mk8')], itemOf, [wiiU]), null);
});
