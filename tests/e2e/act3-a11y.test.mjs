// Act 3's accessibility: axe-core finds nothing at 1,280 and 390 px in light and dark (before the lock,
// and with lab_scale in the build after the reveal), the page never scrolls sideways at 390 px, the
// prediction is reached and locked from the keyboard alone with a visible focus, and no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, freshLab, axeViolations, scrollsSideways, tabTo, focusIsVisible } from './helpers.mjs';
import { A3, act3Engine, lockAct3, NO_ENGINE } from './act3-helpers.mjs';

let srv;
const browsers = [];
before(async () => { srv = await startServer(); });
after(async () => { for (const b of browsers) await b.close(); await srv?.close(); });

async function open(colorScheme) {
  const b = await launch({ colorScheme });
  browsers.push(b);
  return watchedPage(b.context, srv.origin);
}

for (const scheme of ['light', 'dark']) {
  test(`Act 3 in ${scheme}: axe finds nothing at 1,280 and 390 px, and nothing scrolls sideways`, async () => {
    const { page, problems } = await open(scheme);
    await freshLab(page, srv.origin)('?act=3');
    const engine = await act3Engine(page);
    if (engine) {
      await lockAct3(page, 4);
      await page.selectOption(`${A3} [data-control="strategy"] select`, 'pp');
      await page.click(`${A3} .reveal-button`);
      await page.waitForSelector(`${A3} .reveal[data-revealed]`);
    }
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      assert.deepEqual(await axeViolations(page), [], `${width} px${engine ? '' : ` (${NO_ENGINE})`}`);
      assert.equal(await scrollsSideways(page), false, `${width} px`);
    }
    assert.deepEqual(problems.consoleErrors, []);
  });
}

test('Act 3 from the keyboard alone: the prediction is reached, typed and locked, with a visible focus', async (t) => {
  const { page, problems } = await open('light');
  await freshLab(page, srv.origin)('?act=3');
  if (!(await act3Engine(page))) { t.skip(NO_ENGINE); return; }
  await page.locator('#act-title').focus();
  await tabTo(page, `${A3} .prediction input`);
  assert.equal(await focusIsVisible(page), true);
  await page.keyboard.type('4');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${A3} .act-unlocked:not([hidden])`);
  await tabTo(page, `${A3} [data-control="gpus"] input`);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /gpus=16/.test(document.querySelector('.share__url').value));
  assert.deepEqual(problems.consoleErrors, []);
});

// The walk: at 1,280 px the strategy menu read "DDP: a full copy on each G". Each option's text,
// measured in the menu's own font, fits the closed menu (less its padding and arrow); and the words a
// new student meets first are glossed on the page, not only in a title.
test('every option of Act 3\'s menus is readable whole at 390, 768 and 1,280 px, and the jargon is glossed where it shows', async (t) => {
  const { page, problems } = await open('light');
  await freshLab(page, srv.origin)('?act=3&gpus=16&strategy=pp');
  if (!(await act3Engine(page))) { t.skip(NO_ENGINE); return; }
  await lockAct3(page, 4);
  for (const width of [390, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    const cut = await page.evaluate((a) => [...document.querySelectorAll(`${a} .controls select`)].flatMap((s) => {
      const cs = getComputedStyle(s);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return [...s.options].filter((o) => !o.hidden && ctx.measureText(o.text).width > room).map((o) => o.text);
    }), A3);
    assert.deepEqual(cut, [], `${width} px`);
  }
  const seen = await page.evaluate((a) => document.querySelector(a).innerText, A3);
  assert.match(seen, /micro-batches \(slices of the batch/);
  assert.match(seen, /NVLink: direct links/);
  assert.match(seen, /InfiniBand, Ethernet: networks/);
  assert.match(seen, /Reserve \(CUDA and framework overhead\)/);
  assert.deepEqual(problems.consoleErrors, []);
});
