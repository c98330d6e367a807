// The ledger chart's labels in headless Chromium: at 390 px no two overlap over a sweep of devices,
// precisions, checkpointing and batch sizes (plus GiB, replay and a hidden part), and at 1280 px with
// parts hidden no line runs through a label and the key stays inside the chart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, settle } from './helpers.mjs';
import { lockPrediction as lock, chartLabelsClear, chartLabelsOverlap, peakKeyText, keyOutside, linesThroughLabels, caseOnlyTwins } from './act1-chart.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

test('at 390 px no two labels of the ledger chart overlap, whatever the settings (peaks, states, ticks, axis title)', async () => {
  const browser = await launch({ viewport: { width: 390, height: 844 } });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?opt=adam&prec=fp32&batch=8&ckpt=none&dev=h100-sxm-80gb`);
    await lock(page);
    const setBatch = (i) => page.locator('[data-control="batch"] input').evaluate((el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, i);
    const seen = [];
    const twins = [];
    for (const dev of ['h100-sxm-80gb', 'rtx4060-laptop-8gb']) {
      await page.locator('[data-control="dev"] select').selectOption(dev);
      for (const prec of ['fp32', 'mixed', 'fp16']) {
        await page.locator(`[data-control="prec"] input[value="${prec}"]`).check();
        for (const ckpt of ['none', 'full']) {
          await page.locator('[data-control="ckpt"] select').selectOption(ckpt);
          for (const b of [0, 3, 5, 7]) { // batch 1, 8, 32, 128
            await setBatch(b);
            await settle(page);
            const label = `${dev} ${prec} ckpt=${ckpt} batch#${b}`;
            assert.equal(await page.locator('.ledger-chart').getAttribute('data-layout'), 'narrow');
            assert.deepEqual(await chartLabelsOverlap(page), [], label);
            twins.push(...await caseOnlyTwins(page));
            seen.push(await page.locator('.ledger-chart text.col-total').allTextContents());
          }
        }
      }
    }
    assert.deepEqual([...new Set(twins)], [], 'segment names that differ only by case');
    // The sweep reached four-figure peaks (the case that used to collide) and the key says what the bare amounts are.
    assert.ok(seen.flat().some((t) => /^\d,\d{3}\.\d\d$/.test(t)), JSON.stringify(seen.slice(-3)));
    assert.match(await peakKeyText(page), /^Above each column: its peak, in GB/);
    // GiB, Chapter replay and a hidden component.
    await page.locator('.units input[value="gib"]').check();
    await page.locator('[data-control="replay"] input[type=checkbox]').check();
    await page.locator('.toggles input[data-component="activations"]').uncheck();
    await settle(page);
    assert.deepEqual(await chartLabelsOverlap(page), [], 'gib, replay, activations hidden');
    assert.match(await peakKeyText(page), /in GiB \(all parts\)/);
    // The key wraps inside the chart instead of being cut at its right edge (F3).
    assert.deepEqual(await keyOutside(page), [], 'key lines inside the chart');
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('at 1280 px with parts hidden, the peak labels never run together and no line runs through a label (F2)', async () => {
  const browser = await launch({ viewport: { width: 1280, height: 900 } });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1`);
    await lock(page);
    await settle(page);
    assert.deepEqual(await chartLabelsClear(page), [], 'the defaults');
    const states = [
      'opt=adam&prec=fp32&batch=8&ckpt=none&dev=a100-sxm4-40gb&fw=textbook&off=weights,adam_v',
      'opt=momentum&prec=bf16&batch=128&ckpt=none&dev=custom&cap=1000&fw=pytorch&off=weights,adam_v',
      'opt=adam&prec=mixed&batch=4&ckpt=none&dev=a100-sxm4-80gb&fw=pytorch&off=weights,adam_v',
      'opt=adam&prec=mixed&batch=4&ckpt=none&dev=v100-sxm2-32gb&fw=pytorch&units=gib&off=weights,adam_v',
      'opt=adam&prec=fp32&batch=128&ckpt=none&dev=h100-sxm-80gb&fw=pytorch&units=gb&off=activations,gradients',
    ];
    for (const q of states) {
      await openLab(page, `${srv.origin}/?act=1&${q}`);
      await settle(page);
      assert.equal(await page.locator('.ledger-chart').getAttribute('data-layout'), 'wide', q);
      assert.deepEqual(await chartLabelsOverlap(page), [], q);
      assert.deepEqual(await linesThroughLabels(page), [], q);
      assert.deepEqual(await chartLabelsClear(page), [], q);
      assert.deepEqual(await keyOutside(page), [], q);
      // The peaks still count the hidden parts, and the chart says so.
      assert.match(await peakKeyText(page), /hidden ones too|\(all parts\)/, q);
    }
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});

test('after the reveal the prediction bracket stays inside the plot when the guess is larger than any column (390 px, laptop GPU)', async () => {
  const browser = await launch({ viewport: { width: 390, height: 844 } });
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    // Mixed precision, full checkpointing, batch 1: Adam's column is far shorter than option d's 25 GB guess on top of its base.
    await openLab(page, `${srv.origin}/?opt=adam&prec=mixed&batch=1&ckpt=full&dev=rtx4060-laptop-8gb`);
    await lock(page, 'd');
    await page.locator('.toggles input[data-component="logits"]').uncheck();
    await page.locator('.toggles input[data-component="logits"]').check();
    await settle(page);
    await page.getByRole('button', { name: /Reveal/ }).click();
    await page.waitForSelector('.reveal[data-revealed="true"]');
    await settle(page);
    const geo = await page.locator('.ledger-chart').evaluate((svg) => {
      const top = Number(svg.querySelector('.bracket--guess .bracket-line').getAttribute('y2'));
      const ticks = [...svg.querySelectorAll('.axis--y .tick')].map((t) => Number(t.getAttribute('transform').match(/,([-\d.]+)\)/)[1]));
      return { top, highestTick: Math.min(...ticks) };
    });
    // The guess's cap lies at or below the axis's top tick, so it is drawn on the scale, not cut off.
    assert.ok(geo.top >= geo.highestTick - 0.5, JSON.stringify(geo));
    assert.deepEqual(await chartLabelsOverlap(page), []);
    assert.deepEqual(problems.consoleErrors, []);
  } finally { await browser.close(); }
});
