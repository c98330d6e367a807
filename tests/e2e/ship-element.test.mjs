// <lab-model-train> in headless Chromium: two elements with different attributes on one course page
// served with the strict CSP (one script tag, no inline code), each with its own act, settings, locks,
// theme, store and events; bad attributes explained inside the element; the page's address untouched;
// a Quarto-like page whose global styles do not leak in, while the palette's custom properties theme it.
// axe-core with zero violations (light and dark), no console errors, no CSP violation, no foreign request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, launch, shipPage, axeViolations, STRICT_CSP } from './helpers.mjs';

const course = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Week 8 — two labs</title><link rel="icon" href="./assets/course.svg">
<script type="module" src="../../lab-model-train.js"></script></head>
<body><main><h1>Week 8: memory and speed</h1>
<p>First the optimizer's memory tax:</p>
<lab-model-train id="a" act="1" opt="sgd" batch="8" lock="dev" hide="replay"></lab-model-train>
<p>Then the MFU gap, in GiB:</p>
<lab-model-train id="b" act="2" units="gib" batch="7" workers="4" theme="dark" storage="mystery"></lab-model-train>
</main></body></html>`;
// Quarto's HTML output: Bootstrap-like global rules on buttons, tables, headings and links.
const quarto = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chapter 8 lab</title><link rel="icon" href="./assets/course.svg"><link rel="stylesheet" href="./quarto.css">
<script type="module" src="../../lab-model-train.js"></script></head>
<body class="quarto-light"><div id="quarto-content" class="page-columns"><main class="content" id="quarto-document-content">
<header id="title-block-header"><h1 class="title">Lab 08</h1></header>
<section id="the-lab" class="level2"><h2>Try it</h2><lab-model-train act="2" storage="memory"></lab-model-train></section>
<section id="measure" class="level2"><h2>Measure it</h2><lab-model-train id="m" act="measure" storage="memory"></lab-model-train></section>
</main></div></body></html>`;
const quartoCss = `h2 { border-bottom: 7px solid rgb(255, 0, 0); } button, .btn { border: 7px solid rgb(255, 0, 0); }
table { border: 7px solid rgb(255, 0, 0); } a { color: rgb(255, 0, 0); }
lab-model-train { --accent: rgb(106, 27, 154); --focus: rgb(106, 27, 154); }`;

let site;
let browser;
before(async () => {
  site = await startSite({ csp: STRICT_CSP, pages: {
    '/course/week8/element.html': course, '/course/week8/quarto.html': quarto, '/course/week8/quarto.css': quartoCss,
    '/course/week8/assets/course.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>',
  } });
  browser = await launch();
});
after(async () => { await browser?.close(); await site?.close(); });

async function open(page, path) {
  await page.addInitScript(() => {
    window.__events = [];
    for (const type of ['lab:ready', 'lab:progress', 'lab:ledger']) {
      document.addEventListener(type, (e) => window.__events.push({ type, id: e.target.id, detail: e.detail }));
    }
  });
  await page.goto(`${site.origin}${path}`);
  await page.waitForFunction(() => [...document.querySelectorAll('lab-model-train')].every((el) => el.dataset.ready === 'true'), null, { timeout: 30000 });
}
const events = (page, type, id) => page.evaluate(([t, i]) => window.__events.filter((e) => e.type === t && e.id === i), [type, id]);
const until = async (fn, what, ms = 15000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) { const v = await fn(); if (v) return v; }
  throw new Error(`timed out waiting for ${what}`);
};
const cssVar = (page, sel, name) => page.locator(sel).evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);
async function clean(page, problems, label, disable = []) {
  const v = await axeViolations(page, { disable });
  assert.deepEqual(v, [], `${label}: ${JSON.stringify(v, null, 1)}`);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], `${label}: CSP violations`);
  assert.deepEqual(problems.consoleErrors, [], label);
  assert.deepEqual(problems.foreignRequests, [], label);
}

test('two elements on one page: each its own act, settings, locks, theme, store and events', async () => {
  const { page, problems } = await shipPage(browser.context, [site.origin]);
  await page.emulateMedia({ colorScheme: 'light' });
  await open(page, '/course/week8/element.html');
  const url = page.url();
  assert.match(await page.locator('#a #act-title').textContent(), /Act 1/);
  assert.match(await page.locator('#b #act-title').textContent(), /MFU gap/);
  // a: attributes applied, a control locked and one hidden; no notice.
  assert.equal(await page.locator('#a [data-control="opt"] input[value="sgd"]').isChecked(), true);
  assert.equal(await page.locator('#a [data-control="batch"] output').textContent(), '8');
  assert.equal(await page.locator('#a [data-control="dev"] select').isDisabled(), true);
  assert.match(await page.locator('#a [data-control="dev"]').textContent(), /Locked by your instructor/);
  assert.equal(await page.locator('#a [data-control="replay"]').isHidden(), true);
  assert.equal(await page.locator('#a [data-notice="url"], #a [data-notice="element"]').count(), 0);
  // b: GiB, 4 workers; the bad batch and the unknown storage value are named and nothing else is lost.
  assert.equal(await page.locator('#b .units input[value="gib"]').isChecked(), true);
  assert.equal(await page.locator('#a .units input[value="gb"]').isChecked(), true);
  assert.match(await page.locator('#b [data-notice="url"]').textContent(), /of this embedded lab \(its attributes\)[\s\S]*batch=7: not one of the batch sizes/);
  assert.match(await page.locator('#b [data-notice="element"]').textContent(), /storage="mystery": use local/);
  // Themes: a follows the page's (light) scheme, b is dark by its attribute.
  assert.equal(await cssVar(page, '#a .lab-body', '--bg'), '#ffffff');
  assert.equal(await cssVar(page, '#b .lab-body', '--bg'), '#111418');
  assert.equal((await events(page, 'lab:ready', 'a')).length, 1);
  assert.equal((await events(page, 'lab:ready', 'b')).length, 1);
  assert.equal((await events(page, 'lab:ledger', 'a'))[0].detail.ledger.lab_id, 'lab08-model-train');

  // A prediction in a: a's progress and ledger events carry it; b's store is untouched.
  await page.locator('#a .prediction input[value="c"]').check();
  await page.locator('#a .prediction button[type=submit]').click();
  await page.locator('#a .act-unlocked:not([hidden])').waitFor();
  const progress = await until(async () => (await events(page, 'lab:progress', 'a')).find((e) => e.detail.progress.acts.act1.predicted), 'a lab:progress');
  assert.equal(progress.detail.labId, 'lab08-model-train');
  const ledger = await until(async () => (await events(page, 'lab:ledger', 'a')).find((e) => e.detail.ledger.predictions.length === 1), 'a lab:ledger');
  assert.equal(ledger.detail.ledger.knob_settings.act1.optimizer, 'sgd');
  assert.equal(await page.locator('#a').evaluate((el) => el.ledger.predictions.length), 1);
  assert.ok(!(await events(page, 'lab:progress', 'b')).some((e) => e.detail.progress.acts.act1.predicted));
  // Two copies of the lab on one page: the second names its regions "<heading> (2)", so every rule
  // runs, landmark-unique included.
  await clean(page, problems, 'two elements, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await cssVar(page, '#a .lab-body', '--bg'), '#111418');
  await clean(page, problems, 'two elements, dark');
  // Units in a do not move b; b switches to Act 1 in place, where its own prediction is still open.
  await page.locator('#a .units input[value="gib"]').check();
  assert.equal(await page.locator('#b .units input[value="gib"]').isChecked(), true);
  await page.locator('#b .units input[value="gb"]').check();
  assert.equal(await page.locator('#a .units input[value="gib"]').isChecked(), true);
  await page.locator('#b .act-nav a', { hasText: 'Act 1' }).click();
  await page.locator('#b [data-act="1"]').waitFor();
  assert.equal(await page.locator('#b .act-unlocked').isHidden(), true);
  assert.equal(await page.locator('#b').evaluate((el) => el.shadowRoot.activeElement && el.shadowRoot.activeElement.id), 'act-title', 'focus on the new act’s heading');
  assert.equal(page.url(), url, 'the page’s address is never rewritten');
  assert.deepEqual(problems.consoleErrors, []);

  // Reload: a's progress was saved under its own key; b (storage fell back to local) kept its own.
  const keys = await page.evaluate(() => Object.keys(localStorage).sort());
  assert.deepEqual(keys, ['lab08-model-train/state@/course/week8/element.html#a', 'lab08-model-train/state@/course/week8/element.html#b']);
  await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
  await open(page, '/course/week8/element.html');
  assert.match(await page.locator('#a .locked-note').textContent(), /Locked in: C/);
  assert.equal(await page.locator('#a .units input[value="gib"]').isChecked(), true);
  await page.close();
});

test('a Quarto-like page: its global styles stay outside, its custom properties theme the lab', async () => {
  const { page, problems } = await shipPage(browser.context, [site.origin]);
  await page.emulateMedia({ colorScheme: 'light' });
  await open(page, '/course/week8/quarto.html');
  const lab = page.locator('lab-model-train:not(#m)');
  assert.match(await lab.locator('#act-title').textContent(), /MFU gap/);
  assert.equal(await lab.locator('h2.lab-title').evaluate((el) => getComputedStyle(el).borderBottomWidth), '0px');
  assert.notEqual(await lab.locator('.act-nav a').first().evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(255, 0, 0)');
  assert.equal(await cssVar(page, 'lab-model-train:not(#m) .lab-body', '--accent'), 'rgb(106, 27, 154)');
  // storage="memory" is the course page's choice, not the browser's: the notice says which.
  assert.equal(await lab.locator('[data-notice="storage"]').getAttribute('data-storage'), 'memory');
  assert.match(await lab.locator('[data-notice="storage"]').textContent(), /^Your progress is kept in this tab only: this course page keeps the lab in memory\. Reloading or closing the tab loses it/);
  assert.doesNotMatch(await lab.locator('[data-notice="storage"]').textContent(), /browser/);
  await clean(page, problems, 'Quarto-like page');
  // "Measure it" in an element: its worker and lab_train come from the element's folder; Run, pressed
  // from the keyboard, hands focus to Cancel and back inside the shadow root.
  const m = page.locator('#m');
  await m.locator('.act--measure').waitFor();
  for (const [key, value] of [['batch_size', 1], ['seq_len', 8], ['steps', 10]]) await m.locator(`[data-control="${key}"] select`).selectOption(String(value));
  await m.getByRole('button', { name: 'Run', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#m').shadowRoot.querySelector('.run-status:not(.run-status--stall)')?.dataset.state), null, { timeout: 60000 });
  assert.match(await m.locator('.run-status:not(.run-status--stall) .run-status__text').textContent(), /^Done: 10 steps/);
  assert.equal(await m.evaluate((el) => el.shadowRoot.activeElement && el.shadowRoot.activeElement.textContent), 'Run');
  await clean(page, problems, 'Quarto-like page after a run');
  // One run at a time per page: Run in the other element while m's long run goes on says so, and does
  // not suggest reloading (which would stop m's run).
  for (const [key, value] of [['batch_size', 16], ['seq_len', 64], ['steps', 320]]) await m.locator(`[data-control="${key}"] select`).selectOption(String(value));
  await m.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => Number(document.querySelector('#m').shadowRoot.querySelector('.run-status:not(.run-status--stall)')?.dataset.done) >= 1, null, { timeout: 60000 });
  await lab.locator('.act-nav a', { hasText: 'Measure it' }).click();
  await lab.locator('.act--measure').waitFor();
  await lab.getByRole('button', { name: 'Run', exact: true }).click();
  await lab.locator('.run-status:not(.run-status--stall)[data-state="error"]').waitFor();
  const second = await lab.locator('.run-status:not(.run-status--stall) .run-status__text').textContent();
  assert.match(second, /another “Measure it” run on this page is still going \(one run at a time\); wait for it to end or cancel it, then press Run again/);
  assert.doesNotMatch(second, /reload/i);
  assert.equal(await m.locator('.run-status:not(.run-status--stall)').getAttribute('data-state'), 'running', 'the first run goes on');
  await m.getByRole('region', { name: /Configure and run/ }).getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => document.querySelector('#m').shadowRoot.querySelector('.run-status:not(.run-status--stall)')?.dataset.state === 'cancelled', null, { timeout: 30000 });
  await page.close();
});
