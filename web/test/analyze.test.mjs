// The page's analyzer (web/app/analyze.js) reads words as pkg/text does:
// every case of testdata/text/analyze.json, written by the Go analyzer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { key } from '../app/analyze.js';

const cases = JSON.parse(readFileSync(new URL('../../testdata/text/analyze.json', import.meta.url), 'utf8'));

test('the page folds, splits and normalizes words as the module does', () => {
  assert.ok(cases.length >= 20);
  for (const c of cases) assert.equal(key(c.in), c.key, JSON.stringify(c.in));
});
