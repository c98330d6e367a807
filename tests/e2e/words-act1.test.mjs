// The words budget of Act 1 and Measure it (issue 23, item 1): the words a student must read, counted
// from the rendered text in Chromium (visibleWords: innerText, so closed disclosures do not count), at
// 1280 and 390 px in the light theme, in every state set up here; and Act 1's height at 390 px right
// after the prediction is locked. A budget exceeded fails with the count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, freshLab, visibleWords, settle } from './helpers.mjs';

const BUDGET = { act1Locked: 600, act1Done: 1200, measureBeforeRun: 450, act1LockedHeight390: 7000 };
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

async function lock(page) {
  await page.locator('.prediction input[value="b"]').check();
  await page.locator('.prediction button[type=submit]').click();
  await page.waitForSelector('.act-unlocked:not([hidden])');
  await settle(page);
}

async function answer(page, ratio, reason) {
  const form = page.locator('.reflection');
  await form.locator('fieldset').nth(0).locator(`input[value="${ratio}"]`).check();
  await form.locator('fieldset').nth(1).locator(`input[value="${reason}"]`).check();
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('.reflection .feedback__line');
  await settle(page);
}

for (const width of [1280, 390]) {
  test(`at ${width} px: Act 1 stays within ${BUDGET.act1Locked} words after the lock and ${BUDGET.act1Done} with every step done; Measure it within ${BUDGET.measureBeforeRun} before a run`, async () => {
    const b = await launch({ viewport: { width, height: 900 }, colorScheme: 'light' });
    try {
      const { page, problems } = await watchedPage(b.context, srv.origin);
      const fresh = freshLab(page, srv.origin);
      const counts = {};
      await fresh('?act=1');
      await lock(page);
      counts.locked = await visibleWords(page);
      if (width === 390) counts.lockedHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      // The other way of counting memory shows its own lines (sum and peak, what is off and why).
      await page.locator('[data-control="fw"] input[value="pytorch"]').check();
      await page.waitForFunction(() => document.querySelector('[data-testid="sum-peak"]')?.dataset.framework === 'pytorch');
      await settle(page);
      counts.lockedPytorch = await visibleWords(page);
      await page.locator('[data-control="fw"] input[value="textbook"]').check();
      await settle(page);
      // Chapter replay on (its note and walkthrough steps), then every step done: a wrong reflection
      // first (the longest feedback), then the right one.
      await page.locator('[data-control="replay"] input[type=checkbox]').check();
      await page.waitForSelector('.replay-note h3');
      await settle(page);
      counts.replay = await visibleWords(page);
      await page.getByRole('button', { name: /Reveal/ }).click();
      await page.waitForSelector('.reveal[data-revealed="true"]');
      await answer(page, 'c', 'b');
      counts.doneWrong = await visibleWords(page);
      await answer(page, 'b', 'c');
      counts.done = await visibleWords(page);
      await fresh('?act=measure');
      await page.waitForSelector('.act--measure .run-status');
      counts.measure = await visibleWords(page);
      for (const k of ['locked', 'lockedPytorch', 'replay']) assert.ok(counts[k] <= BUDGET.act1Locked, `${k}: ${counts[k]} words > ${BUDGET.act1Locked}`);
      for (const k of ['doneWrong', 'done']) assert.ok(counts[k] <= BUDGET.act1Done, `${k}: ${counts[k]} words > ${BUDGET.act1Done}`);
      assert.ok(counts.measure <= BUDGET.measureBeforeRun, `Measure it: ${counts.measure} words > ${BUDGET.measureBeforeRun}`);
      if (width === 390) assert.ok(counts.lockedHeight <= BUDGET.act1LockedHeight390, `Act 1 at 390 px: ${counts.lockedHeight} px tall`);
      // The counts are real: each state has the words it must have.
      assert.ok(counts.locked > 200 && counts.done > counts.locked, JSON.stringify(counts));
      console.log(`words at ${width} px: ${JSON.stringify(counts)}`);
      assert.deepEqual(problems.consoleErrors, []);
    } finally {
      await b.close();
    }
  });
}
