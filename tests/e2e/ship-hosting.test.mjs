// The hosted build as a static host serves it: under a sub-path (/course/labs/08/) with exactly the
// Content-Security-Policy web/README.md documents (default-src 'self'; script-src 'self' 'wasm-unsafe-eval';
// style-src 'self'). Every view (both acts, the design ledger, "Measure it" with a short run, the iframe
// page, the custom element) loads only from under the sub-path, raises no securitypolicyviolation
// event and no console error, and passes axe-core; at 200% zoom (a 1280 px window: 640 CSS px) and at
// 320 px the page never scrolls sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, launch, shipPage, axeViolations, scrollsSideways, STRICT_CSP } from './helpers.mjs';

const PREFIX = '/course/labs/08/';
const elementPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course page</title><link rel="icon" href="./labs/08/assets/none.svg">
<script type="module" src="./labs/08/lab-model-train.js"></script></head>
<body><main><h1>Lab</h1><lab-model-train act="1" storage="memory"></lab-model-train></main></body></html>`;

let site;
let browser;
let page;
let problems;
const requests = [];
before(async () => {
  site = await startSite({ prefix: PREFIX, csp: STRICT_CSP, pages: { '/course/element.html': elementPage, '/course/labs/08/assets/none.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' } });
  // 200% zoom of a 1280 × 900 window: a 640 × 450 CSS-pixel viewport drawn at 2 device pixels per pixel.
  browser = await launch({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
  ({ page, problems } = await shipPage(browser.context, [`${site.origin}${PREFIX}`, `${site.origin}/course/element.html`]));
  browser.context.on('request', (r) => requests.push(r.url()));
});
after(async () => { await browser?.close(); await site?.close(); });

const base = () => `${site.origin}${PREFIX}`;
async function checked(label, { sideways = true } = {}) {
  await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${label}: ${JSON.stringify(v, null, 1)}`);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], `${label}: CSP violations`);
  if (sideways) {
    for (const width of [640, 320]) {
      await page.setViewportSize({ width, height: 700 });
      assert.equal(await scrollsSideways(page), false, `${label} scrolls sideways at ${width} px`);
    }
    await page.setViewportSize({ width: 640, height: 450 });
  }
}

test('under /course/labs/08/ with the strict CSP: Act 1, Act 2 and the design ledger', async () => {
  await page.goto(base());
  assert.match(await page.locator('#act-title').textContent(), /Act 1/);
  await page.locator('.prediction input[value="c"]').check();
  await page.locator('.prediction button[type=submit]').click();
  await page.waitForSelector('.act-unlocked:not([hidden])');
  await checked('Act 1');
  await page.locator('.act-nav a', { hasText: 'Act 2' }).click();
  await page.waitForSelector('[data-act="2"]');
  assert.match(page.url(), /^http:\/\/127\.0\.0\.1:\d+\/course\/labs\/08\/\?act=2/);
  await checked('Act 2');
  await page.locator('.act-nav a', { hasText: 'Design ledger' }).click();
  await page.waitForSelector('[data-act="ledger"]');
  await checked('design ledger');
});

test('under /course/labs/08/ with the strict CSP: "Measure it" runs its worker', async () => {
  await page.goto(`${base()}?act=measure`);
  await page.waitForSelector('.act--measure');
  for (const [key, value] of [['batch_size', 1], ['seq_len', 8], ['steps', 10]]) await page.locator(`[data-control="${key}"] select`).selectOption(String(value));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('.run-status:not(.run-status--stall)')?.dataset.state), null, { timeout: 60000 });
  assert.match(await page.locator('.run-status:not(.run-status--stall) .run-status__text').textContent(), /^Done: 10 steps/);
  await checked('Measure it');
});

test('under /course/labs/08/ with the strict CSP: the iframe page and the custom element', async () => {
  await page.goto(`${base()}embed.html?act=2`);
  assert.match(await page.locator('#act-title').textContent(), /MFU gap/);
  await checked('embed.html');
  await page.goto(`${site.origin}/course/element.html`);
  await page.waitForSelector('lab-model-train[data-ready="true"]', { timeout: 30000 });
  await page.evaluate(() => document.documentElement.setAttribute('data-ready', 'true'));
  await checked('custom element');
});

test('nothing was requested outside the sub-path, and nothing went wrong', () => {
  const outside = requests.filter((u) => !u.startsWith(base()) && u !== `${site.origin}/course/element.html` && !u.startsWith('data:'));
  assert.deepEqual(outside, []);
  assert.ok(requests.some((u) => /\/course\/labs\/08\/assets\/lab_core-.*\.wasm$/.test(u)));
  assert.ok(requests.some((u) => /\/course\/labs\/08\/assets\/lab_train(_fma)?-.*\.wasm$/.test(u)));
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
});
