// The workbench's "Check it on your GPU" in Chromium: the script downloaded is the one Node writes for
// the workbench's scenario; a result measured on this machine's CPU (tests/fixtures/pytorch/user/),
// pasted back, shows the engine's numbers phase by phase and "Agrees", and reaches the design ledger,
// where the ledger check re-computes its prediction side; hostile pastes are refused naming the field
// with the paste kept; keyboard only, axe at 1280 and 390 px and in dark mode; nothing leaves the origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, watchedPage, openLab, axeViolations, scrollsSideways } from './helpers.mjs';
import { loadLedgerEngine } from '../wasm/ledger-engine.mjs';
import { checkFor, pytorchScript, forBuild, cpuRunSeconds } from '../../web/src/models/pytorch-script.js';
import { compareMeasured } from '../../web/src/models/pytorch-compare.js';
import { checkRows, verdict } from '../../web/src/models/pytorch-check-view.js';
import { plainText } from '../../web/src/format/format.js';
import { buildDesignLedger } from '../../web/src/ledger/design-ledger.js';
import { checkLedger } from '../../web/src/ledger/ledger-check.js';
import { defaultState } from '../../web/src/state/store.js';

const KEY = 'lab08-model-train/state';
const userDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'pytorch', 'user');
const resultText = readFileSync(path.join(userDir, readdirSync(userDir).filter((f) => f.endsWith('.json')).sort()[0]), 'utf8');
const measured = JSON.parse(resultText);
// The workbench's run choices for the step that result measured (the workbench keeps these fields;
// where it runs is the panel's choice).
const RUN_KEYS = ['model', 'device', 'precision', 'optimizer', 'batch_size', 'seq_len', 'checkpointing', 'framework', 'zero_grad', 'optimizer_impl'];
const measuredRun = Object.fromEntries(RUN_KEYS.map((k) => [k, measured.scenario[k]]));
let srv;
let engine;
before(async () => { srv = await startServer(); engine = await loadLedgerEngine(); });
after(async () => { await srv?.close(); });

// The workbench opened on the scenario the user's result measured (saved progress, as a student's own).
async function openOn(context, scenario) {
  const { page, problems } = await watchedPage(context, srv.origin);
  // Before the app's first script, once per tab (a reload keeps what the page saved since).
  await page.addInitScript(([k, s]) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem(k, s); sessionStorage.setItem('seeded', '1'); }
  }, [KEY, JSON.stringify({ ...defaultState(), workbench: { scenario, gpu_unit: 'gb' } })]);
  await openLab(page, `${srv.origin}/?act=workbench`);
  await page.waitForSelector('.wb-check');
  return { page, problems };
}
// The panel is closed until asked for (few words on screen).
async function openCheck(page) {
  await page.locator('.wb-check > summary').click();
  await page.waitForSelector('.wb-check[open]');
}
const shownScenario = (page) => page.evaluate((k) => JSON.parse(localStorage.getItem(k)).workbench.scenario, KEY);
const clean = (problems) => { assert.deepEqual(problems.consoleErrors, []); assert.deepEqual(problems.foreignRequests, []); };

test('the script downloaded is Node\'s for the scenario shown; a result pasted back shows the engine\'s comparison and reaches the ledger', async () => {
  const browser = await launch({ acceptDownloads: true });
  try {
    const { page, problems } = await openOn(browser.context, measuredRun);
    const scenario = await shownScenario(page);
    await openCheck(page);
    const downloaded = async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.wb-check button', { hasText: 'Download lab08_check.py' }).click()]);
      assert.equal(download.suggestedFilename(), 'lab08_check.py');
      return readFileSync(await download.path(), 'utf8');
    };
    assert.equal(await downloaded(), pytorchScript(checkFor(engine.evaluate, scenario)));
    await page.getByLabel('this computer’s CPU', { exact: false }).check();
    assert.equal(await downloaded(), pytorchScript(checkFor(engine.evaluate, forBuild(scenario, 'cpu-1.13'))));
    assert.match(plainText(await page.locator('.wb-check__run').textContent()), /^Run it with python3 lab08_check\.py, or in a notebook/);

    await page.locator('#wb-check-paste').fill(resultText);
    await page.locator('.wb-check button', { hasText: 'Compare with the prediction' }).click();
    const cmp = compareMeasured(engine.evaluate, forBuild(scenario, 'cpu-1.13'), resultText);
    assert.equal(cmp.status, 'agrees');
    assert.equal(plainText(await page.locator('.wb-check__verdict').textContent()), `✓ ${plainText(verdict(cmp).text)}`);
    const cells = await page.locator('.wb-check__table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => [td.textContent, Number(td.dataset.value)])));
    const rows = checkRows(cmp);
    assert.equal(cells.length, rows.length);
    cells.forEach((c, i) => {
      assert.deepEqual(c.map(([t]) => plainText(t)), [rows[i].predicted, rows[i].measured, rows[i].error].map(plainText));
      assert.deepEqual(c.map(([, v]) => v), [cmp.phases[i].predicted_bytes, cmp.phases[i].measured_bytes, cmp.phases[i].error_pct]);
    });
    assert.match(plainText(await page.locator('.wb-check__timing').textContent()), /Not the same device, so the two times do not compare\.$/);

    // Recorded in the saved progress, and the ledger check re-computes its prediction side.
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) || '{}').gpu_checks?.length === 1, KEY);
    const state = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), KEY);
    assert.equal(state.gpu_checks.length, 1);
    assert.deepEqual(state.gpu_checks[0].measured, measured);
    assert.equal(state.gpu_checks[0].predicted.status, 'agrees');
    const ledger = buildDesignLedger(state, engine);
    assert.deepEqual(ledger.lab_state.gpu_checks, state.gpu_checks);
    const checked = checkLedger(JSON.stringify(ledger), engine);
    assert.equal(checked.status, 'ok', JSON.stringify(checked).slice(0, 300));
    assert.ok(JSON.stringify(checked).includes('lab_state.gpu_checks[0].predicted.phases[7].predicted_bytes'));
    clean(problems);
  } finally { await browser.close(); }
});

test('hostile pastes are refused naming the field, the paste is kept, and a result of another scenario names what differs', async () => {
  const browser = await launch();
  try {
    const { page, problems } = await openOn(browser.context, measuredRun);
    await openCheck(page);
    const compare = () => page.locator('.wb-check button', { hasText: 'Compare with the prediction' }).click();
    const edited = JSON.parse(resultText);
    edited.steady_step.peak_bytes += 1000;
    const cases = [
      ['not json at all', /^✕ Not compared\. Not JSON[^]*Your paste is kept\.$/],
      ['x'.repeat(10 * 1024 * 1024), /Not compared\. 10240 KB pasted/],
      [JSON.stringify(edited), /Not compared\. The steady step's peak: \d+ is not the largest phase peak \(\d+\): the numbers were changed after the run\. Your paste is kept\.$/],
      ['{"refused": "PyTorch sees no CUDA GPU.", "scenario": {}}', /did not run the step: PyTorch sees no CUDA GPU/],
    ];
    for (const [paste, message] of cases) {
      await page.locator('#wb-check-paste').fill(paste);
      await compare();
      assert.match(plainText(await page.locator('.wb-check__error:not([hidden])').textContent()), message);
      assert.equal((await page.locator('#wb-check-paste').inputValue()).length, paste.length, 'the paste is kept');
      assert.equal(await page.locator('.wb-check__result').isHidden(), true);
    }
    // The same result against a scenario of another batch size (a run choice changed after the paste).
    const other = { ...measuredRun, batch_size: measuredRun.batch_size + 1 };
    const page2 = (await openOn(browser.context, other)).page;
    await openCheck(page2);
    await page2.locator('#wb-check-paste').fill(resultText);
    await page2.locator('.wb-check button', { hasText: 'Compare with the prediction' }).click();
    assert.match(plainText(await page2.locator('.wb-check__error:not([hidden])').textContent()),
      new RegExp(`another scenario: batch size: ${measured.scenario.batch_size} there, ${other.batch_size} here`));
    clean(problems);
  } finally { await browser.close(); }
});

test('by keyboard alone at 390 px in dark mode a result is pasted and compared; axe finds nothing, nothing scrolls sideways, no column is cut', async () => {
  const browser = await launch({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  try {
    const { page, problems } = await openOn(browser.context, measuredRun);
    assert.deepEqual(await axeViolations(page), []);
    await page.locator('.wb-check > summary').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.wb-check[open]');
    await page.locator('#wb-check-paste').focus();
    await page.keyboard.insertText(resultText);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.wb-check__result:not([hidden])');
    // The phases open (Enter on their disclosure): every table fits the phone, no column cut or scrolled to.
    await page.locator('.wb-check__phases summary').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.wb-check__phases[open]');
    assert.deepEqual(await axeViolations(page), []);
    assert.equal(await scrollsSideways(page), false);
    const cut = await page.locator('.wb-check__result table').evaluateAll((ts) => ts.flatMap((t) => {
      const box = t.parentElement.getBoundingClientRect();
      return [...t.querySelectorAll('td')].filter((td) => td.getBoundingClientRect().right > box.right + 0.5).map((td) => td.dataset.label);
    }));
    assert.deepEqual(cut, [], 'cells past the table box\'s right edge');
    assert.match(await page.locator('.wb-check__peaks td').last().evaluate((td) => getComputedStyle(td, '::before').content), /Error/);
    clean(problems);
  } finally { await browser.close(); }
});

test('choosing the CPU for a big step warns of a long run, in minutes the estimate gives; a small step gets no warning', async () => {
  const browser = await launch();
  try {
    const big = { ...measuredRun, model: 'gpt2-small', precision: 'autocast_bf16', batch_size: 8, seq_len: 1024, optimizer: 'adam' };
    for (const [run, warns] of [[measuredRun, false], [big, true]]) {
      const { page, problems } = await openOn(browser.context, run);
      await openCheck(page);
      await page.getByLabel('this computer’s CPU', { exact: false }).check();
      const slow = page.locator('.wb-check__slow');
      assert.equal(await slow.isVisible(), warns);
      if (warns) {
        const minutes = Math.ceil(cpuRunSeconds(checkFor(engine.evaluate, forBuild(await shownScenario(page), 'cpu-1.13'))) / 60);
        assert.equal(plainText(await slow.textContent()), `⚠ On a CPU this may run for about ${minutes.toLocaleString('en-US')} minutes; a smaller batch or sequence is quicker.`);
        await page.getByLabel('a CUDA GPU').check();
        assert.equal(await slow.isVisible(), false, 'no warning for the GPU');
      }
      clean(problems);
      await page.close();
    }
  } finally { await browser.close(); }
});
