// The "Measure it" panel in headless Chromium under the strict CSP: reached from the act navigation
// (its code, the worker and lab_train load only then), a short run whose progress advances and whose
// numbers equal the same request run in Node on the same build (losses and every byte count; times
// vary; Chromium has relaxed SIMD, so that is the fused-multiply-add build, lab_train_fma), the page
// staying responsive during a long run that is then cancelled, the stall demo, a run that diverges
// (or stalls) never looking like a success, axe-core in light and dark schemes, the panel saying the
// link's settings are Act 1's, no console errors and no request to another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadTrainEngine } from '../../scripts/engine-node.mjs';
import { startServer, launch, watchedPage, openLab, axeViolations } from './helpers.mjs';
import { trainRequest, DEFAULT_SETTINGS, phaseWords } from '../../web/src/models/measure-model.js';
import { stallRequests } from '../../web/src/models/stall-model.js';
import { formatSmallBytes } from '../../web/src/format/format.js';

let srv;
let browser;
let page;
let problems;
const requested = [];
// The request run by lab_train_fma through `labctl train --fma` (Node with relaxed SIMD): the module
// the page's worker loads in Chromium, so losses and stall counts must match bit for bit.
const nodeTrain = (req) => JSON.parse(execFileSync('scripts/labctl', ['train', '--fma'],
  { input: JSON.stringify(req), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));

before(async () => {
  srv = await startServer();
  browser = await launch();
  ({ page, problems } = await watchedPage(browser.context, srv.origin));
  browser.context.on('request', (req) => requested.push(req.url()));
});
after(async () => { await browser?.close(); await srv?.close(); });

const choose = async (key, value) => page.locator(`[data-control="${key}"] select`).selectOption(String(value));
const runStatus = (kind = 'train') => page.locator(kind === 'train' ? '.run-status:not(.run-status--stall)' : '.run-status--stall');
const waitState = (kind, states, timeout = 120000) => page.waitForFunction(([sel, ok]) => ok.includes(document.querySelector(sel)?.dataset.state),
  [kind === 'train' ? '.run-status:not(.run-status--stall)' : '.run-status--stall', states], { timeout });
// Requests made by the worker are not in the page's resource timing; the context sees them.
const until = async (fn, what, ms = 30000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (fn()) return;
  throw new Error(`timed out waiting for ${what}`);
};
// The training run status's look: its text colour, the success, failure and warning colours of the
// page's scheme, the icon before the words and the box's border style.
const statusLook = (p = page) => p.evaluate(() => {
  const el = document.querySelector('.run-status:not(.run-status--stall)');
  const text = el.querySelector('.run-status__text');
  const probe = (v) => { const d = document.createElement('span'); d.style.color = `var(${v})`; el.append(d); const c = getComputedStyle(d).color; d.remove(); return c; };
  return { color: getComputedStyle(text).color, ok: probe('--ok'), bad: probe('--bad'), warn: probe('--warn'),
    icon: getComputedStyle(text, '::before').content, border: getComputedStyle(el).borderTopStyle };
});
// Words outside the charts meet the enhanced 7:1 contrast (as in a11y.test.mjs): here, the run status.
const statusContrast = async (p = page) => {
  await axeViolations(p); // loads axe-core into the page
  return p.evaluate(async () => {
    const r = await window.axe.run({ include: [['.run-status:not(.run-status--stall)']] }, { runOnly: { type: 'rule', values: ['color-contrast-enhanced'] } });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message || v.help}`));
  });
};
const noViolations = async (label) => {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${label}: ${JSON.stringify(v, null, 1)}`);
};
// Records every value of the run status's data-done attribute (the steps done after each chunk).
const watchProgress = () => page.evaluate(() => {
  window.__progress = [];
  const el = document.querySelector('.run-status:not(.run-status--stall)');
  new MutationObserver(() => window.__progress.push(Number(el.dataset.done))).observe(el, { attributes: true, attributeFilter: ['data-done'] });
});

test('the panel opens from the act navigation, and only then loads its code, the worker and lab_train', async () => {
  await openLab(page, `${srv.origin}/`);
  assert.ok(requested.some((u) => /lab_core-.*\.wasm$/.test(u)));
  assert.ok(!requested.some((u) => /measure-|engine-worker|lab_train/.test(u)), requested.join('\n'));
  assert.match(await page.locator('.act-nav').textContent(), /Act 2: The MFU gap/);
  await page.locator('.act-nav a', { hasText: 'Measure it' }).click();
  await page.waitForSelector('.act--measure');
  assert.match(page.url(), /\?act=measure/);
  assert.equal(await page.locator('.act-nav a[aria-current="page"]').textContent(), 'Measure it');
  await until(() => requested.some((u) => /lab_train(_fma)?-.*\.wasm$/.test(u)), 'the worker to fetch lab_train');
  assert.ok(requested.some((u) => /engine-worker-.*\.js$/.test(u)));
  assert.ok(requested.some((u) => /measure-.*\.js$/.test(u)));
  assert.match(await page.locator('.act--measure .empty-note').first().textContent(), /Nothing measured yet/);
  await noViolations('panel before a run');
});

test('a short run advances its progress and shows the engine’s losses and byte counts', async () => {
  const settings = { ...DEFAULT_SETTINGS, precision: 'mixed', batch_size: 2, seq_len: 16, steps: 40 };
  await page.locator('[data-control="precision"] input[value="mixed"]').check();
  await choose('batch_size', 2);
  await choose('seq_len', 16);
  await choose('steps', 40);
  await watchProgress();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState('train', ['done', 'error']);
  assert.match(await runStatus().locator('.run-status__text').textContent(), /^Done: 40 steps in [\d.]+\ss of training\.$/);
  const progress = await page.evaluate(() => window.__progress);
  assert.ok(progress.length >= 2, `progress updates: ${progress}`);
  assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progress never goes back');
  assert.equal(progress.at(-1), 40);
  assert.equal(await runStatus().locator('progress').evaluate((p) => [p.value, p.max].join('/')), '40/40');

  const report = nodeTrain(trainRequest(settings));
  // Losses: the table twin carries every step's loss, bit for bit the Node engine's.
  const losses = await page.locator('.act--measure section.panel').nth(1).locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  assert.deepEqual(losses, report.losses);
  // Bytes: predicted and measured per category at the peak, and each category's maximum.
  const bytesRows = page.locator('.bytes-chart').locator('xpath=ancestor::section[1]').locator('tbody tr');
  const rows = await bytesRows.evaluateAll((trs) => trs.map((tr) => ({ key: tr.dataset.row, values: [...tr.querySelectorAll('td')].map((td) => (td.dataset.value === undefined ? null : Number(td.dataset.value))) })));
  const { predicted, measured } = report.memory;
  for (const row of rows.filter((r) => r.key !== 'peak')) {
    assert.deepEqual(row.values.slice(0, 4), [predicted.at_peak[row.key], measured.at_peak[row.key], predicted.max_by_category[row.key], measured.max_by_category[row.key]], row.key);
  }
  assert.deepEqual(rows.at(-1).values.slice(0, 2), [predicted.peak_bytes, measured.peak_bytes]);
  assert.equal(await page.locator('.bytes-row--differs').count(), 0);
  assert.match(await page.locator('.bytes-chart').getAttribute('aria-label'), /all \d+ categories match byte for byte/);
  // The prediction shown is the page's ledger (lab_core's exact inventory mode), not the run's own report.
  assert.match(await page.locator('.bytes-chart').getAttribute('aria-label'), /memory ledger predicted/);
  // The timeline marks the engine's peak and phase; the summary compares it with the sum of maxima.
  // …in words a student reads ("layer 2’s MLP down-projection, backward"), not the engine's phase id.
  assert.equal(await page.locator('.peak-label').textContent(), `peak ${formatSmallBytes(measured.peak_bytes)}`);
  const xTitle = await page.locator('.timeline-chart .axis-title').first().textContent();
  assert.equal(xTitle, `Phases of one training step, in order. Peak: ${phaseWords(measured.peak_phase)}`);
  assert.doesNotMatch(xTitle, /\b(fwd|bwd|rec)\./);
  const sum = Object.values(measured.max_by_category).reduce((a, b) => a + b, 0);
  assert.ok((await page.locator('.timeline-chart').getAttribute('aria-label')).includes(`less than ${formatSmallBytes(sum)}`));
  // The timeline's table twin: phases in words only, layers counted from 1 (F5).
  const phaseCells = await page.locator('.timeline-chart').locator('xpath=ancestor::section[1]').locator('table').evaluate((t) => ({
    heads: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
    rows: [...t.querySelectorAll('tbody th[scope="row"]')].map((th) => th.textContent),
  }));
  assert.equal(phaseCells.heads[0], 'Phase of the step, in order');
  assert.ok(phaseCells.rows.length > 10, JSON.stringify(phaseCells.rows.slice(0, 3)));
  assert.deepEqual(phaseCells.rows.filter((r) => /\b(fwd|bwd|rec)\.|\bL\d|layer 0\b/.test(r)), []);
  assert.ok(phaseCells.rows.includes('layer 1’s Q/K/V projection, forward'), phaseCells.rows.slice(0, 6).join(' | '));
  // Speed: the engine measured a peak and the MFU shown is model FLOP/s over it.
  const speed = Object.fromEntries(await page.locator('.speed__row dd').evaluateAll((dds) => dds.map((dd) => [dd.parentElement.dataset.key, Number(dd.dataset.value)])));
  assert.ok(speed.peak_flops_per_s > 1e8 && speed.model_flops_per_s > 1e7, JSON.stringify(speed));
  assert.ok(Math.abs(speed.mfu - speed.model_flops_per_s / speed.peak_flops_per_s) < 1e-9);
  // Chromium has relaxed SIMD, so the worker loaded the fused-multiply-add build, and says so.
  assert.equal(await page.locator('.speed__row[data-key="matmul_arithmetic"] dd').getAttribute('data-value'), 'fma');
  assert.equal(await page.locator('.speed__row[data-key="matmul_arithmetic"] dd').textContent(), 'Fused multiply-add');
  assert.match(await page.locator('.arithmetic-note').textContent(), /relaxed SIMD/);
  assert.match(await page.locator('.model-line').textContent(), new RegExp(`Model: ${report.model.parameters.toLocaleString('en-US')} parameters`));
  // The header's units toggle switches the panel to MiB.
  await page.locator('.units input[value="gib"]').check();
  await page.waitForFunction((t) => document.querySelector('.bytes-chart').getAttribute('aria-label').includes(t), formatSmallBytes(measured.peak_bytes, 'gib'));
  await page.locator('.units input[value="gb"]').check();
  await page.locator('.act--measure .twin summary').first().click();
  await noViolations('panel after a run');
});

test('the page stays responsive during a long run, and Cancel stops it between steps', async () => {
  await page.locator('[data-control="precision"] input[value="fp32"]').check();
  await choose('batch_size', 16);
  await choose('seq_len', 64);
  await choose('steps', 320);
  // What the status line says, and the speed cards, each time the bar moves.
  await page.evaluate(() => {
    window.__seen = [];
    const el = document.querySelector('.run-status:not(.run-status--stall)');
    new MutationObserver(() => window.__seen.push({
      done: Number(el.dataset.done), text: el.querySelector('.run-status__text').textContent,
      live: document.querySelector('.speed')?.dataset.live, step: document.querySelector('.speed__row[data-key="seconds_per_step"] dd')?.dataset.value,
    })).observe(el, { attributes: true, attributeFilter: ['data-done'] });
  });
  await page.getByRole('button', { name: 'Run', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Number(document.querySelector('.run-status:not(.run-status--stall)').dataset.done) >= 2, null, { timeout: 60000 });
  // Focus moved from the now-disabled Run to Cancel; the main thread answers at once while the worker trains.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Cancel');
  const frames = await page.evaluate(async () => {
    const out = [];
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      out.push(performance.now() - t);
    }
    return out.sort((a, b) => a - b);
  });
  assert.ok(frames[5] < 100, `median frame round trip ${frames[5]} ms`);
  await page.locator('[data-control="learning_rate"] select').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('[data-control="learning_rate"] select').inputValue(), '0.01');
  assert.equal(await runStatus().getAttribute('data-state'), 'running');
  await page.waitForFunction(() => window.__seen.length >= 4, null, { timeout: 60000 });
  await page.waitForTimeout(300); // one more frame, so the speed cards have followed the last chunk
  await runStatus().getByRole('button', { name: 'Cancel' }).click();
  await waitState('train', ['cancelled'], 15000);
  // The text never lags the bar: each time the bar moved, the line named the same step.
  const seen = await page.evaluate(() => window.__seen);
  for (const s of seen.filter((x) => /^Step /.test(x.text))) assert.equal(s.text, `Step ${s.done} of 320`, JSON.stringify(s));
  assert.ok(seen.filter((x) => /^Step /.test(x.text)).length >= 3, JSON.stringify(seen));
  // The speed cards follow the run (live, and not frozen at the first chunk's figures).
  const live = seen.filter((x) => x.live === 'true').map((x) => x.step);
  assert.ok(new Set(live).size >= 2, `speed cards while running: ${JSON.stringify(live)}`);
  assert.equal(await page.locator('.speed').getAttribute('data-live'), 'false');
  const text = await runStatus().locator('.run-status__text').textContent();
  const n = Number(/^Cancelled after (\d+) of 320 steps\.$/.exec(text)?.[1]);
  assert.ok(n >= 2 && n < 320, text);
  const done = await runStatus().getAttribute('data-done');
  await page.waitForTimeout(800);
  assert.equal(await runStatus().getAttribute('data-done'), done, 'no progress after cancelling');
  assert.equal(await runStatus().getByRole('button', { name: 'Run', exact: true }).isEnabled(), true);
  assert.equal(await page.locator('.act--measure section.panel').nth(1).locator('tbody tr').count(), n);
});

test('the stall demo: pure BF16 leaves most weights unchanged, mixed precision keeps learning', async () => {
  const steps = 30;
  await page.locator('[data-control="stall_steps"] select').selectOption(String(steps));
  await page.getByRole('button', { name: 'Run the stall demo' }).click();
  await waitState('stall', ['done', 'error', 'cancelled']);
  assert.match(await runStatus('stall').locator('.run-status__text').textContent(), /^Done: both runs ran 30 steps; the charts below compare them\.$/);
  const reqs = stallRequests('bf16', steps);
  const pure = nodeTrain(reqs.pure);
  const mixed = nodeTrain(reqs.mixed);
  const tables = page.locator('[data-panel="stall"] table');
  const cols = (t) => tables.nth(t).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
  const lossRows = await cols(0);
  assert.deepEqual(lossRows.map((r) => r[0]), pure.losses);
  assert.deepEqual(lossRows.map((r) => r[1]), mixed.losses);
  const shareRows = await cols(1);
  const n = pure.stall.weight_elements;
  assert.deepEqual(shareRows.map((r) => r[0]), pure.stall.weights_unchanged_per_step.map((c) => c / n));
  assert.deepEqual(shareRows.map((r) => r[1]), mixed.stall.master_unchanged_per_step.map((c) => c / n));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(mean(shareRows.map((r) => r[0])) > 0.5, 'pure BF16 leaves most weights unchanged');
  assert.ok(mean(shareRows.map((r) => r[1])) < 0.05, 'the FP32 master keeps moving');
  assert.ok(mean(mixed.losses.slice(-5)) < mixed.losses[0] - 0.05, 'mixed precision learns');
  assert.match(await page.locator('[data-panel="stall"] .chart-summary').nth(1).textContent(), /^Pure BF16 left \d+% of its weights bit-for-bit unchanged/);
  await noViolations('after the stall demo');
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
});

test('dark scheme with reduced motion: no axe violations after a run, and the lab still has no console errors', async () => {
  const dark = await launch({ colorScheme: 'dark', reducedMotion: 'reduce' });
  try {
    const w = await watchedPage(dark.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure`);
    await w.page.waitForSelector('.act--measure');
    await w.page.locator('[data-control="steps"] select').selectOption('10');
    await w.page.locator('[data-control="checkpointing"] select').selectOption('full');
    await w.page.getByRole('button', { name: 'Run', exact: true }).click();
    await w.page.waitForSelector('.run-status[data-state="done"]', { timeout: 60000 });
    await w.page.locator('.timeline-zoom input').check();
    const v = await axeViolations(w.page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    assert.deepEqual(w.problems.consoleErrors, []);
    assert.deepEqual(w.problems.foreignRequests, []);
  } finally { await dark.close(); }
});

test('when the training module cannot be loaded the panel says so, and the rest of the lab keeps working', async () => {
  const b = await launch();
  try {
    await b.context.route(/lab_train(_fma)?-.*\.wasm$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
    const w = await watchedPage(b.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure`);
    await w.page.waitForSelector('.act--measure');
    await w.page.getByRole('button', { name: 'Run', exact: true }).click();
    await w.page.waitForSelector('.run-status[data-state="error"]', { timeout: 30000 });
    assert.match(await w.page.locator('.run-status__text').first().textContent(), /^The training engine could not start, so nothing ran\. Try reloading the page .*Details: .+/);
    assert.equal(await w.page.getByRole('button', { name: 'Run', exact: true }).isEnabled(), true);
    await w.page.locator('.act-nav a', { hasText: 'Act 1' }).click();
    await w.page.waitForSelector('.prediction');
    assert.deepEqual(w.problems.foreignRequests, []);
  } finally { await b.close(); }
});

test('when the fused-multiply-add build cannot be loaded the worker falls back to the plain one', async () => {
  const b = await launch();
  try {
    await b.context.route(/lab_train_fma-.*\.wasm$/, (route) => route.fulfill({ status: 404, body: 'not found' }));
    const w = await watchedPage(b.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure`);
    await w.page.waitForSelector('.act--measure');
    const settings = { ...DEFAULT_SETTINGS, batch_size: 2, seq_len: 16, steps: 10 };
    for (const [key, value] of [['batch_size', 2], ['seq_len', 16], ['steps', 10]])
      await w.page.locator(`[data-control="${key}"] select`).selectOption(String(value));
    await w.page.getByRole('button', { name: 'Run', exact: true }).click();
    await w.page.waitForSelector('.run-status:not(.run-status--stall)[data-state="done"]', { timeout: 60000 });
    assert.equal(await w.page.locator('.speed__row[data-key="matmul_arithmetic"] dd').getAttribute('data-value'), 'mul+add');
    assert.match(await w.page.locator('.arithmetic-note').textContent(), /multiplies, then adds/);
    const plain = await loadTrainEngine();
    const report = JSON.parse(plain.train(JSON.stringify(trainRequest(settings))));
    const losses = await w.page.locator('.act--measure section.panel').nth(1).locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.deepEqual(losses, report.losses);
    assert.deepEqual(w.problems.foreignRequests, []);
  } finally { await b.close(); }
});

test('a diverged pure-FP16 run is marked where its loss stopped being a number, not drawn as a lone dot with a floating label', async () => {
  await page.locator('[data-control="precision"] input[value="fp16"]').check();
  await page.locator('[data-control="optimizer"] input[value="adam"]').check();
  await choose('learning_rate', 0.03);
  await choose('batch_size', 4);
  await choose('seq_len', 32);
  await choose('steps', 20);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState('train', ['done', 'failed', 'error']);
  const report = nodeTrain(trainRequest({ ...DEFAULT_SETTINGS, precision: 'fp16', optimizer: 'adam', learning_rate: 0.03, batch_size: 4, seq_len: 32, steps: 20 }));
  const bad = report.losses.findIndex((x) => x === null || !Number.isFinite(x));
  assert.ok(bad >= 1, 'this request diverges in the engine');
  const chart = page.locator('.act--measure section.panel').nth(1).locator('svg.line-chart');
  assert.equal(await chart.locator('.break--loss text').textContent(), `loss: not a number from step ${bad + 1} (diverged)`);
  assert.equal(await chart.locator('.line-label--loss').count(), 0, 'no label floating in the right-hand column');
  assert.match(await chart.getAttribute('aria-label'), /diverged/);
  // The status line says it failed, with the step and the skipped updates, not "Done"; it is announced
  // so, and it does not look like a success: the failure colour (not the success one), a ✕ and a dashed border.
  const skipped = report.skipped_steps.length;
  assert.ok(skipped > 10, `the loss scaler skipped ${skipped} updates`);
  // Each skip because the loss was no longer a number, and the cause named: Adam's v in FP16 (not an overflowing gradient).
  assert.equal(bad, 1);
  const failedText = new RegExp(`^Failed — the run diverged: from step 2, right after the first update, the loss is no longer a number, and the loss scaler skipped ${skipped} of 20 updates, each because the loss was no longer a number \\(20 steps in [\\d.]+\\ss of training\\)\\. Pure FP16 keeps Adam’s second moment v in FP16, where the square of a small gradient rounds to zero; .* Pure BF16, with FP32’s range, does not break this way\\.$`);
  assert.equal(await runStatus().getAttribute('data-state'), 'failed');
  assert.match(await runStatus().locator('.run-status__text').textContent(), failedText);
  assert.match(await runStatus().locator('[role="status"]').textContent(), failedText);
  const look = await statusLook();
  assert.notEqual(look.color, look.ok, 'not the success colour');
  assert.equal(look.color, look.bad, 'the failure colour');
  assert.equal(look.icon, '"✕ "');
  assert.equal(look.border, 'dashed');
  // The speed sentence says the speed was measured on steps that did not train, with the same numbers.
  const speed = await page.locator('.speed-summary').textContent();
  assert.match(speed, /^Over 20 steps the model ran at /);
  assert.ok(speed.includes(`But these steps did not train: the loss diverged at step ${bad + 1} and the loss scaler skipped ${skipped} of 20 updates, each because the loss was no longer a number, so this is the speed of a failed run`), speed);
  await noViolations('after a diverged run');
  assert.deepEqual(await statusContrast(), [], 'failed run status: 7:1 contrast');

  // Pure BF16 with plain SGD at the smallest learning rate: the run goes on, but most weights come out
  // of each update unchanged. A warning (⚠, a double border), not the success look.
  await page.locator('[data-control="precision"] input[value="bf16"]').check();
  await page.locator('[data-control="optimizer"] input[value="sgd"]').check();
  await choose('learning_rate', 0.0003);
  await choose('steps', 10);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState('train', ['done', 'failed', 'stalled', 'error']);
  assert.equal(await runStatus().getAttribute('data-state'), 'stalled');
  assert.match(await runStatus().locator('[role="status"]').textContent(), /^Stalled — most updates changed nothing: on average \d+% of the weights came out of each update bit-for-bit unchanged \(10 steps in [\d.]+\ss of training\)\. Pure BF16 keeps no FP32 master copy/);
  const warn = await statusLook();
  assert.notEqual(warn.color, warn.ok, 'not the success colour');
  assert.equal(warn.color, warn.warn);
  assert.equal(warn.icon, '"⚠ "');
  assert.equal(warn.border, 'double');
  assert.doesNotMatch(await page.locator('.speed-summary').textContent(), /did not train/);
  await noViolations('after a stalled run');
  assert.deepEqual(await statusContrast(), [], 'stalled run status: 7:1 contrast');

  // Pure BF16 with Adam: the updates land and the loss falls, but without an FP32 master copy the
  // run is never shown as a plain success (walk 10): a caution, in the warning look.
  await page.locator('[data-control="optimizer"] input[value="adam"]').check();
  await choose('learning_rate', 0.003);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState('train', ['done', 'failed', 'stalled', 'caution', 'error']);
  assert.equal(await runStatus().getAttribute('data-state'), 'caution');
  assert.match(await runStatus().locator('[role="status"]').textContent(), /^Done, but without an FP32 master copy \(10 steps in [\d.]+\ss of training\): \d+% of the weights came out of an update unchanged on average\. Pure BF16 rounds away/);
  const caution = await statusLook();
  assert.equal(caution.color, caution.warn);
  assert.equal(caution.icon, '"⚠ "');
  assert.equal(caution.border, 'double');
  await noViolations('after a pure 16-bit run that trained');
  assert.deepEqual(await statusContrast(), [], 'caution run status: 7:1 contrast');
});

test('Measure it at 390 px in the dark scheme: axe finds no violations before and after a run', async () => {
  const phone = await launch({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  try {
    const w = await watchedPage(phone.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure`);
    await w.page.waitForSelector('.act--measure');
    let v = await axeViolations(w.page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    await w.page.locator('[data-control="steps"] select').selectOption('10');
    await w.page.getByRole('button', { name: 'Run', exact: true }).click();
    await w.page.waitForSelector('.run-status:not(.run-status--stall)[data-state="done"]', { timeout: 60000 });
    await w.page.locator('.act--measure .twin summary').first().click();
    v = await axeViolations(w.page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    const done = await statusLook(w.page);
    assert.equal(done.color, done.ok);
    assert.equal(done.icon, '"✓ "');
    // A run that diverges (pure FP16 with Adam), started from the keyboard: the failure look in the
    // dark scheme too, and still nothing for axe to find.
    await w.page.locator('[data-control="precision"] input[value="fp16"]').check();
    await w.page.getByRole('button', { name: 'Run', exact: true }).focus();
    await w.page.keyboard.press('Enter');
    await w.page.waitForSelector('.run-status:not(.run-status--stall):is([data-state="failed"], [data-state="done"], [data-state="error"])', { timeout: 60000 });
    const failed = await statusLook(w.page);
    assert.equal(await w.page.locator('.run-status:not(.run-status--stall)').getAttribute('data-state'), 'failed');
    assert.notEqual(failed.color, failed.ok);
    assert.equal(failed.color, failed.bad);
    assert.equal(failed.icon, '"✕ "');
    assert.equal(await w.page.evaluate(() => document.activeElement.textContent), 'Run', 'focus back on Run');
    v = await axeViolations(w.page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    assert.deepEqual(await statusContrast(w.page), [], 'failed run status, dark: 7:1 contrast');
    const sideways = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `page scrolls sideways by ${sideways}px`);
    assert.deepEqual(w.problems.consoleErrors, []);
  } finally { await phone.close(); }
});

test('a link setting of Act 1 that is not valid (batch=1e308) is reported, and the panel says its own settings are not the link’s', async () => {
  const b = await launch();
  try {
    const w = await watchedPage(b.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure&batch=1e308`);
    await w.page.waitForSelector('.act--measure');
    // The notice at the top is the app's (about Act 1's batch sizes); next to its controls the panel
    // says that the link's settings are Act 1's and do not change it.
    assert.match(await w.page.locator('[data-notice="url"] li[data-param="batch"]').textContent(), /^batch=1e308: /);
    assert.match(await w.page.locator('[data-notice="url"] strong').textContent(), /^Some of the acts’ settings in the link could not be used \(they do not change this page\):$/);
    const note = w.page.locator('.act--measure [data-note="settings-scope"]');
    assert.equal(await note.isVisible(), true);
    assert.match(await note.textContent(), /^These settings are not in the lab’s link: it carries only the acts’ settings\.$/);
    // …and it sits in the settings panel, before the controls it is about.
    assert.equal(await note.evaluate((n) => Boolean(n.compareDocumentPosition(document.querySelector('.act--measure [data-control="batch_size"]')) & Node.DOCUMENT_POSITION_FOLLOWING)), true);
    assert.equal(await w.page.locator('[data-control="batch_size"] select').inputValue(), String(DEFAULT_SETTINGS.batch_size));
    assert.deepEqual(w.problems.consoleErrors, []);
  } finally { await b.close(); }
});

test('Measure it at 390 px: the loss, bytes and timeline charts are drawn at their box’s width, every label inside and none overlapping, the whole curve on screen', async () => {
  const phone = await launch({ viewport: { width: 390, height: 844 } });
  try {
    const w = await watchedPage(phone.context, srv.origin);
    await openLab(w.page, `${srv.origin}/?act=measure`);
    await w.page.waitForSelector('.act--measure');
    await w.page.getByRole('button', { name: 'Run', exact: true }).click(); // the default 40 steps
    await w.page.waitForSelector('.run-status:not(.run-status--stall)[data-state="done"]', { timeout: 120000 });
    await w.page.waitForTimeout(200);
    const charts = await w.page.locator('.act--measure svg.chart').evaluateAll((svgs) => svgs.filter((s) => s.getClientRects().length).map((svg) => {
      const box = svg.parentElement;
      const r = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.getClientRects().length)
        .map((t) => ({ text: t.textContent, b: t.getBoundingClientRect() }));
      const overlap = [];
      for (let i = 0; i < texts.length; i += 1) {
        for (let j = i + 1; j < texts.length; j += 1) {
          const a = texts[i].b;
          const c = texts[j].b;
          if (a.left + 0.75 < c.right && c.left + 0.75 < a.right && a.top + 0.75 < c.bottom && c.top + 0.75 < a.bottom) overlap.push(`${texts[i].text} × ${texts[j].text}`);
        }
      }
      const last = svg.querySelector('circle.last');
      const lb = last && last.getBoundingClientRect();
      return {
        cls: svg.getAttribute('class'), layout: svg.dataset.layout, svg: r.width, box: box.getBoundingClientRect().width,
        scroll: box.scrollWidth - box.clientWidth,
        outside: texts.filter((x) => x.b.left < r.left - 1 || x.b.right > r.right + 1).map((x) => x.text),
        overlap, texts: texts.map((x) => x.text),
        lastDot: lb ? { inside: lb.left >= r.left && lb.right <= r.right, steps: svg.querySelector('path.series').dataset.points } : null,
      };
    }));
    assert.deepEqual(charts.map((c) => c.cls.split(' ')[1]), ['line-chart', 'bytes-chart', 'timeline-chart']);
    for (const c of charts) {
      assert.equal(c.layout, 'narrow', c.cls);
      assert.ok(c.svg <= c.box + 0.5 && c.scroll <= 0, `${c.cls}: ${c.svg} px in a ${c.box} px box, scrolls ${c.scroll}`);
      assert.deepEqual(c.outside, [], `${c.cls}: text outside the chart`);
      assert.deepEqual(c.overlap, [], `${c.cls}: overlapping text`);
    }
    const [lossC, , tl] = charts;
    assert.deepEqual(lossC.lastDot, { inside: true, steps: '40' }, 'the 40th step is on screen');
    assert.ok(lossC.texts.some((t) => /^uniform guess \d\.\d\d$/.test(t)) && lossC.texts.some((t) => /^task floor \d\.\d\d$/.test(t)), JSON.stringify(lossC.texts));
    assert.ok(tl.texts.includes('backward'), JSON.stringify(tl.texts));
    // The caption under the phases wraps (tspans) and says it all, its words apart where lines break.
    const caption = tl.texts.find((t) => t.startsWith('Phases of one training step'));
    assert.match(caption, /^Phases of one training step, in order\. Peak: /);
    assert.doesNotMatch(caption, /[,.:]\S|\S {2}/, caption);
    const sideways = await w.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `page scrolls sideways by ${sideways}px`);
    // No chart box is a tab stop that scrolls: nothing there to scroll.
    assert.equal(await w.page.locator('.act--measure .chart-box[tabindex]').count(), 0);
    const v = await axeViolations(w.page);
    assert.deepEqual(v, [], JSON.stringify(v, null, 1));
    assert.deepEqual(w.problems.consoleErrors, []);
  } finally { await phone.close(); }
});
