// Act 2 for keyboard and screen-reader users, and at every width: the whole flow with the keyboard
// alone (visible focus throughout), axe-core with zero violations at 1280 px, at 390 px and in dark
// mode in the locked, unlocked, revealed and finished-challenge states, no horizontal overflow at
// 390 px, and Act 2's URL handling (settings applied, repeated parameters reported).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, axeViolations, tabTo, focusIsVisible } from './helpers.mjs';

const A2 = '[data-act="2"]';
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

async function open(options, query = '?act=2') {
  const browser = await launch(options);
  const { page, problems } = await watchedPage(browser.context, srv.origin);
  await openLab(page, `${srv.origin}/${query}`);
  await page.waitForSelector(A2);
  return { browser, page, problems };
}

async function unlockAndFinish(page) {
  await page.locator(`${A2} .prediction input[value="d"]`).check();
  await page.locator(`${A2} .prediction button[type=submit]`).click();
  await page.locator(`${A2} [data-control="workers"] input`).fill('8');
  await page.getByRole('button', { name: /Reveal/ }).click();
  await page.locator(`${A2} .laptop .control:has-text("Precision") select`).selectOption('fp16');
  await page.getByRole('button', { name: /show the limit/ }).click();
  await page.waitForSelector(`${A2} .limit:not([hidden])`);
  for (const d of await page.locator(`${A2} details`).all()) await d.evaluate((el) => { el.open = true; });
}

for (const [name, options] of [
  ['1280 px, light', {}],
  ['390 px, light', { viewport: { width: 390, height: 844 } }],
  ['1280 px, dark', { colorScheme: 'dark' }],
  ['390 px, dark', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' }],
]) {
  test(`axe-core finds nothing in Act 2 at ${name}, locked and after the challenges`, async () => {
    const { browser, page, problems } = await open(options);
    try {
      assert.deepEqual(await axeViolations(page), [], 'locked');
      await unlockAndFinish(page);
      assert.deepEqual(await axeViolations(page), [], 'unlocked, revealed, limit shown, twins open');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      assert.deepEqual(problems.consoleErrors, []);
    } finally { await browser.close(); }
  });
}

test('Act 2 can be done with the keyboard alone, with focus always visible', async () => {
  const { browser, page } = await open({});
  try {
    await tabTo(page, `${A2} .prediction input[type=radio]`);
    await page.keyboard.press('ArrowDown'); // radios: arrows move and select
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator(`${A2} .prediction input[value="c"]`).isChecked(), true);
    await tabTo(page, `${A2} .prediction button[type=submit]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${A2} .act-unlocked:not([hidden])`);
    await tabTo(page, `${A2} [data-control="workers"] input`);
    assert.ok(await focusIsVisible(page));
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-act="2"] [data-control="workers"] output').textContent === '4');
    await tabTo(page, `${A2} [data-control="prefetch"] input[type=checkbox]`);
    await page.keyboard.press('Space');
    assert.equal(await page.locator(`${A2} [data-control="prefetch"] input[type=checkbox]`).isChecked(), true);
    await tabTo(page, `${A2} .reveal-button`, 120);
    assert.ok(await focusIsVisible(page));
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${A2} .reveal[data-revealed="true"]`);
    await tabTo(page, `${A2} .laptop select`, 120);
    await page.keyboard.press('ArrowDown'); // a focused select changes with the arrow keys
    await page.waitForFunction(() => document.querySelectorAll('[data-act="2"] .move-table tbody tr').length === 2);
    await tabTo(page, `${A2} .laptop__limit-btn`, 60);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${A2} .limit:not([hidden])`);
    await tabTo(page, `${A2} form[data-question="fix"] input[type=radio]`, 80);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, `${A2} form[data-question="fix"] button[type=submit]`);
    // Issue 23: one answering rule in every question, said before answering.
    const once = page.locator(`${A2} form[data-question="fix"] .reflection__once`);
    assert.equal(await once.textContent(), 'Your first answer is the one scored; you may answer again.');
    assert.equal(await once.isVisible(), true);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${A2} .feedback__line--ok`);
    // The question may be answered again: the button stays and keeps the focus (the live feedback is
    // announced); the rule's note has been said; Tab goes on through the answer's "Why?" to the next question.
    assert.ok(await page.evaluate(() => document.activeElement.matches('[data-act="2"] form[data-question="fix"] button[type=submit]')));
    assert.equal(await once.isVisible(), false, 'answered: the rule was said before');
    assert.ok(await focusIsVisible(page));
    await tabTo(page, `${A2} form[data-question="fix"] .feedback__more details summary`, 3);
    await tabTo(page, `${A2} form[data-question="ckpt"] input[type=radio]`, 3);
  } finally { await browser.close(); }
});

test('an Act 2 link applies its settings, and a repeated parameter is reported, not guessed', async () => {
  const { browser, page } = await open({}, '?act=2&workers=6&workers=2&pin=1&batch=64');
  try {
    const notice = await page.locator('[data-notice="url"]').textContent();
    assert.match(notice, /workers is given 2 different values/);
    await page.locator(`${A2} .prediction input[value="b"]`).check();
    await page.locator(`${A2} .prediction button[type=submit]`).click();
    assert.equal(await page.locator(`${A2} [data-control="workers"] output`).textContent(), '0');
    assert.equal(await page.locator(`${A2} [data-control="pin"] input`).isChecked(), true);
    assert.equal(await page.locator(`${A2} [data-control="batch"] output`).textContent(), '64');
  } finally { await browser.close(); }
});
