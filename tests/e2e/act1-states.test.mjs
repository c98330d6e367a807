// Act 1's states as a new student meets them (issue 10), in headless Chromium: the phone width (the
// chart fits, nothing scrolls the page sideways), the invalid pure-16-bit state everywhere, the
// flow (explore before reveal, the reveal overlay, reset asks first, the pressed replay step), labels
// that give way to the budget line, distinct colours, every sum on the page adding up, and axe-core
// with zero violations at 390 px in light and dark for every state. The chart's label sweeps are in
// act1-chart-labels.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, axeViolations, settle, openPeek } from './helpers.mjs';
import { sumsThatDoNotAddUp, sumsIn, formatProblems } from '../web/unit/sum-check.mjs';
import { lockPrediction as lock, chartLabelsClear, textWithDisclosures } from './act1-chart.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

const LAPTOP_PURE16 = '?dev=rtx4060-laptop-8gb&opt=sgd&prec=fp16&ckpt=full&batch=2';

// Every sentence on the page with numbers: sums add up as shown, one number format.
async function expectSumsAddUp(page, label) {
  await settle(page);
  const text = await textWithDisclosures(page);
  assert.deepEqual(sumsThatDoNotAddUp(text), [], label);
  assert.deepEqual(formatProblems(text), [], label);
  return sumsIn(text).length;
}

test('at 390 px the ledger chart fits its box, the page never scrolls sideways, and axe passes in every state (light and dark)', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const browser = await launch({ viewport: { width: 390, height: 844 }, colorScheme });
    try {
      const { page, problems } = await watchedPage(browser.context, srv.origin);
      const states = [];
      const check = async (label) => {
        await settle(page);
        const v = await axeViolations(page);
        assert.deepEqual(v, [], `${colorScheme} ${label}: ${JSON.stringify(v, null, 1)}`);
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(sideways <= 0, `${colorScheme} ${label}: page scrolls sideways by ${sideways}px`);
        states.push(label);
      };
      await openLab(page, `${srv.origin}/`);
      await check('locked');
      await lock(page);
      await page.locator('.twin > summary').click();
      await openPeek(page);
      await page.locator('.share summary').click();
      const fit = await page.locator('.ledger-chart').evaluate((svg) => {
        const box = svg.parentElement.getBoundingClientRect();
        const r = svg.getBoundingClientRect();
        return { svg: r.width, box: box.width, scroll: svg.parentElement.scrollWidth - svg.parentElement.clientWidth, layout: svg.dataset.layout };
      });
      assert.ok(fit.svg <= fit.box + 0.5 && fit.scroll <= 0, JSON.stringify(fit));
      assert.equal(fit.layout, 'narrow');
      assert.deepEqual(await chartLabelsClear(page), []);
      await check('unlocked, fits, tables open');
      await page.locator('[data-control="dev"] select').selectOption('rtx4060-laptop-8gb');
      await check('out of memory');
      assert.deepEqual(await chartLabelsClear(page), []);
      await page.locator('[data-control="opt"] input[value="sgd"]').check();
      await page.locator('[data-control="prec"] input[value="fp16"]').check();
      await page.locator('[data-control="ckpt"] select').selectOption('full');
      await check('fits but cannot train');
      assert.deepEqual(await chartLabelsClear(page), []);
      await page.getByRole('button', { name: /Reveal/ }).click();
      await page.waitForSelector('.reveal[data-revealed="true"]');
      await page.locator('.reflection fieldset').nth(0).locator('input').first().check();
      await page.locator('.reflection fieldset').nth(1).locator('input').first().check();
      await page.locator('.reflection button[type=submit]').click();
      await check('revealed and reflected');
      await page.locator('[data-control="replay"] input[type=checkbox]').check();
      await page.locator('.replay-steps button[data-step="ckpt"]').click();
      await page.locator('.units input[value="gib"]').check();
      await check('chapter replay, every 4 layers, in GiB');
      assert.deepEqual(await chartLabelsClear(page), []);
      await page.locator('.toggles input[data-component="activations"]').uncheck();
      await check('a component hidden');
      await page.getByRole('button', { name: 'Reset my answers' }).click(); // the share panel is still open
      await check('reset asks first');
      assert.equal(states.length, 8);
      assert.deepEqual(problems.consoleErrors, []);
    } finally { await browser.close(); }
  }
});

test('pure 16-bit that fits is never a success: banner, chart, summary and table say it cannot train', async () => {
  const browser = await launch();
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/${LAPTOP_PURE16}`);
    await lock(page);
    const banner = page.locator('.banner');
    assert.equal(await banner.getAttribute('data-state'), 'invalid');
    assert.match(await banner.getAttribute('class'), /banner--invalid/);
    assert.doesNotMatch(await banner.getAttribute('class'), /banner--ok/);
    const title = await banner.locator('.banner__title').textContent();
    assert.match(title, /Fits in memory, but cannot train: updates stall/);
    assert.doesNotMatch(title, /✓/);
    const col = page.locator('.ledger-chart g.col[data-optimizer="sgd"]');
    assert.equal(await col.getAttribute('data-state'), 'invalid');
    assert.equal(await col.locator('text.col-over').textContent(), '⚠ cannot train');
    assert.equal(await col.locator('rect.hatch').getAttribute('display'), null, 'the invalid column carries a pattern');
    assert.match(await page.locator('.chart-summary').textContent(), /but it cannot train/);
    assert.match(await page.locator('.ledger-chart').getAttribute('aria-label'), /cannot train/);
    const cell = page.locator('.ledger-table tr[data-row="peak"] td[data-optimizer="sgd"]');
    assert.equal(await cell.getAttribute('data-state'), 'invalid');
    assert.match(await cell.textContent(), /\(fits, cannot train\)$/);
    // Mixed precision with the same settings is 'ok' only if it fits: on the laptop it does not.
    await page.locator('[data-control="prec"] input[value="mixed"]').check();
    await settle(page);
    assert.equal(await banner.getAttribute('data-state'), 'oom');
  } finally { await browser.close(); }
});

test('Reveal waits for exploring, draws the prediction on the chart, and every sum on the page adds up', async () => {
  const browser = await launch({ colorScheme: 'dark' });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/`);
    await lock(page, 'b');
    const reveal = page.getByRole('button', { name: /Reveal/ });
    assert.equal(await reveal.isDisabled(), true, 'Reveal right after the lock');
    assert.match(await page.locator('.reveal-hint').textContent(), /explore the ledger first/);
    assert.equal(await page.locator('.steps [data-step="explore"]').getAttribute('class'), 'step');
    let sums = await expectSumsAddUp(page, 'default');
    // The table twin: FP32 Adam's rows, each rounded alone, would add to 0.01 more than the rounded
    // total; they are rounded together instead, so the rows shown add up to the total shown, and a
    // "Why?" says a row can then read a hundredth off the chart's label (issue 23, item 2).
    assert.equal(await page.locator('.ledger-table tr[data-row="total"] td[data-optimizer="adam"]').textContent(), '42.18\u00a0GB'); // a no-break space before the unit
    assert.equal(await page.locator('.ledger-table tr[data-row="rounded-sum"]').count(), 0);
    const rowsAdam = await page.locator('.ledger-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({ row: tr.dataset.row, text: tr.querySelector('td[data-optimizer="adam"]').textContent })));
    const hundredths = rowsAdam.filter((r) => !['transient', 'total', 'peak', 'budget'].includes(r.row))
      .reduce((a, r) => a + (r.text === '—' ? 0 : Math.round(Number(r.text.replace(/[^0-9.]/g, '')) * 100)), 0);
    assert.equal(hundredths, 4218, JSON.stringify(rowsAdam));
    assert.equal(await page.locator('.twin .why').first().evaluate((d) => !d.hidden && !d.open), true, 'the rounding note is there, closed');
    assert.match(await page.locator('.twin .why').first().textContent(), /rounds a column’s rows together/);
    // On narrow screens each cell repeats its column's name: the same in every row.
    const labels = await page.locator('.ledger-table tbody td[data-optimizer="adam"]').evaluateAll((tds) => [...new Set(tds.map((td) => td.dataset.label))]);
    assert.deepEqual(labels, ['Adam(W) (selected)']);
    // Changing units alone is not exploring; a component toggle is.
    await page.locator('.units input[value="gib"]').check();
    assert.equal(await reveal.isDisabled(), true);
    // Every prediction option speaks the chosen unit, option A's "~0" included.
    const options = await page.locator('.prediction .option-text').allTextContents();
    assert.equal(options.length, 4);
    for (const o of options) assert.match(o, /GiB extra/, o);
    assert.doesNotMatch(options.join(' '), /\bGB\b/);
    await page.locator('.units input[value="gb"]').check();
    await page.locator('.toggles input[data-component="logits"]').uncheck();
    await page.locator('.toggles input[data-component="logits"]').check();
    await settle(page);
    assert.equal(await reveal.isDisabled(), false);
    assert.equal(await page.locator('.reveal-hint').isHidden(), true);
    assert.equal(await page.locator('.steps [data-step="explore"]').getAttribute('class'), 'step step--done');
    assert.equal(await page.locator('.ledger-chart .overlay .bracket').count(), 0, 'no overlay before the reveal');
    await reveal.click();
    await page.waitForSelector('.reveal[data-revealed="true"]');
    await settle(page);
    assert.equal(await page.locator('.ledger-chart .overlay .bracket').count(), 2);
    const keyText = await page.locator('.ledger-chart .overlay').textContent();
    assert.match(keyText, /your prediction: about 6\sGB extra \(for FP32\)/);
    assert.match(keyText, /Adam’s real extra over SGD here: 12\.46\sGB/);
    // The real bracket spans exactly Adam's m and v segments.
    const span = await page.locator('.ledger-chart').evaluate((svg) => {
      const real = svg.querySelector('.bracket--real .bracket-line');
      const m = svg.querySelector('g.col[data-optimizer="adam"] rect.seg--adam_m');
      const v = svg.querySelector('g.col[data-optimizer="adam"] rect.seg--adam_v');
      return [Number(real.getAttribute('y1')), Number(real.getAttribute('y2')), Number(m.getAttribute('y')) + Number(m.getAttribute('height')), Number(v.getAttribute('y'))];
    });
    assert.ok(Math.abs(span[0] - span[2]) < 0.6 && Math.abs(span[1] - span[3]) < 0.6, JSON.stringify(span));
    await openPeek(page);
    await page.locator('.reflection fieldset').nth(0).locator('input[value="b"]').check();
    await page.locator('.reflection fieldset').nth(1).locator('input[value="c"]').check();
    await page.locator('.reflection button[type=submit]').click();
    sums += await expectSumsAddUp(page, 'revealed and reflected');
    for (const q of ['?dev=rtx4060-laptop-8gb', LAPTOP_PURE16, '?prec=mixed&batch=16&ckpt=selective&units=gib', '?dev=custom&cap=1000&batch=128']) {
      await page.goto(`${srv.origin}/${q}`);
      await page.waitForSelector('html[data-ready="true"]');
      sums += await expectSumsAddUp(page, q);
      assert.deepEqual(await chartLabelsClear(page), [], q);
    }
    assert.ok(sums >= 15, `only ${sums} sums on the pages`);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('replay steps show which one is on the ledger (aria-pressed), and Momentum and Adam m differ in colour', async () => {
  const browser = await launch();
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/`);
    await lock(page);
    await page.locator('[data-control="replay"] input[type=checkbox]').check();
    const pressed = () => page.locator('.replay-steps button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-pressed')));
    assert.deepEqual(await pressed(), ['false', 'false', 'false']);
    for (const [i, step] of ['baseline', 'mixed', 'ckpt'].entries()) {
      await page.locator(`.replay-steps button[data-step="${step}"]`).click();
      const want = ['false', 'false', 'false'];
      want[i] = 'true';
      assert.deepEqual(await pressed(), want, step);
    }
    await page.locator('[data-control="batch"] input').focus();
    await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await pressed(), ['false', 'false', 'false'], 'no step after another change');
    const fills = await page.evaluate(() => {
      const probe = (cls) => { const s = document.createElement('span'); s.className = `swatch ${cls}`; document.body.append(s); const c = getComputedStyle(s).backgroundColor; s.remove(); return c; };
      return [probe('swatch--momentum'), probe('swatch--adam_m'), probe('swatch--adam_v')];
    });
    assert.equal(new Set(fills).size, 3, JSON.stringify(fills));
  } finally { await browser.close(); }
});

test('Reset my answers asks first; keeping them changes nothing, confirming clears them', async () => {
  const browser = await launch();
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/`);
    await lock(page);
    await page.locator('.share summary').click();
    await page.getByRole('button', { name: 'Reset my answers' }).click();
    assert.equal(await page.locator('.reset-confirm').isVisible(), true);
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Keep my answers');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.reset-confirm').isHidden(), true);
    assert.match(await page.locator('.locked-note').textContent(), /Locked in: B/);
    await page.getByRole('button', { name: 'Reset my answers' }).click();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.reset-confirm').isHidden(), true, 'Escape keeps the answers');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Reset my answers');
    await page.getByRole('button', { name: 'Reset my answers' }).click();
    await page.getByRole('button', { name: 'Yes, clear them' }).click();
    await page.waitForSelector('.act-unlocked[hidden]', { state: 'attached' });
    assert.equal(await page.locator('.prediction input[value="b"]').isDisabled(), false);
  } finally { await browser.close(); }
});

test('the optimizer table shows the precision column only when it differs from FP32, and says when its figures are the chapter’s', async () => {
  const browser = await launch({ viewport: { width: 1280, height: 900 } });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    const shape = () => page.locator('.optimizer-table').evaluate((t) => ({
      heads: [...t.querySelectorAll('thead th')].filter((th) => !th.hidden).map((th) => th.textContent),
      cells: [...t.querySelectorAll('tbody tr')].map((tr) => tr.querySelectorAll('td').length),
      labels: [...t.querySelectorAll('tbody tr:first-child td')].map((td) => td.dataset.label),
      caption: t.caption.textContent,
    }));
    await openLab(page, `${srv.origin}/?prec=fp32&replay=0`);
    await lock(page);
    let s = await shape();
    assert.equal(s.heads.length, 5, JSON.stringify(s));
    assert.deepEqual(s.cells, [4, 4, 4]);
    assert.equal(new Set(s.labels).size, s.labels.length, 'no two columns say the same');
    assert.doesNotMatch(s.caption, /1\.5 billion|Chapter replay/);
    await page.locator('[data-control="prec"] input[value="mixed"]').check();
    await settle(page);
    s = await shape();
    assert.equal(s.heads.length, 6, JSON.stringify(s));
    assert.deepEqual(s.cells, [5, 5, 5]);
    assert.match(s.heads[4], /at Mixed/);
    await page.locator('[data-control="replay"] input[type=checkbox]').check();
    await settle(page);
    s = await shape();
    assert.match(s.caption, /Chapter replay/);
    assert.match(s.caption, /1\.5 billion/);
    assert.match(s.caption, /W = 6\.00\sGB/);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('at a 640 px viewport (200% zoom) the optimizer table becomes cards instead of being cut, and is a table again when wide (F4)', async () => {
  const cut = (page) => page.locator('.optimizer-table').evaluate((t) => {
    const box = t.closest('.table-scroll');
    return { cards: t.classList.contains('table--cards'), scrolls: box.scrollWidth > box.clientWidth + 1,
      captionCut: t.caption.scrollWidth > t.caption.clientWidth + 1 || t.caption.getBoundingClientRect().right > box.getBoundingClientRect().right + 1,
      cellsOutside: [...t.querySelectorAll('td, th')].filter((c) => c.getClientRects().length && c.getBoundingClientRect().right > box.getBoundingClientRect().right + 1).map((c) => c.textContent) };
  });
  const browser = await launch({ viewport: { width: 640, height: 900 }, deviceScaleFactor: 2 });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1&opt=sgd&prec=fp16&batch=1&ckpt=full&dev=rtx4060-laptop-8gb`);
    await lock(page);
    await page.locator('.opt-details > summary').click(); // the table waits behind its disclosure
    await page.locator('.optimizer-table tbody tr').first().waitFor();
    // The table is fitted in the frame after its box is sized (ui/after-paint.js): wait for that frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    let s = await cut(page);
    assert.deepEqual(s, { cards: true, scrolls: false, captionCut: false, cellsOutside: [] });
    // Each value still says which column it is (the steps too).
    assert.match(await page.locator('.optimizer-table tbody tr:first-child td[data-label="Steps to converge"]').evaluate((td) => getComputedStyle(td, '::before').content), /Steps to converge/);
    const v = await axeViolations(page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    // Wide again: a table, nothing cut.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => !document.querySelector('.optimizer-table').classList.contains('table--cards'));
    s = await cut(page);
    assert.deepEqual(s, { cards: false, scrolls: false, captionCut: false, cellsOutside: [] });
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('the Math Peek’s model arrives on first open; when it cannot, the peek says so in words and a reopen retries', async () => {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const fetched = [];
    page.on('request', (req) => { if (/peek-model/.test(req.url())) fetched.push(req.url()); });
    await openLab(page, `${srv.origin}/`);
    await lock(page);
    assert.deepEqual(fetched, [], 'not part of the first load');
    await page.route(/\/assets\/peek-model[^/]*$/, (route) => route.abort('internetdisconnected'));
    await page.locator('[data-act="1"] .math-peek summary').click();
    const alert = page.locator('[data-act="1"] .math-peek [role="alert"]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /^Could not load the Math Peek: part of the lab did not arrive from the site \(the network may be off\)\. Close and open it again to retry\. \(Details: .+\)$/);
    await page.unroute(/\/assets\/peek-model[^/]*$/);
    await page.locator('[data-act="1"] .math-peek summary').click(); // close
    await openPeek(page);
    assert.equal(await alert.count(), 0);
    assert.ok(await page.locator('[data-act="1"] .peek-line').count() > 3);
  } finally { await browser.close(); }
});
