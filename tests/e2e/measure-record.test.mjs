// Measure it's runs outlive a reload and a new tab, and reach the design ledger (issue 23, item 6):
// a run that ends is recorded in the lab's state (settings, measured and predicted bytes at the peak,
// loss, time) and its charts are kept with the progress; a new tab finds them restored, and the
// exported ledger carries the record in lab_state.measure_runs, valid against the ledger's schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, launch, watchedPage, openLab } from './helpers.mjs';
import { STORAGE_KEY } from '../../web/src/state/store.js';
import { validateLedger } from '../../web/src/ledger/design-ledger.js';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv?.close(); });

const TRAIN = '.run-status:not(.run-status--stall)';
const choose = (p, key, value) => p.locator(`[data-control="${key}"] select`).selectOption(String(value));

test('a finished run comes back in a new tab and is in the exported design ledger with its measurements', async () => {
  const b = await launch();
  try {
    const { page, problems } = await watchedPage(b.context, srv.origin);
    await openLab(page, `${srv.origin}/?act=measure`);
    await page.waitForSelector('.act--measure');
    await choose(page, 'batch_size', 1);
    await choose(page, 'seq_len', 8);
    await choose(page, 'steps', 10);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction((s) => ['done', 'caution', 'failed', 'stalled', 'error'].includes(document.querySelector(s)?.dataset.state), TRAIN, { timeout: 120000 });
    assert.equal(await page.locator(TRAIN).getAttribute('data-state'), 'done');
    // Saved with the progress (the store writes a moment after a change).
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) || '{}').measure_runs?.length === 1, STORAGE_KEY);
    const [run] = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).measure_runs, STORAGE_KEY);
    assert.deepEqual(run.settings, { precision: 'fp32', optimizer: 'adam', checkpointing: 'none', batch_size: 1, seq_len: 8, steps: 10, learning_rate: 0.003 });
    assert.equal(run.outcome, 'done');
    assert.equal(run.steps_done, 10);
    // The allocator's bytes at the peak add up to the measured peak, which the ledger predicted exactly.
    assert.equal(Object.values(run.measured_bytes_at_peak).reduce((a, x) => a + x, 0), run.measured_peak_bytes);
    assert.equal(run.measured_peak_bytes, run.predicted_peak_bytes);
    assert.ok(Number.isFinite(run.first_loss_nats) && Number.isFinite(run.last_loss_nats), JSON.stringify(run));
    assert.ok(run.median_seconds_per_step > 0 && run.total_seconds > 0 && run.tokens_per_s > 0, JSON.stringify(run));
    const drawnBefore = await page.locator('.act--measure .chart-summary').allTextContents();

    // A new tab (no tab storage carried over): the run is drawn again, marked as restored.
    const tab = await watchedPage(b.context, srv.origin);
    await openLab(tab.page, `${srv.origin}/?act=measure`);
    await tab.page.waitForSelector('.act--measure [data-note="restored"]:visible');
    assert.deepEqual(await tab.page.locator('.act--measure .chart-summary').allTextContents(), drawnBefore);
    assert.match(await tab.page.locator(`${TRAIN} .run-status__text`).textContent(), /^Done: 10 steps/);

    // The design ledger carries the record, and it is valid against the ledger's schema.
    await openLab(tab.page, `${srv.origin}/?act=ledger`);
    await tab.page.waitForSelector('[data-act="ledger"]');
    // The ledger page says so on screen, not only in the file (student walk).
    assert.match(await tab.page.locator('[data-note="measure-runs"]').textContent(), /^Measure it: 1 run recorded; the last: FP32, Adam/);
    const [download] = await Promise.all([tab.page.waitForEvent('download'), tab.page.getByRole('button', { name: 'Download the ledger (.json)' }).click()]);
    const ledger = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.deepEqual(ledger.lab_state.measure_runs, [run]);
    // The readable summary beside it says so too.
    await tab.page.waitForFunction(() => document.querySelector('textarea.ledger-summary')?.value.includes('Measure it'));
    assert.match(await tab.page.locator('textarea.ledger-summary').inputValue(), /Measure it: 1 run recorded; the last: FP32, Adam, checkpointing none, batch 1 × 8 tokens, 10 of 10 steps \(done\): measured peak [\d.]+ MB, as the ledger predicted/);
    assert.deepEqual(validateLedger(ledger), []);
    assert.deepEqual(problems.consoleErrors, []);
    assert.deepEqual(tab.problems.consoleErrors, []);
  } finally {
    await b.close();
  }
});
