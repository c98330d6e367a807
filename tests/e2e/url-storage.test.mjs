// Configuration in the URL (restore, instructor hide/lock flags, bad parameters explained), the lab
// in memory when storage is blocked, and a clear message when the engine cannot start.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, expectLedger, predictAct2, freshLab } from './helpers.mjs';
import { toScenario, normalizeConfig, OPTIMIZERS } from '../../web/src/state/scenario.js';
import { formatBytes } from '../../web/src/format/format.js';

const lib = { toScenario, formatBytes, OPTIMIZERS };
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

async function unlock(page, choice = 'c') {
  await page.locator(`.prediction input[value="${choice}"]`).check();
  await page.locator('.prediction button[type=submit]').click();
  await page.waitForSelector('.act-unlocked:not([hidden])');
}

test('a URL with a configuration is restored, with hidden and locked controls', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    const query = '?act=1&opt=momentum&prec=mixed&batch=16&ckpt=every&k=6&dev=a100-sxm4-40gb&units=gib&replay=0&fw=textbook&off=logits&hide=ckpt&lock=prec,dev';
    await openLab(page, `${srv.origin}/${query}`);
    assert.equal(new URL(page.url()).search, query);
    await unlock(page);
    const config = normalizeConfig({ optimizer: 'momentum', precision: 'mixed', batch_size: 16, checkpointing: 'every_k', every_k: 6, device: 'a100-sxm4-40gb', units: 'gib', hidden_components: ['logits'] });
    await expectLedger(page, config, assert, lib);
    assert.equal(await page.locator('[data-control="opt"] input[value="momentum"]').isChecked(), true);
    assert.equal(await page.locator('[data-control="ckpt"]').count(), 0, 'hidden control is not rendered');
    assert.equal(await page.locator('[data-control="prec"] input[value="mixed"]').isChecked(), true);
    assert.equal(await page.locator('[data-control="prec"] input[value="fp32"]').isDisabled(), true);
    assert.equal(await page.locator('[data-control="dev"] select').isDisabled(), true);
    assert.match(await page.locator('[data-control="dev"]').textContent(), /Locked by your instructor/);
    assert.equal(await page.locator('[data-control="batch"] output').textContent(), '16');
    assert.equal(await page.locator('.units input[value="gib"]').isChecked(), true);
    assert.equal(await page.locator('.toggles input[data-component="logits"]').isChecked(), false);
    assert.match(await page.locator('.ledger-table tr[data-row="total"] td[data-optimizer="momentum"]').textContent(), /GiB$/);
    // Unlocked controls still work, and the flags stay in the URL.
    await page.locator('[data-control="opt"] input[value="sgd"]').check();
    await expectLedger(page, { ...config, optimizer: 'sgd' }, assert, lib);
    await page.waitForURL(/opt=sgd.*&hide=ckpt&lock=prec,dev$/);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('with every control locked or hidden, each act’s reveal opens at once; with some open, the hint names only those', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    // Each case starts from a lab with no saved progress.
    const fresh = freshLab(page, srv.origin);
    // Act 1, everything locked or hidden (walk 4: the reveal never opened).
    // Also when the one control left is switched off by a locked setting (walk 5): PyTorch defaults
    // switch off checkpointing and replay, replay switches off the device.
    for (const flags of ['lock=opt,prec,batch,ckpt,dev,units,replay,comp,fw', 'hide=opt,prec,batch,ckpt&lock=dev,replay,comp,fw,units',
      'fw=pytorch&lock=opt,prec,batch,dev,units,comp,fw', 'replay=1&lock=opt,prec,batch,ckpt,units,replay,comp,fw']) {
      await fresh(`?act=1&${flags}`);
      assert.doesNotMatch(await page.locator('[data-step="explore"]').getAttribute('class'), /step--done/, `${flags}: not done before the prediction`);
      await unlock(page, 'a');
      assert.equal(await page.getByRole('button', { name: /Reveal/ }).isDisabled(), false, flags);
      assert.equal(await page.locator('.reveal-hint').isHidden(), true, flags);
      assert.match(await page.locator('[data-act="1"] .panel__lead:has-text("nothing to explore")').textContent(), /^Every setting of this ledger is fixed in this lab/);
      assert.match(await page.locator('[data-step="explore"]').getAttribute('class'), /step--done/, flags);
      await page.getByRole('button', { name: /Reveal/ }).click();
      await page.waitForSelector('.reveal[data-revealed="true"]');
    }
    // Some locked: the hint lists what is left, and the reveal waits for it.
    await fresh('?act=1&lock=opt,prec,ckpt,dev,replay,fw&hide=comp');
    await unlock(page, 'a');
    assert.equal(await page.getByRole('button', { name: /Reveal/ }).isDisabled(), true);
    assert.equal(await page.locator('.reveal-hint').textContent(), 'Not yet: explore the ledger first. Change the setting above (batch); then the reveal opens.');
    await page.locator('[data-control="batch"] input').fill('3');
    await page.waitForFunction(() => [...document.querySelectorAll('button')].find((b) => /^Reveal/.test(b.textContent))?.disabled === false);
    assert.equal(await page.locator('.reveal-hint').isHidden(), true);
    // Act 2, everything locked: its reveal and its explore step are open too.
    await fresh('?act=2&lock=workers,prefetch,pin,prec,ckpt,batch,dev,replay');
    await predictAct2(page, 'b');
    assert.equal(await page.getByRole('button', { name: /Reveal/ }).isDisabled(), false);
    assert.match(await page.locator('[data-act="2"] [data-step="explore"]').getAttribute('class'), /step--done/);
    // Nor do the words ask for a change no control allows (walk 6).
    assert.doesNotMatch(await page.locator('[data-act="2"] .calib-note').textContent(), /[Tt]ick the box|Compare with the calibration off/);
    assert.doesNotMatch(await page.locator('[data-act="2"] [data-control="replay"] label').textContent(), /untick/);
    // Nothing is the student's design then (walk 6: the locked defaults were 'your best so far').
    await page.waitForSelector('[data-act="2"] .design [data-regime]');
    assert.match(await page.locator('[data-act="2"] .design').textContent(), /^Not open here: every setting of the step is fixed in this lab/);
    assert.equal(await page.locator('[data-act="2"] [data-best-mfu], [data-act="2"] [data-solver-mfu]').count(), 0);
    assert.match(await page.locator('[data-act="2"] [data-step="design"].step--skipped').textContent(), /Design challenge \(not asked here\)/, 'no design step to do');
    // The step list's numbers are the sections' (Reveal is section 4).
    assert.match(await page.locator('[data-act="2"] [data-step="reveal"] .step__mark').textContent(), /^(4|✓)$/);
    // A group whose controls are all hidden is not drawn as an empty box.
    await fresh('?act=2&hide=workers,prefetch,pin');
    await predictAct2(page, 'b');
    assert.equal(await page.locator('[data-act="2"] .control-set:has(legend:text("Data pipeline"))').isVisible(), false);
    assert.equal(await page.locator('[data-act="2"] .control-set:has(legend:text("The step"))').isVisible(), true);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('a change made just before a reload survives it; a link opened next still wins (walk 6)', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=2`);
    await predictAct2(page, 'c');
    await page.waitForURL(/workers=0/);
    await page.locator('[data-act="2"] [data-control="workers"] input').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.reload(); // at once: the address has not caught up yet
    await page.waitForSelector('[data-act="2"] .act-unlocked:not([hidden])');
    assert.equal(await page.locator('[data-act="2"] [data-control="workers"] input').inputValue(), '2');
    assert.match(new URL(page.url()).search, /workers=2/);
    // A link's settings still win over saved progress.
    await openLab(page, `${srv.origin}/?act=2&workers=6`);
    assert.equal(await page.locator('[data-act="2"] [data-control="workers"] input').inputValue(), '6');
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('bad URL parameters are explained on the page and the good ones still apply', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?opt=lion&batch=7&dev=a100-sxm4-80gb&hide=wings&act=4`);
    const notice = page.locator('[data-notice="url"]');
    assert.equal(await notice.isVisible(), true);
    const items = await notice.locator('li').allTextContents();
    assert.equal(items.length, 4);
    assert.ok(items.some((t) => /^opt=lion: not an optimizer/.test(t)));
    assert.ok(items.some((t) => /^batch=7: not one of the batch sizes/.test(t)));
    assert.ok(items.some((t) => /'wings' is not a control name/.test(t)));
    assert.ok(items.some((t) => /^act=4: not a part of this lab; it can be /.test(t)));
    await unlock(page);
    await expectLedger(page, normalizeConfig({ device: 'a100-sxm4-80gb' }), assert, lib);
    assert.match(page.url(), /\?act=1&opt=adam&prec=fp32&batch=1&ckpt=none&dev=a100-sxm4-80gb/);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('with storage blocked the lab says progress will not be saved and still works in memory', async () => {
  const browser = await launch();
  try {
    await browser.context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
    });
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/`);
    const note = page.locator('[data-notice="storage"]');
    assert.equal(await note.isVisible(), true);
    assert.equal(await note.getAttribute('data-storage'), 'blocked');
    assert.match(await note.textContent(), /^Your progress is kept in this tab only: .*Reloading or closing the tab loses it/);
    await unlock(page, 'a');
    await page.locator('[data-control="dev"] select').selectOption('rtx4060-laptop-8gb');
    await expectLedger(page, normalizeConfig({ device: 'rtx4060-laptop-8gb' }), assert, lib);
    await page.getByRole('button', { name: /Reveal/ }).click();
    assert.match(await page.locator('.reveal').textContent(), /You underestimated by the full 12\.46\sGB/);
    // A reload keeps the settings (they are in the URL) but not the answers, as the notice says
    // (act switches keep them: act-switch.test.mjs).
    await page.waitForURL(/dev=rtx4060-laptop-8gb/);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    assert.equal(await page.locator('.act-unlocked').isHidden(), true);
    assert.match(page.url(), /dev=rtx4060-laptop-8gb/);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('if the engine cannot load, the page says so clearly instead of hanging', async () => {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.route('**/*.wasm', (route) => route.abort());
    await page.goto(`${srv.origin}/`);
    const box = page.locator('#boot.boot--failed');
    await box.waitFor();
    assert.equal(await box.getAttribute('role'), 'alert');
    assert.match(await box.textContent(), /engine could not start/);
    assert.match(await box.textContent(), /WebAssembly/);
    assert.equal(await page.locator('.act').count(), 0);
  } finally { await browser.close(); }
});

test('if the lab’s script never arrives, the page says so after 20 s instead of loading for ever', async () => {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.route(/\/assets\/index-[\w-]+\.js$/, () => {}); // held: never answered, never failed
    await page.goto(`${srv.origin}/`, { waitUntil: 'commit' });
    const box = page.locator('#boot.boot--failed[role="alert"]');
    await box.waitFor({ timeout: 40000 });
    assert.equal(await page.locator('#boot-status').textContent(), 'The lab’s files could not be loaded. Reload the page; if it still fails, tell your instructor.');
  } finally { await browser.close(); }
});
