// The single-file build (scripts/build-single.mjs → <site>-single/lab08-model-training.html) opened from
// disk (file://) in headless Chromium, with no server: Act 1 with the engine's numbers, progress kept
// across a reload (localStorage works on file:// in Chromium), Act 2, the design ledger panel, and
// "Measure it" training for real in its blob worker (losses equal the Node engine's, bit for bit); axe-core
// with zero violations; no request but the file itself, its data: URLs and its own blob: worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { launch, shipPage, axeViolations, nodeEvaluate, singleFile } from './helpers.mjs';
import { DEFAULT_CONFIG, normalizeConfig, toScenario } from '../../web/src/state/scenario.js';
import { trainRequest, DEFAULT_SETTINGS } from '../../web/src/models/measure-model.js';

const url = pathToFileURL(singleFile).href;
let browser;
let page;
let problems;

before(async () => {
  if (!existsSync(singleFile)) throw new Error(`${singleFile} is missing: run node scripts/build-single.mjs after vite build`);
  browser = await launch();
  ({ page, problems } = await shipPage(browser.context, [url, 'blob:null/']));
});
after(async () => { await browser?.close(); });

const open = async (query = '') => {
  await page.goto(url + query);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
};
const noViolations = async (label) => {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${label}: ${JSON.stringify(v, null, 1)}`);
};

test('the file references nothing outside itself', () => {
  const html = readFileSync(singleFile, 'utf8');
  assert.doesNotMatch(html, /<(?:script|link|img)[^>]+(?:src|href)="(?!data:)/);
});

test('from file://: Act 1 runs on the inlined engine and keeps progress across a reload', async () => {
  await open();
  assert.match(await page.locator('#act-title').textContent(), /Act 1/);
  await page.locator('.prediction input[value="c"]').check();
  await page.locator('.prediction button[type=submit]').click();
  await page.waitForSelector('.act-unlocked:not([hidden])');
  const evaluate = await nodeEvaluate();
  const config = normalizeConfig(DEFAULT_CONFIG);
  const peak = evaluate(toScenario(config)).memory.peak_bytes;
  await page.waitForFunction((bytes) => document.querySelector(`.ledger-table tr[data-row="peak"] td[data-optimizer="${'adam'}"]`)?.dataset.bytes === bytes, String(peak));
  assert.equal(await page.locator('[data-notice="storage"]').count(), 0, 'storage works on file://');
  await noViolations('Act 1');
  await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
  await open();
  assert.match(await page.locator('.locked-note').textContent(), /Locked in: C/);
});

test('from file://: Act 2 and the design ledger open', async () => {
  await page.locator('.act-nav a', { hasText: 'Act 2' }).click();
  await page.waitForSelector('html[data-ready="true"] [data-act="2"]', { timeout: 30000 });
  assert.match(await page.locator('#act-title').textContent(), /MFU gap/);
  await page.locator('.act-nav a', { hasText: 'Design ledger' }).click();
  await page.waitForSelector('html[data-ready="true"] [data-act="ledger"]', { timeout: 30000 });
  assert.match(await page.locator('.ledger-cal__list').textContent(), /memory/);
});

test('from file://: "Measure it" trains in its blob worker, with the Node engine’s losses', async () => {
  await open('?act=measure');
  await page.waitForSelector('.act--measure');
  for (const [key, value] of [['batch_size', 1], ['seq_len', 8], ['steps', 10]]) await page.locator(`[data-control="${key}"] select`).selectOption(String(value));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('.run-status:not(.run-status--stall)')?.dataset.state), null, { timeout: 60000 });
  assert.match(await page.locator('.run-status:not(.run-status--stall) .run-status__text').textContent(), /^Done: 10 steps/);
  const settings = { ...DEFAULT_SETTINGS, batch_size: 1, seq_len: 8, steps: 10 };
  const report = JSON.parse(execFileSync('scripts/labctl', ['train', '--fma'], { input: JSON.stringify(trainRequest(settings)), encoding: 'utf8', maxBuffer: 1 << 26 }));
  const losses = await page.locator('.act--measure section.panel').nth(1).locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  assert.deepEqual(losses, report.losses);
  assert.equal(await page.locator('.speed__row[data-key="matmul_arithmetic"] dd').getAttribute('data-value'), 'fma');
  await noViolations('Measure it after a run');
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
});
