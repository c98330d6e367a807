// "Measure it" kept with the progress (localStorage), in headless Chromium: a run and the stall demo survive a visit to
// another act through the lab's own links (a page load on the lab's page) and come back drawn as
// they were, marked as restored, with the same judgement (a failed run stays failed); a run left
// mid-way comes back as stopped with the steps that had arrived, on the lab's page and on the iframe
// page (embed.html, where acts switch in place); stale or edited storage is ignored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, openLab, axeViolations, scrollsSideways } from './helpers.mjs';
import { KEEP_KEY } from '../../web/src/models/measure-keep.js';
import { DEFAULT_SETTINGS } from '../../web/src/models/measure-model.js';

let srv;
let browser;
let page;
let problems;

before(async () => {
  srv = await startServer();
  browser = await launch();
  ({ page, problems } = await watchedPage(browser.context, srv.origin));
});
after(async () => { await browser?.close(); await srv?.close(); });

const TRAIN = '.run-status:not(.run-status--stall)';
const STALL = '.run-status--stall';
const choose = (p, key, value) => p.locator(`[data-control="${key}"] select`).selectOption(String(value));
const waitState = (p, sel, states, timeout = 120000) => p.waitForFunction(([s, ok]) => ok.includes(document.querySelector(s)?.dataset.state),
  [sel, states], { timeout });
// Everything the panel drew for a run and the stall demo: status lines, bars, every table twin's
// values, every chart's summary, the speed cards and the model line.
const drawn = (p) => p.evaluate(([train, stall]) => {
  const status = (sel) => {
    const el = document.querySelector(sel);
    const bar = el.querySelector('progress');
    return { state: el.dataset.state, text: el.querySelector('.run-status__text').textContent,
      live: el.querySelector('[role="status"]').textContent, bar: `${bar.value}/${bar.max}` };
  };
  const tables = [...document.querySelectorAll('.act--measure table')].map((t) => [...t.querySelectorAll('tbody tr')]
    .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.dataset.value ?? td.textContent)));
  return {
    train: status(train), stall: status(stall), tables,
    charts: [...document.querySelectorAll('.act--measure svg.chart')].map((s) => s.getAttribute('aria-label')),
    summaries: [...document.querySelectorAll('.act--measure .chart-summary')].map((s) => s.textContent),
    speed: [...document.querySelectorAll('.speed__row dd')].map((dd) => `${dd.parentElement.dataset.key}=${dd.dataset.value}`),
    model: document.querySelector('.model-line').textContent,
    empty: [...document.querySelectorAll('.act--measure .empty-note')].filter((n) => !n.hidden).length,
  };
}, [TRAIN, STALL]);
// The restored notes' words meet the enhanced 7:1 contrast, as the lab's other words do (a11y.test.mjs).
const notesContrast = async (p) => {
  await axeViolations(p); // loads axe-core into the page
  const r = await p.evaluate(async () => {
    const out = await window.axe.run({ include: [['.act--measure [data-note="restored"]']] }, { runOnly: { type: 'rule', values: ['color-contrast-enhanced'] } });
    return { checked: out.passes.concat(out.violations).reduce((n, x) => n + x.nodes.length, 0), bad: out.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))) };
  });
  assert.ok(r.checked >= 2, `both notes checked (${r.checked})`);
  return r.bad;
};
const restoredNotes = (p) => p.locator('.act--measure [data-note="restored"]:visible').allTextContents();
// Follows the lab's own link in the act navigation; the lab's page and the iframe page both switch in
// place (checked with a mark on the window, which a page load would clear).
async function viaNav(p, name, { pageLoad = false } = {}) {
  await p.evaluate(() => { window.__beforeLink = true; });
  await p.locator('.act-nav a', { hasText: name }).click();
  await p.waitForFunction((n) => document.querySelector('.act-nav a[aria-current="page"]')?.textContent.startsWith(n), name);
  await p.waitForSelector('html[data-ready="true"]');
  assert.equal(await p.evaluate(() => window.__beforeLink === true), !pageLoad, pageLoad ? 'a page load' : 'switched in place');
}
const backToMeasure = async (p, opts) => {
  await viaNav(p, 'Measure it', opts);
  await p.waitForSelector('.act--measure');
};

test('a finished run and the stall demo come back, drawn as they were, after a visit to Act 2', async () => {
  await openLab(page, `${srv.origin}/?act=measure`);
  await page.waitForSelector('.act--measure');
  await page.locator('[data-control="precision"] input[value="mixed"]').check();
  await choose(page, 'batch_size', 2);
  await choose(page, 'seq_len', 16);
  await choose(page, 'steps', 10);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState(page, TRAIN, ['done', 'caution', 'failed', 'stalled', 'error']);
  await page.locator('[data-control="stall_steps"] select').selectOption('30');
  await page.locator(`${STALL} button`, { hasText: 'Run the stall demo' }).click();
  await waitState(page, STALL, ['done', 'error', 'cancelled']);
  await choose(page, 'learning_rate', 0.01); // a setting changed after the run: the next run's
  await page.waitForTimeout(300);
  const before = await drawn(page);
  assert.equal(before.train.state, 'done');
  assert.match(before.train.text, /^Done: 10 steps in [\d.]+\ss of training\.$/);
  assert.equal(before.stall.state, 'done');
  assert.equal(before.empty, 0);
  assert.deepEqual(await restoredNotes(page), [], 'nothing restored yet');

  await viaNav(page, 'Act 2');
  await page.waitForSelector('[data-act="2"]');
  await backToMeasure(page);
  await page.waitForTimeout(300);
  const after = await drawn(page);
  assert.deepEqual(after, before);
  assert.deepEqual(await restoredNotes(page), [
    'Restored: the results below are from your earlier run. Nothing has run since; press Run to start a new run.',
    'Restored: the charts below are from your earlier stall demo. Nothing has run since; press “Run the stall demo” to run it again.',
  ]);
  // The settings came back too, the one changed after the run included.
  assert.equal(await page.locator('[data-control="precision"] input[value="mixed"]').isChecked(), true);
  assert.equal(await page.locator('[data-control="learning_rate"] select').inputValue(), '0.01');
  assert.equal(await page.locator('[data-control="stall_steps"] select').inputValue(), '30');
  // Coming back takes no focus to a button, and the page is not scrolled to one.
  assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BUTTON');
  let v = await axeViolations(page);
  assert.deepEqual(v, [], JSON.stringify(v, null, 1));
  assert.deepEqual(await notesContrast(page), [], 'light scheme: 7:1');
  // At 390 px in the dark scheme: the notes wrap, nothing scrolls sideways, axe finds nothing.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  assert.equal(await scrollsSideways(page), false);
  v = await axeViolations(page);
  assert.deepEqual(v, [], JSON.stringify(v, null, 1));
  assert.deepEqual(await notesContrast(page), [], 'dark scheme: 7:1');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // A new run replaces the restored one: its note goes; the stall demo's stays.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState(page, TRAIN, ['done', 'caution', 'failed', 'stalled', 'error']);
  assert.equal((await restoredNotes(page)).length, 1);
  assert.match((await restoredNotes(page))[0], /stall demo/);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
});

test('a failed run comes back failed, in the failure look', async () => {
  await page.locator('[data-control="precision"] input[value="fp16"]').check();
  await page.locator('[data-control="optimizer"] input[value="adam"]').check();
  await choose(page, 'learning_rate', 0.03);
  await choose(page, 'batch_size', 4);
  await choose(page, 'seq_len', 32);
  await choose(page, 'steps', 20);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitState(page, TRAIN, ['done', 'failed', 'error']);
  const before = await drawn(page);
  assert.equal(before.train.state, 'failed');
  await viaNav(page, 'Act 1');
  await page.waitForSelector('[data-act="1"]');
  await backToMeasure(page);
  const after = await drawn(page);
  assert.deepEqual(after.train, before.train);
  assert.match(after.train.text, /^Failed — the run diverged/);
  assert.deepEqual(after.summaries, before.summaries);
  const look = await page.evaluate((sel) => {
    const t = document.querySelector(`${sel} .run-status__text`);
    return { icon: getComputedStyle(t, '::before').content, border: getComputedStyle(t.parentElement).borderTopStyle };
  }, TRAIN);
  assert.deepEqual(look, { icon: '"✕ "', border: 'dashed' });
  assert.deepEqual(problems.consoleErrors, []);
});

// Settings for a run that takes far longer than the test waits (320 steps of 16 × 64 tokens).
async function startLongRun(p) {
  await p.locator('[data-control="precision"] input[value="fp32"]').check();
  await choose(p, 'batch_size', 16);
  await choose(p, 'seq_len', 64);
  await choose(p, 'steps', 320);
  await p.getByRole('button', { name: 'Run', exact: true }).click();
  // Some steps and the run's first report (the memory charts) have arrived.
  await p.waitForFunction((sel) => Number(document.querySelector(sel).dataset.done) >= 3
    && !document.querySelector('.bytes-chart').closest('.chart-block').hidden, TRAIN, { timeout: 60000 });
  assert.equal(await p.locator(TRAIN).getAttribute('data-state'), 'running');
}

// After coming back: the run stopped when the panel was left, with every step that had arrived.
async function expectStoppedRun(p) {
  const d = await drawn(p);
  const n = Number(/^Stopped when you left Measure it, after (\d+) of 320 steps\.$/.exec(d.train.text)?.[1]);
  assert.ok(n >= 3 && n < 320, d.train.text);
  assert.equal(d.train.state, 'cancelled');
  assert.equal(d.train.live, d.train.text);
  assert.equal(d.train.bar, `${n}/320`);
  assert.equal(d.tables[0].length, n, 'one loss per step that arrived');
  assert.ok(d.charts.some((c) => /allocator held/.test(c)), 'the memory charts are drawn');
  assert.ok(d.summaries.some((s) => s.startsWith(`After ${n} of 320 steps the loss went from`)), d.summaries.join('\n'));
  assert.match(await p.locator('.speed-summary').textContent(), new RegExp(`^Over ${n} steps the model ran at `));
  assert.equal(await p.locator('[data-control="steps"] select').inputValue(), '320');
  assert.match((await restoredNotes(p))[0], /^Restored: the results below are from your earlier run/);
  assert.equal(await p.locator(TRAIN).getByRole('button', { name: 'Run', exact: true }).isEnabled(), true);
  assert.equal(await p.locator(TRAIN).getByRole('button', { name: 'Cancel' }).isEnabled(), false);
  return n;
}

test('a run still going when the student follows a link away comes back as stopped, with the steps that arrived', async () => {
  await startLongRun(page);
  await viaNav(page, 'Act 1');
  await page.waitForSelector('[data-act="1"]');
  await backToMeasure(page);
  await expectStoppedRun(page);
  assert.deepEqual(problems.consoleErrors, []);
});

let keptAbove = null;
test('on the iframe page, where acts switch in place, a run left mid-way is kept too, and a new run starts after it', async () => {
  // A tab of its own, with what the tab above kept removed first: the runs are kept with the progress
  // (localStorage), which the tabs of one browser share.
  const w = await watchedPage(browser.context, srv.origin);
  try {
    await openLab(w.page, `${srv.origin}/embed.html?act=1`);
    keptAbove = await w.page.evaluate((k) => { const t = localStorage.getItem(k); localStorage.removeItem(k); return t; }, KEEP_KEY);
    await openLab(w.page, `${srv.origin}/embed.html?act=measure`);
    await w.page.waitForSelector('.act--measure');
    assert.equal(await w.page.locator('.act--measure .empty-note:visible').count(), 5, 'a new tab starts empty');
    await startLongRun(w.page);
    await viaNav(w.page, 'Act 1', { pageLoad: false });
    await backToMeasure(w.page, { pageLoad: false });
    await expectStoppedRun(w.page);
    await choose(w.page, 'steps', 10);
    await w.page.getByRole('button', { name: 'Run', exact: true }).click();
    await waitState(w.page, TRAIN, ['done', 'error'], 60000);
    assert.match(await w.page.locator(`${TRAIN} .run-status__text`).textContent(), /^Done: 10 steps/);
    assert.deepEqual(await restoredNotes(w.page), []);
    assert.deepEqual(w.problems.consoleErrors, []);
  } finally {
    // The tab above's stopped run is what the next test reads back: put it back once this tab is gone.
    await w.page.close({ runBeforeUnload: false });
    if (keptAbove !== null) await page.evaluate(([k, t]) => localStorage.setItem(k, t), [KEEP_KEY, keptAbove]);
  }
});

test('kept data that is edited, stale or under another version’s key is ignored, and the panel starts empty', async () => {
  // What the first tab kept (a run stopped mid-way), read before the cases below overwrite it: the
  // tabs of one browser share it, as they share the progress.
  const valid = await page.evaluate((k) => localStorage.getItem(k), KEEP_KEY);
  const w = await watchedPage(browser.context, srv.origin);
  try {
    const cases = [
      '{not json',
      JSON.stringify({ settings: { steps: 9999, precision: 'fp64' }, train: { losses: 'lots', total: 40 }, stall: { pure: 'bf16' } }),
      JSON.stringify({ settings: { ...DEFAULT_SETTINGS, steps: 10 }, train: { losses: [4.1, 4], seconds: [], total: 10, report: { memory: {} }, end: { outcome: 'cancelled', stepsDone: 2 } } }),
    ];
    for (const text of cases) {
      // Written on Act 1's page: the panel writes what it keeps when its page is left.
      await openLab(w.page, `${srv.origin}/?act=1`);
      await w.page.evaluate(([k, t]) => localStorage.setItem(k, t), [KEEP_KEY, text]);
      await openLab(w.page, `${srv.origin}/?act=measure`);
      await w.page.waitForSelector('.act--measure');
      assert.equal(await w.page.locator('.act--measure .empty-note:visible').count(), 5, text);
      assert.deepEqual(await restoredNotes(w.page), [], text);
      assert.equal(await w.page.locator(TRAIN).getAttribute('data-state'), 'idle', text);
    }
    // The last one's settings were valid: they are kept although its run was not.
    assert.equal(await w.page.locator('[data-control="steps"] select').inputValue(), '10');
    // What the first tab kept (a run stopped mid-way) is used under this version's key only.
    for (const [key, restored] of [[KEEP_KEY.replace(/v\d+$/, 'v0'), false], [KEEP_KEY, true]]) {
      await openLab(w.page, `${srv.origin}/?act=1`);
      await w.page.evaluate(([k, t, now]) => { localStorage.removeItem(now); localStorage.setItem(k, t); }, [key, valid, KEEP_KEY]);
      await openLab(w.page, `${srv.origin}/?act=measure`);
      await w.page.waitForSelector('.act--measure');
      assert.equal((await restoredNotes(w.page)).length > 0, restored, key);
      assert.match(await w.page.locator(`${TRAIN} .run-status__text`).textContent(), restored ? /^Stopped when you left/ : /^$/, key);
    }
    assert.deepEqual(w.problems.consoleErrors, []);
  } finally { await w.page.close(); }
});
