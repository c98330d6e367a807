// What Act 2 draws before the paint that follows an input, and what it draws just after
// (ui/offscreen-parts.js): a part on screen shows the new numbers in the very frame after the key
// press; a part out of view (the gauges at 1,280 px, the bar and the timeline at 390 px) shows them
// once the page settles, or as soon as it is scrolled into view. Numbers are checked against the same
// WASM build in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, nodeEvaluate, settle, predictAct2 } from './helpers.mjs';
import { DEFAULT_CONFIG2, toScenario2 } from '../../web/src/state/scenario.js';
import { stepBar } from '../../web/src/models/act2-model.js';
import { formatPercent } from '../../web/src/format/format.js';

const A2 = '[data-act="2"]';
const WORKERS = `${A2} [data-control="workers"] input`;
let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

async function openAct2(width) {
  const browser = await launch({ viewport: { width, height: 900 } });
  const { page, problems } = await watchedPage(browser.context, srv.origin);
  await openLab(page, `${srv.origin}/?act=2`);
  await predictAct2(page, 'c');
  await settle(page);
  return { browser, page, problems };
}

// The engine's numbers for the default step with `workers` loader workers.
async function engineStep(workers) {
  const evaluate = await nodeEvaluate();
  const r = evaluate(toScenario2({ ...DEFAULT_CONFIG2, data_workers: workers }));
  return { mfu: formatPercent(r.pipeline.mfu, 1), bar: stepBar(r.pipeline) };
}
// The width the bar gives data loading, as the chart writes it (percent of the step).
const loadingWidth = (bar) => `${(100 * bar.segments.find((s) => s.key === 'data_loading').seconds) / bar.step_seconds}%`;
const barWidth = (page) => page.locator(`${A2} .pipeline-bar g.seg--data_loading rect`).getAttribute('width');
const inView = (page, selector) => page.locator(selector).evaluate((el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });

test('at 1,280 px the bar is drawn before the next paint, the gauges below the fold just after it', async () => {
  const { browser, page, problems } = await openAct2(1280);
  try {
    await page.locator(WORKERS).focus();
    assert.equal(await inView(page, `${A2} .pipeline-bar`), true, 'the bar is beside the controls');
    assert.equal(await inView(page, `${A2} .gauge-scale`), false, 'the gauges are below the fold');
    // What the bar shows in the animation frame after the input, i.e. before that frame is painted.
    await page.evaluate(() => {
      window.__beforePaint = null;
      window.addEventListener('input', () => requestAnimationFrame(() => {
        window.__beforePaint = document.querySelector('[data-act="2"] .pipeline-bar g.seg--data_loading rect').getAttribute('width');
      }), { once: true });
    });
    await page.keyboard.press('ArrowRight'); // 0 → 1 worker
    const want = await engineStep(1);
    await page.waitForFunction(() => window.__beforePaint !== null);
    assert.equal(await page.evaluate(() => window.__beforePaint), loadingWidth(want.bar));
    await settle(page);
    assert.equal(await page.locator(`${A2} dd[data-gauge="mfu"]`).textContent(), want.mfu);
    // Scrolled into view in the same task as a change (so no idle time can draw them first), the
    // gauges show the change in the frame that scrolls them in (walk 12: one frame late before).
    const two = await engineStep(2);
    const seen = await page.evaluate(() => new Promise((resolve) => {
      const slider = document.querySelector('[data-act="2"] [data-control="workers"] input');
      slider.value = '2';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      document.querySelector('[data-act="2"] .gauge-scale').scrollIntoView({ block: 'center' });
      requestAnimationFrame(() => resolve(document.querySelector('[data-act="2"] dd[data-gauge="mfu"]').textContent));
    }));
    assert.equal(seen, two.mfu);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await browser.close(); }
});

test('at 390 px the bar and the timeline below the controls follow a change once the page settles', async () => {
  const { browser, page, problems } = await openAct2(390);
  try {
    await page.locator(WORKERS).focus();
    assert.equal(await inView(page, `${A2} .pipeline-bar`), false, 'on a phone the bar is below the controls');
    for (const workers of [1, 2, 3]) {
      await page.keyboard.press('ArrowRight');
      await settle(page);
      const want = await engineStep(workers);
      assert.equal(await barWidth(page), loadingWidth(want.bar), `${workers} workers`);
      assert.equal(await page.locator(`${A2} dd[data-gauge="mfu"]`).textContent(), want.mfu);
      assert.match(await page.locator(`${A2} [data-summary="bar"]`).textContent(), new RegExp(`^One step takes ${want.bar.step_seconds_shown.toFixed(2)}`));
    }
    await page.locator(`${A2} .timeline-chart`).scrollIntoViewIfNeeded();
    const segs = await page.locator(`${A2} .timeline-chart g.bar`).count();
    const evaluate = await nodeEvaluate();
    assert.equal(segs, evaluate(toScenario2({ ...DEFAULT_CONFIG2, data_workers: 3 })).pipeline.schedule.segments.length);
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [] });
  } finally { await browser.close(); }
});
