// Act 1's framework switch (issue 13, item 6) in headless Chromium: "PyTorch defaults" shows the sum
// of the components and the peak during a step side by side, with the phase where the peak happens,
// and every one of them is the Node engine's answer for the scenario on screen (toScenario maps the
// switch); checkpointing and Chapter replay are disabled with a visible reason; the notes compare
// PyTorch's mixed precision with the chapter's; the switch is reachable and operable from the
// keyboard; a bad fw= parameter is reported; axe finds nothing at 1280 and 390 px, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, axeViolations, nodeEvaluate, settle, tabTo, focusIsVisible, scrollsSideways, expectLedger } from './helpers.mjs';
import { toScenario, normalizeConfig, OPTIMIZERS } from '../../web/src/state/scenario.js';
import { formatBytes } from '../../web/src/format/format.js';
import { phaseWords } from '../../web/src/models/ledger-model.js';
import { sumsThatDoNotAddUp, formatProblems } from '../web/unit/sum-check.mjs';
import { lockPrediction as lock, textWithDisclosures } from './act1-chart.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

// The sum/peak line, the table's sum, peak and phase rows, and the chart's peak marks against the
// Node engine for `config` (PyTorch defaults).
async function expectSumPeak(page, config) {
  const evaluate = await nodeEvaluate();
  const units = config.units || 'gb';
  const results = Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o }))]));
  const sel = results[config.optimizer];
  assert.equal(sel.error, undefined, JSON.stringify(sel.error));
  assert.equal(sel.scenario.framework, 'pytorch');
  const sp = sel.memory.step_phases;
  await settle(page);
  await page.waitForFunction(([bytes]) => document.querySelector('[data-testid="sum-peak"]')?.dataset.peakBytes === bytes, [String(sel.memory.peak_bytes)]);
  const box = page.locator('[data-testid="sum-peak"]');
  assert.equal(await box.getAttribute('data-framework'), 'pytorch');
  assert.equal(await box.getAttribute('data-sum-bytes'), String(sp.sum_bytes));
  assert.equal(await box.getAttribute('data-phase'), sp.peak_phase);
  const text = await box.textContent();
  const words = phaseWords(sp.peak_phase, sel.model.layers);
  assert.ok(text.includes(`add up to ${formatBytes(sp.sum_bytes, units)}`), text);
  assert.ok(text.includes(`The peak during a step is ${formatBytes(sp.device_peak_bytes, units)}, ${words}`), text);
  assert.ok(text.includes(formatBytes(Math.abs(sp.sum_minus_peak_bytes), units)), text);
  for (const opt of OPTIMIZERS) {
    const m = results[opt].memory;
    const sum = page.locator(`.ledger-table tr[data-row="total"] td[data-optimizer="${opt}"]`);
    const peak = page.locator(`.ledger-table tr[data-row="peak"] td[data-optimizer="${opt}"]`);
    const phase = page.locator(`.ledger-table tr[data-row="phase"] td[data-optimizer="${opt}"]`);
    assert.equal(await sum.getAttribute('data-bytes'), String(m.step_phases.sum_bytes), `sum/${opt}`);
    assert.ok((await sum.textContent()).startsWith(formatBytes(m.step_phases.sum_bytes, units)), `sum/${opt}`);
    assert.equal(await peak.getAttribute('data-bytes'), String(m.peak_bytes), `peak/${opt}`);
    assert.ok((await peak.textContent()).startsWith(formatBytes(m.peak_bytes, units)), `peak/${opt}`);
    assert.equal(await phase.getAttribute('data-phase'), m.step_phases.peak_phase, `phase/${opt}`);
    assert.equal((await phase.textContent()).trim(), phaseWords(m.step_phases.peak_phase, results[opt].model.layers), `phase/${opt}`);
    assert.equal(await page.locator(`.ledger-chart g.col[data-optimizer="${opt}"] line.peak-mark`).getAttribute('data-bytes'), String(m.peak_bytes));
    if (m.components.autocast_weight_cache > 0) {
      const cache = page.locator(`.ledger-table tr[data-row="autocast_cache"] td[data-optimizer="${opt}"]`);
      assert.equal(await cache.getAttribute('data-bytes'), String(m.components.autocast_weight_cache), `cache/${opt}`);
    }
  }
  // The notes' autocast paragraph quotes the same engine's autocast and FP32 peaks for this setting.
  const ac = evaluate(toScenario(config, { precision: 'mixed' })).memory;
  const fp = evaluate(toScenario(config, { precision: 'fp32' })).memory;
  const note = page.locator('.autocast-note');
  await page.waitForFunction((b) => document.querySelector('.autocast-note__body')?.dataset.acPeak === b, String(ac.peak_bytes));
  const noteText = await note.textContent();
  for (const b of [ac.peak_bytes, fp.peak_bytes, ac.components.autocast_weight_cache]) assert.ok(noteText.includes(formatBytes(b, units)), noteText);
  // Every sum on the page adds up as shown, one number format.
  const all = await textWithDisclosures(page);
  assert.deepEqual(sumsThatDoNotAddUp(all), []);
  assert.deepEqual(formatProblems(all), []);
  return results;
}

test('PyTorch defaults: the shown sum, peak and phase are the engine’s in several states; checkpointing and replay are off with a reason', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1`);
    await lock(page);
    // Textbook layout (the default): the line says once that sum and peak are the same there.
    const tb = page.locator('[data-testid="sum-peak"]');
    assert.equal(await tb.getAttribute('data-framework'), 'textbook');
    assert.match(await tb.textContent(), /peak during a step is the sum of the components/);
    assert.equal(await page.locator('.ledger-chart line.peak-mark').first().getAttribute('display'), 'none');
    assert.equal(await page.locator('.ledger-table tr[data-row="phase"]').count(), 0);

    await page.locator('[data-control="fw"] input[value="pytorch"]').check();
    await page.waitForURL(/fw=pytorch/);
    let config = normalizeConfig({ framework: 'pytorch' });
    await expectSumPeak(page, config);
    // Checkpointing and replay: disabled, with their reasons on screen.
    assert.equal(await page.locator('[data-control="ckpt"] select').isDisabled(), true);
    assert.equal(await page.locator('[data-control="ckpt"] .control__note--off').isVisible(), true);
    assert.equal(await page.locator('[data-control="replay"] input[type=checkbox]').isDisabled(), true);
    assert.equal(await page.locator('[data-control="replay"] .control__note--off').isVisible(), true);
    assert.match(await page.locator('[data-control="prec"]').textContent(), /autocast FP16/);

    // A few more states, through the controls.
    await page.locator('[data-control="prec"] input[value="mixed"]').check();
    config = { ...config, precision: 'mixed' };
    await expectSumPeak(page, config);
    await page.locator('[data-control="opt"] input[value="sgd"]').check();
    await page.locator('[data-control="dev"] select').selectOption('a100-sxm4-40gb');
    config = { ...config, optimizer: 'sgd', device: 'a100-sxm4-40gb' };
    await expectSumPeak(page, config);
    await page.locator('[data-control="batch"] input[type=range]').fill('5'); // batch 32
    config = { ...config, batch_size: 32 };
    await expectSumPeak(page, config);
    // Pure FP16 on the laptop GPU, by URL (the engine allows it; it cannot train).
    await openLab(page, `${srv.origin}/?act=1&fw=pytorch&opt=momentum&prec=fp16&batch=2&dev=rtx4060-laptop-8gb`);
    config = normalizeConfig({ framework: 'pytorch', optimizer: 'momentum', precision: 'fp16', batch_size: 2, device: 'rtx4060-laptop-8gb' });
    await expectSumPeak(page, config);

    // Back to the textbook layout: today's ledger, unchanged.
    await page.locator('[data-control="fw"] input[value="textbook"]').check();
    await page.waitForURL(/fw=textbook/);
    const textbook = normalizeConfig({ optimizer: 'momentum', precision: 'fp16', batch_size: 2, device: 'rtx4060-laptop-8gb' });
    await expectLedger(page, textbook, assert, { toScenario, formatBytes, OPTIMIZERS });
    assert.equal(await page.locator('[data-control="ckpt"] select').isDisabled(), false);
    assert.equal(await page.locator('[data-control="ckpt"] .control__note--off').isVisible(), false);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally {
    await browser.close();
  }
});

test('a bad fw= parameter is reported; fw=pytorch with checkpointing turns checkpointing off and says so', async () => {
  const browser = await launch();
  try {
    const { page } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1&fw=tensorflow`);
    const items = await page.locator('[data-notice="url"] li').allTextContents();
    assert.ok(items.some((t) => /fw=tensorflow: not a framework/.test(t)), items.join(' | '));
    await openLab(page, `${srv.origin}/?act=1&fw=pytorch&ckpt=full`);
    const items2 = await page.locator('[data-notice="url"] li').allTextContents();
    assert.ok(items2.some((t) => /ckpt=full: checkpointing is not available with (fw=pytorch|PyTorch defaults)/.test(t)), items2.join(' | '));
    assert.match(page.url(), /ckpt=none/);
  } finally {
    await browser.close();
  }
});

test('the switch is reachable and operable from the keyboard, and axe passes at 1280 and 390 px, light and dark', async () => {
  for (const [width, colorScheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']]) {
    const browser = await launch({ viewport: { width, height: 900 }, colorScheme });
    try {
      const { page, problems } = await watchedPage(browser.context, srv.origin);
      await openLab(page, `${srv.origin}/?act=1`);
      await lock(page);
      if (width === 1280 && colorScheme === 'light') {
        await page.locator('#act-title').focus();
        await tabTo(page, '[data-control="fw"] input:checked', 200);
        assert.equal(await focusIsVisible(page), true);
        await page.keyboard.press('ArrowDown'); // radios: the arrow picks the next choice
        await page.waitForURL(/fw=pytorch/);
        assert.equal(await page.locator('[data-control="fw"] input[value="pytorch"]').isChecked(), true);
      } else {
        await page.locator('[data-control="fw"] input[value="pytorch"]').check();
        await page.waitForURL(/fw=pytorch/);
      }
      await page.locator('[data-control="prec"] input[value="mixed"]').check();
      await settle(page);
      await page.waitForFunction(() => document.querySelector('.autocast-note__body')?.dataset.framework === 'pytorch');
      assert.equal(await scrollsSideways(page), false, `${width} px`);
      // The chart's key line (column = sum, line = peak) lies inside the chart.
      const key = await page.locator('.ledger-chart .peak-key').evaluate((t) => { const b = t.getBBox(); return { right: b.x + b.width, width: t.ownerSVGElement.viewBox.baseVal.width, text: t.textContent }; });
      assert.ok(key.text.includes('peak') && key.right <= key.width + 1, JSON.stringify(key));
      const v = await axeViolations(page);
      assert.deepEqual(v, [], `${width} px ${colorScheme}: ${JSON.stringify(v, null, 1)}`);
      assert.deepEqual(problems.consoleErrors, []);
    } finally {
      await browser.close();
    }
  }
});
