// The workbench's results in Chromium (?act=workbench): the numbers on screen are the engine's for the
// scenario shown, the timeline chart and its table twin agree, out of memory and pure 16-bit never read
// as success, an engine error keeps the last results marked not current, the design ledger records the
// workbench and verify re-computes it; axe, 390 px and dark mode. Scenarios other than the shell's
// reach the results through their `workbench-scenario` event (workbench-results.js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, launch, watchedPage, openLab, axeViolations, scrollsSideways, visibleWords } from './helpers.mjs';
import { loadLedgerEngine } from '../wasm/ledger-engine.mjs';
import { checkLedger } from '../../web/src/ledger/ledger-check.js';
import { textbookTwin, solveFor, timelineView, workbenchRecord } from '../../web/src/models/workbench-view.js';
import { formatBytes, plainText } from '../../web/src/format/format.js';
import { defaultState } from '../../web/src/state/store.js';

const KEY = 'lab08-model-train/state';
// The shell's scenario while its choices are being built (workbench.js).
const SHOWN = { model: 'gpt2-small', device: 'rtx4090-24gb', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 8, seq_len: 1024, checkpointing: 'none', framework: 'pytorch' };
let srv;
let engine;
before(async () => { srv = await startServer(); engine = await loadLedgerEngine(); });
after(async () => { await srv?.close(); });

const settled = (page) => page.waitForSelector('.wb-figure[data-key="largest"]:not([aria-busy]) .wb-figure__value[data-value]', { state: 'attached' })
  .then(() => page.waitForFunction(() => !document.querySelector('.workbench__results').dataset.pending));
async function openWorkbench(context) {
  const { page, problems } = await watchedPage(context, srv.origin);
  await openLab(page, `${srv.origin}/?act=workbench`);
  await settled(page);
  return { page, problems };
}
async function show(page, scenario) {
  await page.evaluate((s) => document.querySelector('.workbench__results').dispatchEvent(new CustomEvent('workbench-scenario', { detail: s })), scenario);
  await page.waitForFunction(() => !document.querySelector('.workbench__results').dataset.pending);
}
const value = (page, key) => page.locator(`.wb-figure[data-key="${key}"] .wb-figure__value`).getAttribute('data-value').then(Number);
const text = (page, sel) => page.locator(sel).first().textContent().then(plainText);
const clean = (problems) => { assert.deepEqual(problems.consoleErrors, []); assert.deepEqual(problems.foreignRequests, []); };

test('every number on screen is the engine’s for the scenario shown', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openWorkbench(browser.context);
    const r = engine.evaluate(SHOWN);
    const tb = engine.evaluate(textbookTwin(SHOWN));
    const { solved } = solveFor(SHOWN, engine.solve);
    assert.equal(await value(page, 'peak'), r.memory.peak_bytes);
    assert.equal(await text(page, '[data-key="peak"] .wb-figure__value'), plainText(formatBytes(r.memory.peak_bytes)));
    assert.equal(await value(page, 'usable'), r.memory.usable_device_bytes);
    assert.equal(await value(page, 'textbook'), tb.memory.peak_bytes);
    assert.equal(await value(page, 'largest'), solved.largest_batch.largest_batch);
    // Where the solver counted the textbook twin, the page says so, and that PyTorch's higher peak fits fewer.
    const { layout } = solveFor(SHOWN, engine.solve);
    const note = await text(page, '[data-key="largest"] .wb-figure__note');
    if (layout === 'textbook') assert.match(note, r.memory.peak_bytes > tb.memory.peak_bytes ? /textbook layout; PyTorch’s peak is higher, so fewer may fit/ : /textbook layout/);
    else assert.doesNotMatch(note, /textbook/);
    assert.equal(await value(page, 'step'), r.pipeline.step_seconds);
    assert.equal(await value(page, 'tokens'), r.pipeline.tokens_per_second);
    assert.equal(await value(page, 'mfu'), r.pipeline.mfu);
    assert.equal(await page.locator('.wb-current .banner').getAttribute('data-state'), 'ok');
    const spare = plainText(formatBytes(r.memory.usable_device_bytes - r.memory.peak_bytes));
    assert.equal(await text(page, '.wb-current .banner__title-text'), `Fits: ${spare} to spare`);
    // The estimate is labelled as one, and its assumptions are one click away.
    assert.match(await text(page, '[data-key="step"] dt'), /estimate/);
    await page.getByText('What the estimate assumes').click();
    assert.ok(await page.locator('details[open] li').count() >= 3);
    clean(problems);
  } finally { await browser.close(); }
});

test('the timeline chart and its table twin agree with each other and with the peak', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openWorkbench(browser.context);
    const tl = timelineView(engine.evaluate(SHOWN));
    assert.equal(await page.locator('.step-timeline path.tl-area').count(), tl.categories.length);
    assert.equal(await page.locator('.wb-chart .chart-legend li').count(), tl.categories.length + 1);
    assert.match(plainText(await page.locator('.step-timeline').getAttribute('aria-label')), new RegExp(`Peak ${plainText(formatBytes(tl.peak_bytes)).replace('.', '\\.')}`));
    assert.equal(plainText(await page.locator('.step-timeline .peak-label').textContent()), `peak ${plainText(formatBytes(tl.peak_bytes))}`);
    await page.getByText('Timeline as a table').click();
    const totals = await page.locator('.wb-table tbody tr td:last-child').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.deepEqual(totals, tl.phases.map((p) => p.total_bytes));
    assert.equal(Math.max(...totals), await value(page, 'peak'));
    assert.equal(await page.locator('.wb-table tr.is-peak').getAttribute('data-row'), tl.phases[tl.peakIndex].name);
    // Each row's categories add up to its total.
    const sums = await page.locator('.wb-table tbody tr').evaluateAll((trs) => trs.map((tr) => {
      const v = [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value));
      return v.slice(0, -1).reduce((a, b) => a + b, 0) === v.at(-1);
    }));
    assert.ok(sums.every(Boolean));
    clean(problems);
  } finally { await browser.close(); }
});

test('out of memory and pure 16-bit never read as success; an error keeps the last results, marked not current', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openWorkbench(browser.context);
    await show(page, { ...SHOWN, batch_size: 64 });
    const oom = engine.evaluate({ ...SHOWN, batch_size: 64 });
    assert.equal(await value(page, 'peak'), oom.memory.peak_bytes);
    assert.equal(await page.locator('.wb-current .banner').getAttribute('data-state'), 'oom');
    const title = await text(page, '.wb-current .banner__title');
    assert.match(title, /Out of memory/);
    assert.doesNotMatch(title, /✓|Fits/);
    assert.match(await text(page, '.wb-path__lead'), /Cheapest change that fits/);
    assert.ok(await page.locator('.wb-path li').count() > 0);
    // The speed of a run that does not fit: a visible line says no step runs, each card "if it fitted".
    const caveat = page.locator('.wb-timing-caveat');
    assert.ok(await caveat.isVisible());
    assert.match(await caveat.textContent(), /no step runs/);
    assert.deepEqual(await page.locator('.wb-figures--timing dt').allTextContents(), ['Step time (if it fitted)', 'Tokens/s (if it fitted)', 'MFU (if it fitted)']);
    assert.equal(await value(page, 'mfu'), oom.pipeline.mfu);
    assert.deepEqual(await axeViolations(page), []);
    // The path's moves in the controls' words, each with why it does or does not fit.
    for (const li of await page.locator('.wb-path li').allTextContents()) {
      assert.match(plainText(li), /^(Precision|Optimizer|Checkpointing|Micro-batch): .+ → .+: peak [\d.,]+ GB, (fits|still out of memory|still cannot train: updates stall)$/, li);
    }
    await show(page, { ...SHOWN, precision: 'bf16' });
    assert.equal(await page.locator('.wb-current .banner').getAttribute('data-state'), 'invalid');
    assert.doesNotMatch(await text(page, '.wb-current .banner__title'), /✓|Fits:/);
    assert.match(await caveat.textContent(), /updates stall/);
    assert.match(await text(page, '.wb-figure[data-key="mfu"] dt'), /does not train/);
    // An engine error: the message names the field, the last results stay, marked not current.
    const before = await value(page, 'peak');
    await show(page, { ...SHOWN, batch_size: -1 });
    assert.match(await text(page, '.wb-error[role=alert]'), /batch_size/);
    assert.ok(await page.locator('.wb-stale').isVisible());
    assert.equal(await value(page, 'peak'), before);
    await show(page, SHOWN);
    assert.ok(await caveat.isHidden());
    assert.equal(await text(page, '.wb-figure[data-key="mfu"] dt'), 'MFU (estimate)');
    assert.ok(await page.locator('.wb-error').isHidden());
    assert.ok(await page.locator('.wb-stale').isHidden());
    assert.ok(await page.locator('.wb-notes').isHidden());
    // The model's notes (here the sliding window's) are shown as the engine words them.
    const windowed = { ...SHOWN, model: { layers: 4, hidden: 512, heads: 8, kv_heads: 2, vocab: 1000, context: 2048, mlp_hidden: 1408, mlp: 'swiglu',
      norm: 'rmsnorm', biases: false, tied_head: false, learned_positions: false, sliding_window: 256 } };
    await show(page, windowed);
    assert.deepEqual(await page.locator('.wb-notes li').allTextContents().then((xs) => xs.map(plainText)), engine.evaluate(windowed).model.notes.map(plainText));
    clean(problems);
  } finally { await browser.close(); }
});

test('the design ledger records the workbench, and verify re-computes it', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await watchedPage(browser.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=1`);
    await page.evaluate(([k, s]) => localStorage.setItem(k, JSON.stringify(s)), [KEY, { ...defaultState(), workbench: { scenario: SHOWN } }]);
    await openLab(page, `${srv.origin}/?act=ledger`);
    const expected = workbenchRecord(SHOWN, engine);
    assert.match(await text(page, '[data-note="workbench"]'), new RegExp(`^Workbench: GPT-2 small \\(124M\\), batch 8: peak ${plainText(formatBytes(expected.peak_bytes)).replace('.', '\\.')}`));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the ledger (.json)' }).click()]);
    const ledgerText = readFileSync(await download.path(), 'utf8');
    const ledger = JSON.parse(ledgerText);
    assert.deepEqual(ledger.lab_state.workbench.scenario, SHOWN);
    assert.deepEqual(ledger.result_snapshot.workbench, expected);
    const verified = checkLedger(ledgerText, engine);
    assert.equal(verified.status, 'ok', verified.summary);
    assert.ok(verified.fields.some((f) => f.field === 'result_snapshot.workbench.peak_bytes' && !f.differs));
    ledger.result_snapshot.workbench.largest_batch_size += 1;
    assert.deepEqual(checkLedger(JSON.stringify(ledger), engine).differing_fields, ['result_snapshot.workbench.largest_batch_size']);
    clean(problems);
  } finally { await browser.close(); }
});

test('390 px in dark mode, 1280 px and 200% zoom in light: no sideways scroll, axe clean, few words', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openWorkbench(browser.context);
    // 640 px: a 1,280 px window at 200% zoom.
    for (const [width, scheme] of [[1280, 'light'], [640, 'light'], [390, 'dark']]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await show(page, { ...SHOWN, batch_size: 64 });
      await show(page, SHOWN);
      assert.equal(await scrollsSideways(page), false, `${width} px`);
      assert.deepEqual(await axeViolations(page), [], `${width} px ${scheme}`);
      const words = await visibleWords(page, '.workbench__results');
      assert.ok(words <= 230, `${words} words in the results at ${width} px`);
    }
    // Keyboard: the gap's explanation opens from the keyboard.
    await page.locator('[data-key="textbook"] summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-key="textbook"] details').getAttribute('open'), '');
    assert.deepEqual(await axeViolations(page), []);
    clean(problems);
  } finally { await browser.close(); }
});

test('switching to GiB repaints the results in GiB', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openWorkbench(browser.context);
    const r = engine.evaluate(SHOWN);
    await page.locator('[data-control="units"] input[value="gib"]').check();
    await page.waitForFunction((t) => document.querySelector('[data-key="peak"] .wb-figure__value').textContent.replace(/\u00a0/g, ' ') === t,
      plainText(formatBytes(r.memory.peak_bytes, 'gib')));
    assert.match(await text(page, '.step-timeline .axis-title'), /GiB/);
    clean(problems);
  } finally { await browser.close(); }
});
