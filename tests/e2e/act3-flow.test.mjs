// Act 3 in the page: the navigation entry after Act 2, the URL round trip and named errors for bad
// values, Act 2's laptop limit linking in with its settings, and (with lab_scale in the build) the
// prediction lock, the explorer, the reveal against the solver (lab_scale in Node), the two reflections,
// and the page's state as a design ledger that lab_ledger verifies with Act 3 re-computed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, watchedPage, freshLab, predictAct2, laptopToFloor, addressSettled } from './helpers.mjs';
import { A3, act3Engine, lockAct3, savedAct3, NO_ENGINE } from './act3-helpers.mjs';
import { loadScaleEngine, loadEngine } from '../../scripts/engine-node.mjs';
import { buildDesignLedger, validateLedger } from '../../web/src/ledger/design-ledger.js';
import { PREDICT3, toScenario3, devicesNeeded, stepByInterconnect } from '../../web/src/models/act3-model.js';
import { formatRatio, formatSeconds, plainText } from '../../web/src/format/format.js';
import { QUANTITY3 } from '../../web/src/ledger/ledger-act3.js';
import { DP_QUESTION, CEILING_QUESTION } from '../../web/src/content/act3-text.js';

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

test('Act 3 comes after Act 2 in the navigation and opens at ?act=3 with its prediction first', async () => {
  await freshLab(page, srv.origin)('?act=3');
  const nav = await page.locator('#act-nav a').allTextContents();
  assert.ok(nav.findIndex((t) => t.startsWith('Act 3: Past one GPU')) === nav.findIndex((t) => t.startsWith('Act 2')) + 1, nav.join(' | '));
  assert.equal(await page.locator(`${A3} h2`).textContent(), 'Act 3: Past one GPU');
  await act3Engine(page);
  assert.equal(await page.locator(`${A3} .act-unlocked`).isHidden(), true, 'nothing opens before the lock');
  assert.deepEqual(problems.consoleErrors, []);
});

test('Act 3\'s settings survive the address, and bad values are named with the rest kept', async () => {
  const q = '?act=3&gpus=64&strategy=zero2&net=pcie4&batch=2&dev=h100-sxm-80gb&prec=mixed&opt=adam&ckpt=full&units=gb';
  await freshLab(page, srv.origin)(q);
  assert.equal(new URL(await addressSettled(page)).search, q);
  await freshLab(page, srv.origin)('?act=3&gpus=3&strategy=magic&net=pcie4');
  const notices = await page.locator('[data-notice="url"] li').allTextContents();
  assert.equal(notices.length, 2, notices.join(' | '));
  assert.match(notices.join(' '), /gpus=3: the number of GPUs must be a power of two/);
  assert.match(notices.join(' '), /strategy=magic: not a strategy/);
  assert.match(new URL(await addressSettled(page)).search, /gpus=8&strategy=zero3&net=pcie4/);
  assert.deepEqual(problems.consoleErrors, []);
});

test('Act 2\'s laptop limit links into Act 3 with the challenge\'s settings', async () => {
  await freshLab(page, srv.origin)('?act=2');
  await predictAct2(page, 'a');
  await laptopToFloor(page);
  const link = page.locator('[data-act="2"] a[data-link="act3"]');
  assert.match(await link.getAttribute('href'), /^\?act=3&prec=mixed&opt=sgd&ckpt=full&batch=1&dev=rtx4060-laptop-8gb$/);
  await link.click();
  await page.waitForSelector(A3);
  assert.match(new URL(await addressSettled(page)).search, /&batch=1&dev=rtx4060-laptop-8gb&prec=mixed&opt=sgd&ckpt=full/);
  // The carried settings are on screen, not only in the address: the question asks about Adam, and a
  // walk found the explorer showing SGD's fit with no word of SGD anywhere.
  if (await act3Engine(page)) {
    const shown = async (key) => page.locator(`${A3} [data-control="${key}"] select`).evaluate((el) => el.selectedOptions[0].textContent);
    assert.equal(await shown('opt'), 'SGD (no state)');
    assert.equal(await shown('prec'), 'Mixed (16-bit, FP32 master)');
    assert.equal(await shown('ckpt'), 'Full recompute');
  }
  assert.deepEqual(problems.consoleErrors, []);
});

test('without the multi-device engine Act 3 says it cannot start and opens nothing', async (t) => {
  await freshLab(page, srv.origin)('?act=3');
  if (await act3Engine(page)) { t.skip('this build has lab_scale'); return; }
  assert.match(await page.locator(`${A3} .boot__status[role=alert]`).textContent(), /Act 3 cannot start/);
  assert.equal(await page.locator(`${A3} .prediction input`).isDisabled(), true);
});

test('the lock, the reveal against the solver, and both reflections scored', async (t) => {
  await freshLab(page, srv.origin)('?act=3');
  if (!(await act3Engine(page))) { t.skip(NO_ENGINE); return; }
  await page.fill(`${A3} .prediction input`, 'many');
  await page.click(`${A3} .prediction button[type=submit]`);
  assert.match(await page.locator(`${A3} .prediction .field-error`).textContent(), /whole number of GPUs/);
  await lockAct3(page, 2);
  assert.equal(await page.locator(`${A3} .reveal-button`).isDisabled(), true, 'the reveal waits for a change');
  await page.selectOption(`${A3} [data-control="net"] select`, 'pcie4');
  await page.click(`${A3} .reveal-button`);
  await page.waitForSelector(`${A3} .reveal[data-revealed]`);
  const state = await savedAct3(page, 'revealed');
  // The engine's numbers, from lab_scale in Node: the solver's count, and its step on each wire.
  const raw = await loadScaleEngine();
  const scale = { evaluate: (x) => JSON.parse(raw.evaluate(JSON.stringify(x))), solve: (x) => JSON.parse(raw.solve(JSON.stringify(x))) };
  const spec = JSON.parse(raw.catalog()).models.find((m) => m.id === 'gpt2-xl').spec;
  const k = devicesNeeded(scale, spec).devices;
  assert.equal(state.prediction.truth_devices, k);
  assert.equal(plainText(await page.locator(`${A3} .reveal__key`).textContent()), `You said 2 GPUs; the engine’s solver needs ${k} GPUs. You were off by ${formatRatio(k / 2)} (too few).`);
  const cost = plainText(await page.locator(`${A3} [data-reveal="cost"]`).textContent());
  const { step_s } = stepByInterconnect(scale, toScenario3(PREDICT3, spec, { gpus: k }));
  for (const s of Object.values(step_s)) assert.ok(cost.includes(plainText(formatSeconds(s))), `${cost} has ${formatSeconds(s)}`);
  await page.check(`${A3} form[data-question="dp"] input[value="copies"]`);
  await page.click(`${A3} form[data-question="dp"] button[type=submit]`);
  await page.check(`${A3} form[data-question="ceiling"] input[value="count"]`);
  await page.click(`${A3} form[data-question="ceiling"] button[type=submit]`);
  await page.waitForFunction(() => /Act 3 complete/.test(document.querySelector('[data-act="3"] .done').textContent));
  const after = await savedAct3(page, 'done');
  assert.equal(after.result.devices_needed, after.prediction.truth_devices);
  assert.equal(after.result.reflect.length, 2);
  // The page's own state as a design ledger: lab_ledger re-computes Act 3's record and agrees.
  const core = await loadEngine();
  const full = await page.evaluate(() => JSON.parse(localStorage.getItem('lab08-model-train/state')));
  const ledger = buildDesignLedger(full, { evaluate: (x) => JSON.parse(core.evaluate(JSON.stringify(x))), solve: (x) => JSON.parse(core.solve(JSON.stringify(x))), version: () => core.version() });
  assert.deepEqual(validateLedger(ledger), []);
  const v = JSON.parse(core.verify_ledger(JSON.stringify(ledger)));
  assert.equal(v.status, 'ok', JSON.stringify(v.differing_fields || v.error));
  assert.ok(v.fields.some((f) => f.field === 'result_snapshot.act3.devices_needed'), 'Act 3 re-computed');
  // The design ledger's page lists Act 3's prediction against the solver and both answers (walk: it said
  // "No predictions recorded yet." after Act 3).
  await page.click(`${A3} .done a`);
  const L = '[data-act="ledger"]';
  await page.waitForSelector(`${L} [data-prediction="act3"]`);
  assert.equal(plainText(await page.locator(`${L} [data-prediction="act3"]`).textContent()),
    plainText(`${QUANTITY3}: you chose 2 GPUs, the engine’s solver needs ${k} GPUs: off by ${formatRatio(k / 2)} (too few).`));
  assert.equal(plainText(await page.locator(`${L} .ledger-cal__sentence`).textContent()), plainText(`You under-estimated the GPUs needed by about ${formatRatio(k / 2)}.`));
  const answers = (await page.locator(`${L} [data-reflection]`).allTextContents()).map(plainText);
  assert.equal(answers.length, 2, answers.join(' | '));
  const [dpWord, ceilingWord] = [after.reflection_dp.correct, after.reflection_ceiling.correct].map((ok) => (ok ? 'right' : 'not right'));
  assert.ok(answers[0].startsWith(DP_QUESTION.prompt) && answers[0].includes('“Every GPU still holds') && answers[0].endsWith(`: ${dpWord}.`), answers[0]);
  assert.ok(answers[1].startsWith(CEILING_QUESTION.prompt) && answers[1].includes('“Only the number of GPUs') && answers[1].endsWith(`: ${ceilingWord}.`), answers[1]);
  const right = [after.reflection_dp.correct, after.reflection_ceiling.correct].filter(Boolean).length;
  assert.match(await page.locator(`${L} [data-note="reflections"]`).textContent(), new RegExp(`^Reflections: ${right} of 2 answered right`));
  assert.match(await page.locator(`${L} textarea.ledger-summary`).inputValue(), new RegExp(`- ${DP_QUESTION.prompt.replace(/[?.]/g, '\\$&')} You chose`));
  assert.deepEqual(problems.consoleErrors, []);
});

test('the single file opens Act 3 from disk, and <lab-model-train act="3"> opens it in a course page', async () => {
  const { pathToFileURL } = await import('node:url');
  const { singleFile, startSite, shipPage, STRICT_CSP } = await import('./helpers.mjs');
  await page.goto(`${pathToFileURL(singleFile).href}?act=3`);
  await page.waitForSelector('html[data-ready="true"] [data-act="3"]', { timeout: 30000 });
  await act3Engine(page);
  assert.equal(await page.locator('#act-title').textContent(), 'Act 3: Past one GPU');
  const site = await startSite({ csp: STRICT_CSP, pages: { '/course/act3.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Act 3</title><link rel="icon" href="./icon.svg">
<script type="module" src="../lab-model-train.js"></script></head><body><main><h1>Week 9</h1><lab-model-train act="3" gpus="16" net="pcie4" storage="memory"></lab-model-train></main></body></html>`,
  '/course/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>' } });
  try {
    const shipped = await shipPage(browser.context, [site.origin]);
    await shipped.page.goto(`${site.origin}/course/act3.html`);
    await shipped.page.waitForFunction(() => document.querySelector('lab-model-train').dataset.ready === 'true', null, { timeout: 30000 });
    assert.equal(await shipped.page.locator('lab-model-train #act-title').textContent(), 'Act 3: Past one GPU');
    assert.equal(await shipped.page.locator('lab-model-train [data-notice="url"], lab-model-train [data-notice="element"]').count(), 0, 'its Act 3 attributes are read without a problem');
    assert.deepEqual(shipped.problems.consoleErrors, []);
    await shipped.page.close();
  } finally { await site.close(); }
});
