// Act 2 under an instructor's locks: when the settings fixed in the lab keep the chapter's tuned
// regime out of reach, the design challenge says so with the engine's shares and is not asked for;
// the data-bound advice names the loader settings that are fixed. Numbers are compared with the
// search run on the WASM engine under Node for the same settings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, predictAct2, freshLab, nodeEvaluate, settle } from './helpers.mjs';
import { regimeReachable } from '../../web/src/models/act2-best.js';
import { DEFAULT_CONFIG2 } from '../../web/src/state/scenario.js';
import { formatPercent } from '../../web/src/format/format.js';
import { STORAGE_KEY } from '../../web/src/state/store.js';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

const A2 = '[data-act="2"]';
const ALL2 = ['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay'];
const design = (page) => page.locator(`${A2} .design`);
// The saved state's record of why the regime was not asked (undefined: asked), once the store has it.
const notAsked = async (page, want) => {
  // Wait for a saved state first: with none saved yet (the store saves after the paint), "undefined"
  // would match at once and the read below would find nothing (a loaded CI machine did).
  await page.waitForFunction(([k, w]) => { const st = JSON.parse(localStorage.getItem(k) || 'null'); return !!st && st.acts.act2?.design.not_asked === (w ?? undefined); }, [STORAGE_KEY, want]);
  return page.evaluate((k) => JSON.parse(localStorage.getItem(k)).acts.act2.design.not_asked, STORAGE_KEY);
};
const searched = (page) => page.waitForSelector(`${A2} .design[data-reach="yes"], ${A2} .design[data-reach="no"]`);

test('locks that keep the tuned regime out of reach: said with the engine’s shares, and not asked for', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    const fresh = freshLab(page, srv.origin);
    const evaluate = await nodeEvaluate();

    // The loader workers locked at none (the chapter's baseline).
    await fresh('?act=2&lock=workers');
    await predictAct2(page, 'b');
    await searched(page);
    const engine = regimeReachable(evaluate, { ...DEFAULT_CONFIG2, data_workers: 0 }, new Set(ALL2.filter((k) => k !== 'workers')));
    assert.equal(engine.reachable, false);
    assert.equal(await design(page).getAttribute('data-reach'), 'no');
    const text = await design(page).textContent();
    assert.match(text, /^Out of reach here\. /);
    assert.ok(text.includes(`the lowest loading share they reach is ${formatPercent(engine.lowest_data_share, 1)} and the highest compute share ${formatPercent(engine.highest_compute_share, 1)}`), text);
    assert.match(text, /so this part of the challenge is not asked for here\. /);
    // The saved record says why, so an exported ledger with completed true and regime_reached false explains itself.
    assert.equal(await notAsked(page, 'out_of_reach'), 'out_of_reach');
    assert.match(await page.locator(`${A2} [data-step="design"].step--skipped`).textContent(), /Design challenge \(its tuned regime is not asked here\)/, 'no design step to do');
    // The list keeps every section's number, so it reads as the headings do (walk 10: 1, 2, 4, 6…).
    assert.deepEqual(await page.locator(`${A2} .steps .step__mark`).allTextContents(), ['✓', '2', '3', '4', '5', '6', '7', '8']);
    // The best-so-far record and the solver line still show: the MFU part is still there to do.
    await page.locator(`${A2} [data-control="batch"] input`).focus();
    await page.keyboard.press('ArrowLeft'); // batch 16: fits on the V100
    await page.waitForSelector(`${A2} [data-best-mfu]`);
    await page.waitForSelector(`${A2} [data-solver-tokens]:not([data-solver-tokens=""])`);
    // The baseline is data-bound; the advice says which loader settings are left to try here, and why not the others.
    assert.match(await page.locator(`${A2} .bottleneck`).textContent(), /^Bottleneck: Data-bound: .*add loader workers, prefetching and pinned memory\. Here pinned memory is left to try: the number of loader workers is fixed in this lab and prefetching has no effect without a worker\.$/);

    // Submitted from the keyboard, the page was never idle and the search never ran (final check):
    // it has a timeout now.
    await fresh('?act=2&lock=workers');
    await page.locator(`${A2} .prediction input[value="b"]`).check();
    await page.keyboard.press('Tab');
    await page.locator(`${A2} .prediction button[type=submit]`).press('Enter');
    await page.waitForSelector(`${A2} .act-unlocked:not([hidden])`);
    await searched(page);
    assert.equal(await design(page).getAttribute('data-reach'), 'no');

    // The chapter calibration locked off: the regime counts only with it on.
    await fresh('?act=2&replay=0&lock=replay');
    await predictAct2(page, 'b');
    await searched(page);
    assert.match(await design(page).textContent(), /^Not asked here\. .*The tuned regime is the chapter’s calibrated profile, and the calibration is fixed off in this lab\. With the physics model’s constants the loader is fast enough from the start, so the shares above do not count for it/);
    assert.equal(await page.locator(`${A2} [data-step="design"].step--skipped`).count(), 1);
    assert.equal(await notAsked(page, 'calibration_fixed_off'), 'calibration_fixed_off');
    // Nothing fits on the V100 with the physics model; the calibration that would fit is locked off,
    // so the banner suggests only other GPUs.
    const banner = (await page.locator(`${A2} .banner`).first().textContent()).replace(/\u00a0/g, ' ');
    assert.match(banner, /Nothing this act can set fits on the NVIDIA V100 SXM2 32 GB with the physics model: .*choose the NVIDIA A100 SXM4 80 GB or the NVIDIA H100 SXM 80 GB, where these settings fit\./);
    assert.doesNotMatch(banner, /tick/);
    // The bottleneck line: the engine's memory advice names the optimizer, which this act does not offer.
    // Another GPU is suggested only where this step fits as it is (issue 23: not the A100 40 GB).
    assert.match((await page.locator(`${A2} .bottleneck`).textContent()).replace(/\u00a0/g, ' '), /^Bottleneck: Machine-bound \(memory capacity\): .*\(precision, optimizer, checkpointing, batch\)\. This act keeps Adam\. Here another GPU \(the NVIDIA A100 SXM4 80 GB or the NVIDIA H100 SXM 80 GB\) is left to try: no choice of the precision, checkpointing or the batch size left open fits on this GPU\.$/);
    assert.equal(await page.locator(`${A2} .gauge-oom`).isVisible(), true, 'the gauges say the step cannot run');
    await page.locator(`${A2} .math-peek summary`).click(); // the Peek says so too (walk 14)
    assert.match(await page.locator(`${A2} [data-peek="oom"]`).textContent(), /^This step does not fit in memory, so it cannot run/);
    await page.waitForSelector(`${A2} [data-solver-tokens]`);
    assert.match(await design(page).textContent(), /nothing this act can set fits on this GPU with the physics model \(see the banner in section 2\)/);

    // The GPU locked too (walk 9): the advice no longer sends the student to checkpointing or batch,
    // which cannot make a step fit on it; the calibration is named by the banner only (it changes how
    // the activations are counted, not what the step holds: issue 23's student walk).
    await fresh('?act=2&replay=0&lock=dev');
    await predictAct2(page, 'b');
    assert.match(await page.locator(`${A2} .bottleneck`).textContent(), /This act keeps Adam\. None of those can help further here: the GPU is fixed in this lab and no choice of the precision, checkpointing or the batch size left open fits on this GPU\.$/);
    assert.match((await page.locator(`${A2} .banner`).first().textContent()).replace(/\u00a0/g, ' '), /alone take [\d.]+ GB; tick the chapter calibration\.$/);
    await page.locator(`${A2} [data-control="replay"] input`).check();
    await page.waitForFunction(() => document.querySelector('[data-act="2"] .gauge-oom').hidden);
    await settle(page);
    assert.equal(await page.locator(`${A2} [data-peek="oom"]`).count(), 0, 'fitting, the Peek has no such note');

    // Locks that leave it in reach change nothing: two workers are enough.
    await fresh('?act=2&workers=2&lock=workers,pin');
    await predictAct2(page, 'b');
    await searched(page);
    assert.equal(regimeReachable(evaluate, { ...DEFAULT_CONFIG2, data_workers: 2 }, new Set(ALL2.filter((k) => k !== 'workers' && k !== 'pin'))).reachable, true);
    assert.equal(await design(page).getAttribute('data-reach'), 'yes');
    assert.match(await design(page).textContent(), /^Not there yet\. /);
    assert.equal(await notAsked(page, undefined), undefined);
    assert.equal(await page.locator(`${A2} [data-step="design"]:not(.step--skipped)`).count(), 1);
    assert.match(await page.locator(`${A2} .bottleneck`).textContent(), /\(host-to-device copies dominate\); pin host memory, so each copy skips the staging copy\. Pinned memory is fixed in this lab, so that cannot be tried here\.$/);

    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});

test('locks and hidden controls stay when the student moves between the parts of the lab (walk 8)', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await freshLab(page, srv.origin)('?act=2&lock=workers&hide=opt');
    await predictAct2(page, 'b');
    const lockedWorkers = async () => {
      await page.waitForSelector(`${A2} [data-control="workers"]`);
      assert.equal(await page.locator(`${A2} [data-control="workers"] input`).isDisabled(), true);
      assert.match(await page.locator(`${A2} [data-control="workers"]`).textContent(), /Locked by your instructor/);
    };
    await lockedWorkers();
    // The header's links: to Act 1 (its optimizer stays hidden), the ledger page, and back to Act 2.
    await page.locator('#act-nav a', { hasText: 'Act 1' }).click();
    await page.waitForSelector('html[data-ready="true"] [data-act="1"]');
    assert.match(page.url(), /[?&]hide=opt&lock=workers$/);
    assert.equal(await page.locator('[data-act="1"] [data-control="opt"]').isHidden(), true);
    await page.locator('#act-nav a', { hasText: 'Design ledger' }).click();
    await page.waitForURL(/act=ledger.*lock=workers/);
    await page.locator('#act-nav a', { hasText: 'Act 2' }).click();
    await page.waitForURL(/act=2&.*lock=workers/);
    await lockedWorkers();
    await searched(page);
    assert.match(await design(page).textContent(), /^Out of reach here\. /);
    // A link inside an act carries them too as it is followed: the laptop challenge's link to the
    // stall demo in "Measure it".
    const lap = `${A2} .laptop`;
    await page.locator(`${lap} .control:has-text("Precision") select`).selectOption('fp16');
    await page.locator(`${lap} .control:has-text("Optimizer") select`).selectOption('sgd');
    await page.locator(`${lap} .control:has-text("Activation checkpointing") select`).selectOption('full');
    await page.locator(`${lap} .control:has-text("Batch size") select`).selectOption('1');
    // Written with them, so hovering or dragging the link shows them too (walk 9).
    assert.equal(await page.locator(`${lap} .stall-note a`).getAttribute('href'), '?act=measure&hide=opt&lock=workers');
    await page.locator(`${lap} .stall-note a[href^="?act=measure"]`).click();
    await page.waitForURL(/act=measure.*lock=workers/);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(problems.foreignRequests, []);
  } finally { await browser.close(); }
});
