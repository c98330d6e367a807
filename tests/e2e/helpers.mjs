// Shared helpers for the headless-Chromium end-to-end tests: serve dist/ with the strict CSP on a free
// port, launch Debian's Chromium through playwright-core in a fresh profile, watch every page for
// console errors and requests to other origins, inject axe-core (addScriptTag is blocked by the CSP),
// and evaluate the same scenarios in Node with the same WASM build for comparison.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createServer, listen } from '../../scripts/serve-static.mjs';
import { loadEngine } from '../../scripts/engine-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// LAB_DIST_DIR: another built site (a parallel checkout's `vite build --outDir`).
export const distDir = process.env.LAB_DIST_DIR ? path.resolve(process.env.LAB_DIST_DIR) : path.join(root, 'dist');

export async function startServer() {
  if (!existsSync(path.join(distDir, 'index.html'))) throw new Error('dist/ is missing: run `./node_modules/.bin/vite build` first');
  const server = createServer(distDir);
  const port = await listen(server, 0);
  return { server, origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch(options = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lab08-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 }, ...options,
  });
  return { context, close: async () => { await context.close(); rmSync(dir, { recursive: true, force: true }); } };
}

// A page that records console errors, page errors and requests leaving `origin`.
export async function watchedPage(context, origin) {
  const page = await context.newPage();
  return { page, problems: recordProblems(page, [origin]) };
}

// Console errors, page errors and requests outside `allowed` (URL prefixes; data: always allowed).
function recordProblems(page, allowed) {
  const problems = { consoleErrors: [], foreignRequests: [] };
  page.on('console', (msg) => { if (msg.type() === 'error') problems.consoleErrors.push(msg.text()); });
  page.on('pageerror', (err) => problems.consoleErrors.push(`pageerror: ${err.message}`));
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith('data:') && !allowed.some((a) => url.startsWith(a))) problems.foreignRequests.push(url);
  });
  return problems;
}

export async function openLab(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
}

// Locks in Act 2's prediction (option `choice`) on an open Act 2 page and waits for the act to open.
// Opens Act 1's Math Peek and waits for its lines: its model is fetched on the first open.
export async function openPeek(page) {
  await page.locator('[data-act="1"] .math-peek summary').click();
  await page.waitForSelector('[data-act="1"] .math-peek[open]:not([aria-busy]) .peek-line');
}

// Opens the lab at `query` with no saved progress: the lab page is left first (it writes its state
// when it is left), then the origin's storage is cleared through the browser (CDP).
export function freshLab(page, origin) {
  let cdp = null;
  return async (query) => {
    cdp ||= await page.context().newCDPSession(page);
    await page.goto('about:blank');
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
    await openLab(page, `${origin}/${query}`);
  };
}

export async function predictAct2(page, choice) {
  await page.locator(`[data-act="2"] .prediction input[value="${choice}"]`).check();
  await page.locator('[data-act="2"] .prediction button[type=submit]').click();
  await page.waitForSelector('[data-act="2"] .act-unlocked:not([hidden])');
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// Runs axe-core (WCAG 2.0/2.1 A and AA rules plus best practices) and returns its violations.
// `disable`: rule ids to leave out (each caller says why).
export async function axeViolations(page, { disable = [] } = {}) {
  await page.evaluate(axeSource);
  return page.evaluate(async (off) => {
    const rules = Object.fromEntries(off.map((id) => [id, { enabled: false }]));
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, rules });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  }, disable);
}

// Takes Act 2's laptop challenge to the solver's floor (mixed precision, SGD, full recompute, batch 1)
// and waits for the limit to show.
export async function laptopToFloor(page) {
  const lap = '[data-act="2"] .laptop';
  for (const [control, value] of [['Precision', 'mixed'], ['Optimizer', 'sgd'], ['Activation checkpointing', 'full'], ['Batch size', '1']]) {
    await page.locator(`${lap} .control:has-text("${control}") select`).selectOption(value);
  }
  await page.waitForSelector(`${lap} .limit:not([hidden])`);
}

let enginePromise = null;
// evaluate(scenario) with the same WASM build the page uses, in Node.
export async function nodeEvaluate() {
  enginePromise ||= loadEngine();
  const m = await enginePromise;
  return (scenario) => JSON.parse(m.evaluate(JSON.stringify(scenario)));
}

// Text of the ledger table cell for a component row and optimizer column.
export async function ledgerCell(page, row, optimizer) {
  const cell = page.locator(`.ledger-table tr[data-row="${row}"] td[data-optimizer="${optimizer}"]`);
  return { text: (await cell.textContent()).trim(), bytes: Number(await cell.getAttribute('data-bytes')) };
}

// Resolves once the act's deferred rendering (the parts updated just after the next paint) has run.
export async function settle(page) {
  await page.waitForFunction(() => !document.querySelector('#act-root[data-pending]'));
}

// Waits until the address bar has caught up with the settings: the app writes it a moment after each
// change, while the share link follows at once. A test that reads page.url() before then reads an
// address a reload would replace with the pending one.
export async function addressSettled(page) {
  await page.waitForFunction(() => { const s = document.querySelector('.share__url'); return s && s.value !== '' && new URL(s.value).search === location.search; });
  return page.url();
}

// Waits until the page's ledger shows the engine's numbers for `config` (selected optimizer's peak
// cell), then checks every row of the table twin, the banner, the chart's over-budget marks and the
// summary against the Node engine. Returns the engine results by optimizer.
export async function expectLedger(page, config, assert, { toScenario, formatBytes, OPTIMIZERS }) {
  const evaluate = await nodeEvaluate();
  const results = Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o }))]));
  const sel = results[config.optimizer].memory;
  await settle(page);
  await page.waitForFunction(([opt, bytes]) => {
    const cell = document.querySelector(`.ledger-table tr[data-row="peak"] td[data-optimizer="${opt}"]`);
    return cell && cell.dataset.bytes === bytes;
  }, [config.optimizer, String(sel.peak_bytes)]);
  const units = config.units || 'gb';
  for (const opt of OPTIMIZERS) {
    const m = results[opt].memory;
    const expectRows = {
      weights: m.components.weights, gradients: m.components.gradients, activations: m.components.activations,
      total: m.total_bytes, peak: m.peak_bytes, budget: sel.usable_device_bytes,
    };
    for (const [row, bytes] of Object.entries(expectRows)) {
      const cell = await ledgerCell(page, row, opt);
      assert.equal(cell.bytes, bytes, `${row}/${opt}`);
      // A component row may be rounded together with the others to add up to the total (ledger-table.js
      // termHundredths): a hundredth either way of its own rounding.
      const close = (text) => Math.abs(Number(text.replace(/[^0-9.]/g, '')) - Number(formatBytes(bytes, units).replace(/[^0-9.]/g, ''))) <= 0.0100001;
      assert.ok(bytes > 0 ? (['total', 'peak', 'budget'].includes(row) ? cell.text.startsWith(formatBytes(bytes, units)) : close(cell.text)) : cell.text.startsWith('—'), `${row}/${opt}: ${cell.text}`);
    }
    const over = await page.locator(`.ledger-chart g.col[data-optimizer="${opt}"]`).evaluate((g) => g.classList.contains('col--over'));
    assert.equal(over, !m.fits, `over-budget mark for ${opt}`);
  }
  assert.equal(await page.locator('.banner').getAttribute('data-binding'), sel.binding.kind);
  const summary = await page.locator('.chart-summary').textContent();
  assert.ok(summary.includes(formatBytes(sel.peak_bytes, units)), summary);
  return results;
}

// Presses Tab until the focused element matches `selector` (at most `limit` presses); proves the
// element is reachable from the keyboard and returns how many presses it took.
export async function tabTo(page, selector, limit = 80) {
  for (let i = 1; i <= limit; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => document.activeElement && document.activeElement.matches(sel), selector)) return i;
  }
  throw new Error(`could not reach ${selector} with Tab`);
}

// The focused element shows a visible focus indicator (outline or box-shadow).
export async function focusIsVisible(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const cs = getComputedStyle(el);
    return (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none';
  });
}

// ---- Shipping tests (ship-*.test.mjs): the single file, the element, the iframe page, hosting.
// The policy the hosted build must run under (web/README.md, on hosting), exactly as the issue states it.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
// scripts/build-single.mjs writes the single file beside the site: <site>-single/.
export const singleFile = `${distDir}-single/lab08-model-training.html`;

// Serves `dir` (default: the built site) with options of scripts/serve-static.mjs (prefix, csp, pages).
// `host`: the name the browser uses (127.0.0.1, or localhost for a second, cross-site origin).
export async function startSite({ dir = distDir, host = '127.0.0.1', ...options } = {}) {
  if (!existsSync(path.join(dir, 'lab-model-train.js'))) throw new Error(`${dir}/lab-model-train.js is missing: run node scripts/build-single.mjs after vite build`);
  const server = createServer(dir, options);
  const port = await listen(server, 0);
  return { server, origin: `http://${host}:${port}`, close: () => new Promise((r) => server.close(r)) };
}

// A page that records console errors, page errors, requests outside `allowed` (URL prefixes; data: is
// always allowed) and every Content-Security-Policy violation event, in the page and its frames.
export async function shipPage(context, allowed) {
  const page = await context.newPage();
  const problems = recordProblems(page, allowed);
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`), true);
  });
  return { page, problems };
}

// The page scrolls sideways (content wider than the viewport).
export async function scrollsSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

// What a student must read: the words rendered in `selector` (default: the open act), from the
// browser's innerText, which leaves out closed <details>, hidden elements and display:none parts;
// text kept for screen readers only (.visually-hidden, e.g. a step's "(done)") is left out too.
// A word is a run of non-space characters holding a letter or a digit ("—" and "×" alone are not).
export async function visibleWords(page, selector = 'main', { hide = [] } = {}) {
  return page.locator(selector).first().evaluate((el, hideSelectors) => {
    const words = (t) => t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    const hidden = [...el.querySelectorAll('.visually-hidden'), ...hideSelectors.flatMap((q) => [...el.querySelectorAll(q)])]
      .filter((x) => x.style.display !== 'none');
    for (const x of hidden) x.style.display = 'none';
    try {
      // innerText lists every option of a menu, but a closed menu shows only the chosen one.
      let unseen = 0;
      for (const menu of el.querySelectorAll('select')) {
        if (menu.multiple || menu.size > 1 || menu.getClientRects().length === 0) continue;
        for (const o of menu.options) if (!o.selected) unseen += words(o.text);
      }
      return words(el.innerText) - unseen;
    } finally { for (const x of hidden) x.style.display = ''; }
  }, hide);
}
