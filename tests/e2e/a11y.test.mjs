// Accessibility: the whole act from the keyboard alone (every control reached with Tab and operated
// with keys, focus always visible), and axe-core audits with zero violations in every state, in light
// and dark schemes, with reduced motion honoured.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, axeViolations, tabTo, focusIsVisible, expectLedger, openPeek } from './helpers.mjs';
import { toScenario, normalizeConfig, OPTIMIZERS } from '../../web/src/state/scenario.js';
import { formatBytes } from '../../web/src/format/format.js';

const lib = { toScenario, formatBytes, OPTIMIZERS };
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

const noViolations = async (page, label) => {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${label}: ${JSON.stringify(v, null, 1)}`);
};

test('keyboard only: predict, operate every control, reveal and reflect', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/`);
    // Skip link first.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
    assert.equal(await focusIsVisible(page), true);
    // Prediction: reach the radios, pick C with arrows, lock with Enter on the button.
    await tabTo(page, '.prediction input[type=radio]');
    assert.equal(await focusIsVisible(page), true);
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '.prediction button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.act-unlocked:not([hidden])');
    assert.match(await page.locator('.locked-note').textContent(), /Locked in: C/);
    // Focus moved to the ledger heading; the controls follow in order.
    assert.match(await page.evaluate(() => document.activeElement.textContent), /Training memory ledger/);
    await tabTo(page, '[data-control="opt"] input');
    await page.keyboard.press('ArrowUp'); // Adam -> Momentum
    await tabTo(page, '[data-control="prec"] input');
    await page.keyboard.press('ArrowDown'); // FP32 -> mixed
    await tabTo(page, '[data-control="batch"] input');
    assert.equal(await focusIsVisible(page), true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight'); // 1 -> 8
    await tabTo(page, '[data-control="ckpt"] select');
    await page.keyboard.press('ArrowDown'); // none -> selective
    await tabTo(page, '[data-control="dev"] select');
    await page.keyboard.press('End'); // custom
    await page.keyboard.press('ArrowUp'); // the T4 (last catalog device)
    await page.keyboard.press('ArrowUp'); // the laptop, just above it
    let config = normalizeConfig({ optimizer: 'momentum', precision: 'mixed', batch_size: 8, checkpointing: 'selective', device: 'rtx4060-laptop-8gb' });
    await expectLedger(page, config, assert, lib);
    assert.equal(await page.locator('.banner').getAttribute('data-binding'), 'static');
    // Component toggle with Space, then the replay switch.
    await tabTo(page, '[data-control="replay"] input');
    await page.keyboard.press('Space');
    config = { ...config, replay: true };
    await expectLedger(page, config, assert, lib);
    await page.keyboard.press('Space');
    config = { ...config, replay: false };
    await tabTo(page, '.toggles input[data-component="activations"]');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('.ledger-chart rect.seg--activations').count(), 0);
    await page.keyboard.press('Space');
    // The table twin and the Math Peek open from the keyboard.
    await tabTo(page, '.twin > summary');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.twin').evaluate((d) => d.open), true);
    await tabTo(page, '.math-peek summary');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.math-peek').evaluate((d) => d.open), true);
    await page.waitForSelector('.math-peek[open]:not([aria-busy]) .peek-line');
    // Reveal.
    await tabTo(page, '.panel button.btn--primary:not(.prediction button)');
    assert.match(await page.evaluate(() => document.activeElement.textContent), /Reveal/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.reveal[data-revealed="true"]');
    assert.match(await page.locator('.reveal').textContent(), /spot on: within 5%/);
    // Reflection: 1.6× and the activation explanation.
    await tabTo(page, '.reflection input[type=radio]');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '.reflection fieldset:nth-of-type(2) input[type=radio]');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo(page, '.reflection button[type=submit]');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.feedback__line--ok').count(), 2);
    assert.match(await page.locator('.done').textContent(), /complete/);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('axe-core finds no violations in any state, light scheme', async () => {
  const browser = await launch();
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?opt=lion`);
    await noViolations(page, 'locked, with a URL notice');
    await page.locator('.prediction input[value="d"]').check();
    await page.locator('.prediction button[type=submit]').click();
    await page.waitForSelector('.act-unlocked:not([hidden])');
    await page.locator('.twin > summary').click();
    await page.locator('.opt-details > summary').click();
    await openPeek(page);
    await page.locator('.share summary').click();
    await noViolations(page, 'unlocked, fits');
    await page.locator('[data-control="dev"] select').selectOption('rtx4060-laptop-8gb');
    await page.locator('[data-control="ckpt"] select').selectOption('every_k');
    await noViolations(page, 'out of memory');
    await page.getByRole('button', { name: /Reveal/ }).click();
    await page.locator('.reflection fieldset').nth(0).locator('input').first().check();
    await page.locator('.reflection fieldset').nth(1).locator('input').first().check();
    await page.locator('.reflection button[type=submit]').click();
    await noViolations(page, 'revealed and reflected');
    await page.locator('[data-control="replay"] input[type=checkbox]').check();
    await page.locator('.units input[value="gib"]').check();
    await noViolations(page, 'chapter replay in GiB');
  } finally { await browser.close(); }
});

test('axe-core finds no violations in the dark scheme with locked controls, and reduced motion stops animation', async () => {
  const browser = await launch({ colorScheme: 'dark', reducedMotion: 'reduce' });
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?lock=opt,prec,batch,ckpt,dev,units,replay,comp&dev=rtx4060-laptop-8gb`);
    await page.locator('.prediction input[value="a"]').check();
    await page.locator('.prediction button[type=submit]').click();
    await page.waitForSelector('.act-unlocked:not([hidden])');
    await page.locator('.twin > summary').click();
    await noViolations(page, 'dark, locked, out of memory');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(17, 20, 24)');
    const transition = await page.locator('.ledger-chart rect.seg').first().evaluate((el) => getComputedStyle(el).transitionDuration);
    assert.equal(transition, '0s');
  } finally { await browser.close(); }
});

// Beyond AA: every word outside the charts (notes, banner titles, errors) meets the enhanced 7:1
// contrast in both schemes. The charts' segment labels sit on the colour-blind-safe data palette and
// meet AA (4.5:1), which the tests above check; they are left out here.
async function enhancedContrastOutsideCharts(page) {
  await axeViolations(page, { disable: [] }); // loads axe-core into the page
  return page.evaluate(async () => {
    const r = await window.axe.run({ exclude: [['svg']] }, { runOnly: { type: 'rule', values: ['color-contrast-enhanced'] } });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message || v.help}`));
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`words outside the charts meet the 7:1 (AAA) contrast, ${colorScheme} scheme`, async () => {
    const browser = await launch({ colorScheme });
    try {
      const { page } = await watchedPage(browser.context, srv.origin);
      const expectNone = async (label) => assert.deepEqual(await enhancedContrastOutsideCharts(page), [], label);
      await openLab(page, `${srv.origin}/`);
      await page.locator('.prediction button[type=submit]').click(); // no answer: the field error
      assert.equal(await page.locator('.prediction .field-error:not([hidden])').count(), 1);
      await expectNone('Act 1, prediction error');
      await page.locator('.prediction input[value="c"]').check();
      await page.locator('.prediction button[type=submit]').click();
      await page.waitForSelector('.act-unlocked:not([hidden])');
      assert.equal(await page.locator('.banner--ok').count(), 1);
      await expectNone('Act 1, locked in, fits');
      await page.locator('[data-control="dev"] select').selectOption('rtx4060-laptop-8gb');
      assert.equal(await page.locator('.banner--oom').count(), 1);
      await expectNone('Act 1, out of memory');
      await page.locator('[data-control="prec"] input[value="fp16"]').check();
      await page.locator('[data-control="dev"] select').selectOption('custom');
      await page.locator('[data-control="dev"] input[type=number]').fill('5000');
      await page.locator('[data-control="dev"] input[type=number]').dispatchEvent('change');
      assert.equal(await page.locator('[data-control="dev"] .field-error:not([hidden])').count(), 1);
      await expectNone('Act 1, pure 16-bit with a capacity error');
      await openLab(page, `${srv.origin}/?act=2`);
      await page.locator('[data-act="2"] .prediction input[value="c"]').check();
      await page.locator('[data-act="2"] .prediction button[type=submit]').click();
      await page.waitForSelector('[data-act="2"] .act-unlocked:not([hidden])');
      await expectNone('Act 2, unlocked');
    } finally { await browser.close(); }
  });
}

// At phone width a line must not end between an amount and its unit ("32" / "GB"): every such gap
// in the page's text (charts aside: SVG text does not wrap) is a no-break space.
test('at 390 px no amount is split from its unit anywhere in the text', async () => {
  const browser = await launch({ viewport: { width: 390, height: 800 } });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    const breakable = () => page.evaluate(() => {
      document.querySelectorAll('details').forEach((d) => { d.open = true; });
      const found = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.parentElement.closest('svg, script, style')) continue;
        for (const m of n.data.matchAll(/\S*\d (GB|GiB|MB|MiB|kB|KiB|B|bytes|tokens\/s|tokens|[PTGM]?FLOP\/s|FLOP|s|ms|h)(?![\w/])/g)) found.push(m[0]);
      }
      return found;
    });
    const amounts = () => page.evaluate(() => (document.body.innerText.match(/\d\u00a0(GB|GiB)/g) || []).length);
    const unlock = async (root) => {
      await page.locator(`${root} .prediction input[value="c"]`).check();
      await page.locator(`${root} .prediction button[type=submit]`).click();
      await page.waitForSelector(`${root} .act-unlocked:not([hidden])`);
    };
    for (const query of ['', '?replay=1&units=gib', '?fw=pytorch&prec=mixed&dev=rtx4060-laptop-8gb']) {
      await openLab(page, `${srv.origin}/${query}`);
      if (!query) await unlock('');
      assert.deepEqual(await breakable(), [], `Act 1 ${query}`);
      assert.ok(await amounts() > 10, `Act 1 ${query}: the probe saw amounts`);
    }
    await openLab(page, `${srv.origin}/?act=2`);
    await unlock('[data-act="2"]');
    assert.deepEqual(await breakable(), [], 'Act 2');
    await openLab(page, `${srv.origin}/?act=measure`);
    assert.deepEqual(await breakable(), [], 'Measure it');
    await openLab(page, `${srv.origin}/?act=ledger`);
    assert.deepEqual(await breakable(), [], 'Design ledger');
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

// A closed select shows its choice on one line: at phone width and at 200% zoom (640 px, where the
// controls sit two to a row) every device's name must fit.
for (const width of [390, 640]) test(`at ${width} px (phone; 200% zoom) every device option fits its closed select in both acts`, async () => {
  const browser = await launch({ viewport: { width, height: 800 } });
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    const overflowing = (selector) => page.locator(selector).evaluate((sel) => {
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = getComputedStyle(sel).font;
      const cs = getComputedStyle(sel);
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return [...sel.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => `${o.text} (${Math.round(ctx.measureText(o.text).width)} > ${Math.round(room)} px)`);
    });
    await openLab(page, `${srv.origin}/`);
    await page.locator('.prediction input[value="c"]').check();
    await page.locator('.prediction button[type=submit]').click();
    assert.deepEqual(await overflowing('[data-control="dev"] select'), [], 'Act 1');
    await openLab(page, `${srv.origin}/?act=2`);
    await page.locator('[data-act="2"] .prediction input[value="c"]').check();
    await page.locator('[data-act="2"] .prediction button[type=submit]').click();
    await page.waitForSelector('[data-act="2"] .act-unlocked:not([hidden])');
    assert.deepEqual(await overflowing('[data-act="2"] [data-control="dev"] select'), [], 'Act 2');
  } finally { await browser.close(); }
});
