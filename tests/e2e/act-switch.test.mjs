// Switching acts on the lab's own page and in the single file: in place (no page load), as history
// entries with the address a page load would have (instructor flags kept), Back and Forward, a new tab
// from a middle click; progress kept in memory when storage is blocked or when saving fails after
// start-up (a quota error), so the design ledger can export it; a reload restores from storage where
// storage works; keyboard focus on the new act's heading, with no scroll jump.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startServer, launch, watchedPage, openLab, freshLab, singleFile } from './helpers.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

const blockStorage = () => {
  Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
};
async function predict(page, choice) {
  await page.locator(`[data-act="1"] .prediction input[value="${choice}"]`).check();
  await page.locator('[data-act="1"] .prediction button[type=submit]').click();
  await page.waitForSelector('[data-act="1"] .act-unlocked:not([hidden])');
}
// A mark on the window: a page load clears it, a switch in place keeps it.
const mark = (page) => page.evaluate(() => { window.__samePage = true; });
const samePage = (page) => page.evaluate(() => window.__samePage === true);
const focused = (page) => page.evaluate(() => ({ id: document.activeElement.id, text: document.activeElement.textContent }));
async function viaNav(page, name, selector) {
  await page.locator('#act-nav a', { hasText: name }).click();
  await page.waitForSelector(`${selector} #act-title`);
  assert.equal(await samePage(page), true, `${name}: switched in place`);
}
async function downloadLedger(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the ledger (.json)' }).click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

test('storage blocked: progress survives every act switch, Back and Forward, and the ledger exports it', async () => {
  const browser = await launch();
  try {
    await browser.context.addInitScript(blockStorage);
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1&hide=ckpt&lock=dev`);
    const notice = page.locator('[data-notice="storage"]');
    assert.equal(await notice.getAttribute('data-storage'), 'blocked');
    assert.match(await notice.textContent(), /^Your progress is kept in this tab only: the browser does not let this page save it here\. Reloading or closing the tab loses it, so export your design ledger before you leave\.$/);
    await mark(page);
    await predict(page, 'a');
    const start = await page.evaluate(() => history.length);

    // The header's link: in place, a new history entry whose address a page load would have written.
    await viaNav(page, 'Design ledger', '[data-act="ledger"]');
    assert.match(page.url(), /\?act=ledger&opt=adam&.*&hide=ckpt&lock=dev$/);
    assert.equal(await page.evaluate(() => history.length), start + 1);
    assert.deepEqual(await focused(page), { id: 'act-title', text: 'Your design ledger' });
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'no scroll jump');
    const ledger = await downloadLedger(page);
    assert.equal(ledger.lab_state.acts.act1.prediction.choice, 'a', 'the prediction held in memory is exported');
    assert.equal(ledger.predictions.length, 1);

    // Back and Forward switch acts in place, with focus on the heading.
    await page.goBack();
    await page.waitForSelector('[data-act="1"] .locked-note');
    assert.match(await page.locator('.locked-note').textContent(), /Locked in: A/);
    assert.match(page.url(), /\?act=1&.*&hide=ckpt&lock=dev$/);
    assert.equal(await samePage(page), true, 'Back: in place');
    assert.equal((await focused(page)).id, 'act-title');
    assert.equal(await page.locator('[data-control="dev"] select').isDisabled(), true, 'the lock is kept');
    assert.equal(await page.locator('[data-act="1"] [data-control="opt"]').count(), 1);
    assert.equal(await page.locator('[data-act="1"] [data-control="ckpt"]').count(), 0, 'the hidden control stays hidden');
    await page.goForward();
    await page.waitForSelector('[data-act="ledger"] #act-title');
    assert.equal(await samePage(page), true, 'Forward: in place');

    // Act 2 (its code loads on this first visit): focus waits on the loading line, then the heading.
    await viaNav(page, 'Act 2', '[data-act="2"]');
    await page.waitForFunction(() => document.activeElement.id === 'act-title');
    assert.match((await focused(page)).text, /MFU gap/);

    // The notice's link to the ledger switches in place too.
    await viaNav(page, 'Act 1', '[data-act="1"]');
    await page.locator('[data-notice="storage"] a').click();
    await page.waitForSelector('[data-act="ledger"] #act-title');
    assert.equal(await samePage(page), true);

    // A middle click opens the act in a new tab (a page of its own, with the flags).
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), page.locator('#act-nav a', { hasText: 'Act 2' }).click({ button: 'middle' })]);
    await tab.waitForSelector('html[data-ready="true"] [data-act="2"]');
    assert.match(tab.url(), /\?act=2&hide=ckpt&lock=dev$|\?act=2&.*&hide=ckpt&lock=dev$/);
    await tab.close();
    assert.match(await page.locator('#act-title').textContent(), /design ledger/, 'the first tab did not move');

    // A reload starts over, as the notice says; the address keeps the act.
    await page.reload();
    await page.waitForSelector('html[data-ready="true"] [data-act="ledger"]');
    await page.locator('#act-nav a', { hasText: 'Act 1' }).click();
    await page.waitForSelector('[data-act="1"] #act-title');
    assert.equal(await page.locator('[data-act="1"] .act-unlocked').isHidden(), true);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('storage works: a reload restores the act and the progress, and Back crosses the reload', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await freshLab(page, srv.origin)('?act=1');
    assert.equal(await page.locator('[data-notice="storage"]').count(), 0);
    await mark(page);
    await predict(page, 'c');
    await viaNav(page, 'Act 2', '[data-act="2"]');
    assert.match(page.url(), /\?act=2&prec=/);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"] [data-act="2"] #act-title');
    await page.goBack(); // an entry of the page before the reload: a page load, from storage
    await page.waitForSelector('html[data-ready="true"] [data-act="1"] .locked-note');
    assert.match(await page.locator('.locked-note').textContent(), /Locked in: C/);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('saving that fails after start-up (storage full): a live notice, nothing lost in the tab, the ledger exports it', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await freshLab(page, srv.origin)('?act=1');
    await page.evaluate(() => {
      Storage.prototype.setItem = function setItem() { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
    });
    await mark(page);
    await predict(page, 'b');
    const notice = page.locator('#notices[role="status"] [data-notice="storage"][data-storage="failed"]');
    await notice.waitFor();
    assert.match(await notice.textContent(), /^Your progress can no longer be saved: the browser’s storage is full\. From now on it is kept in this tab only; reloading or closing the tab goes back to what was last saved, so export your design ledger/);
    await viaNav(page, 'Design ledger', '[data-act="ledger"]');
    assert.equal(await page.locator('[data-notice="storage"]').count(), 1, 'still said, once');
    const ledger = await downloadLedger(page);
    assert.equal(ledger.lab_state.acts.act1.prediction.choice, 'b');
    // Focus moved to the heading from the bottom of the page too: the in-act link to Act 1 after
    // continuing from a ledger, followed from the keyboard.
    await page.locator('[data-drop="ledger"] input[type=file]').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ledger)) });
    await page.getByRole('button', { name: 'Continue from this ledger' }).click();
    await page.getByRole('button', { name: 'Yes, replace it' }).click();
    const go = page.getByRole('link', { name: /^Go to Act 1/ });
    assert.equal(await go.evaluate((a) => a === document.activeElement), true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-act="1"] #act-title');
    assert.equal(await samePage(page), true);
    assert.equal((await focused(page)).id, 'act-title');
    // Within a pixel: the browser scrolls to whole pixels, so a heading at a fractional offset (the
    // navigation's height since Act 3 put it at 245.92 px) is scrolled to 0.08 px above the top.
    assert.equal(await page.locator('#act-title').evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1; }), true, 'the heading is in view');
    assert.match(await page.locator('.locked-note').textContent(), /Locked in: B/);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('the single file with storage blocked switches in place and keeps the prediction', async () => {
  const browser = await launch();
  try {
    await browser.context.addInitScript(blockStorage);
    const page = await browser.context.newPage();
    const url = pathToFileURL(singleFile).href;
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
    await mark(page);
    await predict(page, 'd');
    await viaNav(page, 'Design ledger', '[data-act="ledger"]');
    assert.match(page.url(), /lab08-model-training\.html\?act=ledger&/);
    assert.equal(await page.locator('.ledger-cal__list [data-prediction]').count() > 0, true);
    const ledger = await downloadLedger(page);
    assert.equal(ledger.lab_state.acts.act1.prediction.choice, 'd');
    await page.goBack();
    await page.waitForSelector('[data-act="1"] .locked-note');
    assert.equal(await samePage(page), true);
  } finally { await browser.close(); }
});
