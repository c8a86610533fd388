// The agent-memory view as a newcomer uses it: the built-in example
// conversation, its questions, a slate that says why each turn is there in
// the order the turns enter the context, a typed turn kept apart from the
// imported conversation, and a file of several conversations to choose from.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openPage, root, NOW, T } from './harness.mjs';

let page;
let pageErrors;
let close;
const results = path.join(root, 'web/test-results');

before(async () => {
  ({ page, pageErrors, close } = await openPage({ query: `?now=${NOW}#agent` }));
  await page.click('nav button[data-tab="agent"]');
  mkdirSync(results, { recursive: true });
});

after(async () => {
  await close?.();
});

// settle waits for the page's last action to finish (its timing line).
async function settle(action) {
  await page.waitForFunction((a) => window.recmem.timings.some((t) => t.action === a), action, { timeout: T });
}

const sourceSummary = (key) => page.locator(`#sources details[data-source="${key}"] summary`).textContent();

test('the example conversation loads with its questions, and a slate says why each turn is there', async () => {
  await page.click('#load-example');
  await settle('import dialogue');
  assert.match(await sourceSummary('import:example'), /Imported: example · 33 turns in 6 sessions/);
  assert.match(await page.locator('#dialog-file-meta').textContent(), /example: 33 turns in 6 sessions added/);
  // Its questions are offered; the first is filled in, dated at the last chat.
  assert.equal(await page.locator('#try-questions button').count(), 6);
  assert.equal(await page.inputValue('#question'), "Which day is Maya's pottery class now?");
  assert.equal(await page.inputValue('#ask-date'), '2024-06-08');
  assert.equal(await page.inputValue('#budget'), '200');

  await page.click('#ask-form button[type="submit"]');
  await settle('select slate');
  const units = await page.locator('#slate li[data-unit]').evaluateAll((els) => els.map((e) => ({ id: e.dataset.unit, rank: Number(e.dataset.rank) })));
  const ids = units.map((u) => u.id);
  // Both turns the answer needs: the class on Tuesdays, then moved to Thursdays.
  assert.ok(ids.includes('example/D2:2') && ids.includes('example/D3:3'), `slate ${ids}`);
  const meta = await page.locator('#slate-meta').textContent();
  const m = meta.match(/(\d+) of 200 tokens used/);
  assert.ok(m && Number(m[1]) <= 200, meta);
  // The order is the context's (by date: chat n before chat n+1), not the rank's.
  const chats = ids.map((id) => Number(id.match(/D(\d+):/)[1]));
  assert.deepEqual(chats, [...chats].sort((a, b) => a - b), `chats in context order: ${chats}`);
  assert.notDeepEqual(units.map((u) => u.rank), [...units.map((u) => u.rank)].sort((a, b) => a - b), 'the ranks are not the shown order here');
  assert.match(await page.locator('#slate-order').textContent(), /order they go into the agent's context/);
  // Each turn says why: its rank, the words it holds, how it was found, its date.
  const why = await page.locator('#slate li[data-unit="example/D2:2"] .why').textContent();
  assert.match(why, /^Ranked \d+(st|nd|rd|th) of 33\. Holds the question's words “pottery” and “class”\./);
  assert.match(why, /Said by Maya, whom the question names\. Dated 8:15 pm on 16 March, 2024\./);
  assert.equal(await page.locator('#slate li[data-unit="example/D2:2"] mark').first().textContent(), 'pottery');
  assert.match(await page.locator('#slate li[data-unit="example/D2:2"] .hop').textContent(), /first pass/);
  await page.locator('#tab-agent section.panel').nth(1).screenshot({ path: path.join(results, 'agent-slate.png') });

  // A relative date is read against its chat's date.
  await page.click('#try-questions button:has-text("When did Maya adopt Pepper?")');
  await page.click('#ask-form button[type="submit"]');
  await page.waitForFunction(() => window.recmem.timings.filter((t) => t.action === 'select slate').length >= 2, null, { timeout: T });
  const adopt = await page.locator('#slate li[data-unit="example/D1:1"] .why').textContent();
  assert.match(adopt, /“last weekend” there is the weekend of 24 February 2024\./);

  // Loading it again adds nothing and says so.
  await page.click('#load-example');
  await page.waitForSelector('#error:not([hidden])', { timeout: T });
  assert.match(await page.locator('#error').textContent(), /example is already in memory.*Nothing was added/);
  assert.match(await sourceSummary('import:example'), /33 turns/);
  assert.deepEqual(pageErrors, []);
});

test('a typed turn goes into a chat of its own, apart from the imported conversation', async () => {
  await page.fill('#turn-speaker', 'Maya');
  await page.fill('#turn-date', '2024-06-10');
  await page.fill('#turn-text', 'Pepper learned to open the fridge today.');
  await page.click('#turn-form button[type="submit"]');
  await settle('add turn');
  assert.match(await sourceSummary('me'), /Typed turns · 1 turn in 1 session/);
  assert.match(await sourceSummary('import:example'), /33 turns in 6 sessions/);
  const typed = await page.locator('#sources details[data-source="me"] li[data-unit]').evaluateAll((els) => els.map((e) => e.textContent));
  assert.match(typed[0], /typed-2024-06-10/);
  // Removing the typed turns leaves the conversation.
  await page.locator('#sources details[data-source="me"] summary button').click();
  await settle('remove source');
  assert.equal(await page.locator('#sources details[data-source="me"]').count(), 0);
  assert.match(await sourceSummary('import:example'), /33 turns/);
  assert.deepEqual(pageErrors, []);
});

test('a file of several conversations asks which one to import', async () => {
  await page.setInputFiles('#dialog-file', path.join(root, 'testdata/web/locomo-two.json'));
  await page.waitForSelector('#dialog-pick-row:not([hidden])', { timeout: T });
  assert.equal(await page.locator('#dialog-count').textContent(), '2 conversations');
  const options = await page.locator('#dialog-pick option').allTextContents();
  assert.deepEqual(options, ['two-1 (Rosa and Ivan, 5 turns)', 'two-2 (Noor and Eli, 6 turns)']);
  await page.selectOption('#dialog-pick', '1');
  await page.click('#dialog-import');
  await page.waitForSelector('#sources details[data-source="import:two-2"]', { timeout: T });
  assert.match(await sourceSummary('import:two-2'), /Imported: two-2 · 6 turns in 3 sessions/);
  assert.equal(await page.locator('#sources details[data-source="import:two-1"]').count(), 0);
  assert.match(await page.locator('#dialog-file-meta').textContent(), /conversation 2 of 2 in the file/);
  assert.ok(await page.locator('#dialog-pick-row').isHidden());
  assert.equal(await page.inputValue('#question'), "What ate Noor's tomatoes?");
  // The slate of the memory before the import is not left on show.
  assert.equal(await page.locator('#slate li').count(), 0);
  assert.match(await page.locator('#slate-meta').textContent(), /The memory changed: choose the slate again/);
  await page.screenshot({ path: path.join(results, 'agent-page.png'), fullPage: true });
  assert.deepEqual(pageErrors, []);
});
